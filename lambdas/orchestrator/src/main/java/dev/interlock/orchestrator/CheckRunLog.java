package dev.interlock.orchestrator;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.RunLogKey;

import java.util.Optional;

/**
 * {@code checkRunLog}: the dedup and retry gate on the run log of the execution date. Only terminal failures are
 * attempts; the backoff uses the formula {@code logResult} reported, so the in-execution retry always passes.
 */
public final class CheckRunLog implements Action {

    /**
     * Always-present payload.
     *
     * @param attemptNumber     the attempt this execution would make (0 on skip and error)
     * @param retryAfterSeconds 0 unless skipped for backoff
     * @param status            the run-log status, {@code ""} when there is none
     */
    public record Payload(int attemptNumber, long retryAfterSeconds, String status) {
    }

    /** Request payload. */
    record Request(Boolean replay, String markerSource) {
    }

    private final Collaborators collaborators;

    public CheckRunLog(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        boolean replay = body.replay() != null && body.replay();
        Optional<RunLog> found = collaborators.provider().runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()));
        if (found.isEmpty()) {
            return Outcome.proceed(new Payload(1, 0, ""));
        }
        RunLog log = found.get();
        String status = log.status() == null ? "" : log.status().wireName();
        if (log.status() == RunLogStatus.COMPLETED && !replay) {
            return Outcome.skip("already completed", new Payload(0, 0, status));
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), new Payload(0, 0, status));
        }
        RetryPolicy policy = pipeline.get().retry();
        int used = AttemptLedger.attemptsUsed(log);
        Optional<RetryAttempt> lastFailure = AttemptLedger.lastFailure(log);
        // A replay is an explicit request to process the day again: only the backoff still applies to it.
        if (!replay && lastFailure.isPresent()
                && !AttemptLedger.retryableAcrossExecutions(policy, lastFailure.get().failureCategory())) {
            // (a null category reads as TRANSIENT, so it never gets here)
            return Outcome.skip("non-retryable failure (" + lastFailure.get().failureCategory() + ")",
                    new Payload(0, 0, status));
        }
        if (!replay && used >= policy.maxAttempts()) {
            return Outcome.skip("max attempts exceeded (" + used + " of " + policy.maxAttempts() + ")",
                    new Payload(0, 0, status));
        }
        if (lastFailure.isPresent()) {
            long wait = AttemptLedger.secondsUntilRetry(policy, used, lastFailure.get(), collaborators.now());
            if (wait > 0) {
                return Outcome.skip("backoff period", new Payload(0, wait, status));
            }
        }
        return Outcome.proceed(new Payload(used + 1, 0, status));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(0, 0, "");
    }
}
