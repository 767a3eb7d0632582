package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.workflow.ExecutionBudget;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code planRetry}: where the next attempt of a retryable failure runs. In this execution when, after the backoff
 * {@code logResult} computed, the attempt can still trigger and follow its job for the pipeline's whole maximum job
 * duration inside the execution's time budget; otherwise in a new execution (a successor marker that waits out the
 * rest of the backoff at the run-log gate), so no execution runs into States.Timeout with its run RUNNING and its lock
 * held. While this execution waits for its own retry it reports itself to the lock as evaluating again, so a marker
 * for the same day is absorbed instead of queued behind it.
 */
public final class PlanRetry implements Action {

    /**
     * Always-present payload.
     *
     * @param retryInExecution   wait the backoff (at the run-log gate) and try again in this execution
     * @param handedOver         the retry was handed to {@code successorExecution}; this execution ends
     * @param successorExecution the execution the successor marker starts, {@code ""} unless handed over
     */
    public record Payload(boolean retryInExecution, boolean handedOver, String successorExecution) {}

    /** Request payload. */
    record Request(
            Boolean retryable,
            Long retryBackoffSeconds,
            String executionStartTime,
            Integer executionTimeoutSeconds,
            Boolean replay) {}

    private final Collaborators collaborators;

    public PlanRetry(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        if (body.retryable() == null || !body.retryable()) {
            return Outcome.skip("not retryable", errorPayload());
        }
        if (request.runId() == null || request.executionName() == null) {
            return Outcome.error("runId and executionName are required to plan a retry", errorPayload());
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        Instant start;
        try {
            start = Instant.parse(String.valueOf(body.executionStartTime()).trim());
        } catch (DateTimeException e) {
            return Outcome.error(
                    "payload.executionStartTime is not an ISO-8601 instant: " + body.executionStartTime(),
                    errorPayload());
        }
        int timeout = body.executionTimeoutSeconds() != null && body.executionTimeoutSeconds() > 0
                ? body.executionTimeoutSeconds()
                : collaborators.settings().executionTimeoutSeconds();
        long backoff = Math.max(0, body.retryBackoffSeconds() == null ? 0 : body.retryBackoffSeconds());
        Instant now = collaborators.now();
        Instant retryAt = now.plusSeconds(backoff);
        Instant latestTrigger = new ExecutionBudget(start, timeout).latestTrigger(pipeline.get());
        if (!retryAt.isAfter(latestTrigger)) {
            reportRetryRound(request, retryAt, latestTrigger);
            return Outcome.proceed(new Payload(true, false, ""));
        }
        boolean replay = body.replay() != null && body.replay();
        String successor =
                new Successors(collaborators).handOver(request, MarkerSource.RETRY, request.executionName(), replay);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", request.executionName());
        details.put("successorExecution", successor);
        details.put("retryAt", InterlockJson.timestamp(retryAt));
        details.put("latestTrigger", InterlockJson.timestamp(latestTrigger));
        details.put(
                "reason",
                "the retry backoff of " + backoff + " s ends after the last moment this execution can "
                        + "still trigger and follow the job");
        collaborators.record(
                request,
                EventKind.EXECUTION_HANDED_OVER,
                "HANDED_OVER",
                "retry after " + backoff + " s handed over to " + successor,
                details);
        return Outcome.proceed(new Payload(false, true, successor));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, false, "");
    }

    /** The holder evaluates again when its backoff is over: a marker for the same day meanwhile is its work too. */
    private void reportRetryRound(ActionRequest request, Instant retryAt, Instant latestTrigger) {
        try {
            collaborators
                    .provider()
                    .locks()
                    .recordEvaluating(
                            LockOwner.key(request),
                            request.executionName(),
                            retryAt.plusSeconds(CheckValidationDeadline.ROUND_ALLOWANCE_SECONDS),
                            latestTrigger);
        } catch (RuntimeException e) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "could not report the retry round to the lock",
                            Map.of("error", String.valueOf(e.getMessage())));
        }
    }
}
