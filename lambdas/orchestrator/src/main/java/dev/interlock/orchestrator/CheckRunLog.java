package dev.interlock.orchestrator;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.workflow.RunLogGate;
import dev.interlock.model.workflow.RunLogGate.Admission;
import dev.interlock.store.RunLogKey;
import java.util.Optional;

/**
 * {@code checkRunLog}: the dedup and retry gate on the run log of the execution date ({@link RunLogGate}; attempts as
 * {@code AttemptLedger} counts them, so waiting for data never uses one up).
 */
public final class CheckRunLog implements Action {

    /**
     * Always-present payload.
     *
     * @param attemptNumber     the attempt this execution would make (0 on skip and error)
     * @param retryAfterSeconds 0 unless skipped for backoff
     * @param status            the run-log status, {@code ""} when there is none
     */
    public record Payload(int attemptNumber, long retryAfterSeconds, String status) {}

    /** Request payload. */
    record Request(Boolean replay, String markerSource) {
        boolean isReplay() {
            return replay != null && replay;
        }
    }

    private final Collaborators collaborators;

    public CheckRunLog(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        boolean replay = request.payload(Request.class).isReplay();
        Optional<RunLog> log = collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()));
        String status =
                log.map(l -> l.status() == null ? "" : l.status().wireName()).orElse("");
        Optional<Admission> admission = RunLogGate.withoutPolicy(log, replay);
        if (admission.isEmpty()) {
            Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
            if (pipeline.isEmpty()) {
                return Outcome.error(Collaborators.notFound(request), new Payload(0, 0, status));
            }
            admission = Optional.of(RunLogGate.admit(log, pipeline.get().retry(), replay, collaborators.now()));
        }
        return switch (admission.get()) {
            case Admission.Proceed proceed -> Outcome.proceed(new Payload(proceed.attemptNumber(), 0, status));
            case Admission.Skip skip -> Outcome.skip(skip.reason(), new Payload(0, skip.retryAfterSeconds(), status));
        };
    }

    @Override
    public Payload errorPayload() {
        return new Payload(0, 0, "");
    }
}
