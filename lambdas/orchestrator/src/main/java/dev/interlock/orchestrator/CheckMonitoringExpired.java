package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.ExecutionBudget;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code checkMonitoringExpired}: runs before every monitoring wait (the first one included). It releases this
 * execution's lock (owner-conditional, so a repeat or a lock already released or held by another is a no-op):
 * monitoring never holds the day's lock while it waits, so reruns and evaluations of the day run at once. It ends the
 * monitoring loop when its window has passed, when another round would run into the execution timeout, when monitoring
 * was switched off, or when the day's run log shows the monitored run superseded ({@link MonitoredRun}). Every error
 * ends the loop too.
 */
public final class CheckMonitoringExpired implements Action {

    /** Always-present payload. */
    public record Payload(boolean expired) {}

    /** Request payload. */
    record Request(String monitoringStartedAt, String executionStartTime, Integer executionTimeoutSeconds) {}

    /** Time a round of re-evaluation is given on top of the wait (evaluators run in parallel). */
    static final int ROUND_SECONDS = 60;

    private final Collaborators collaborators;
    private final MonitoredRun monitoredRun;

    public CheckMonitoringExpired(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.monitoredRun = new MonitoredRun(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        if (request.executionName() != null) {
            collaborators.provider().locks().release(LockOwner.key(request), request.executionName());
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        Request body = request.payload(Request.class);
        int timeout = body.executionTimeoutSeconds() != null && body.executionTimeoutSeconds() > 0
                ? body.executionTimeoutSeconds()
                : collaborators.settings().executionTimeoutSeconds();
        PipelineTuning tuning;
        try {
            tuning = PipelineTuning.of(pipeline.get(), timeout);
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        if (!tuning.monitoringEnabled()) {
            return Outcome.proceed(new Payload(true));
        }
        Instant startedAt;
        try {
            startedAt = Instant.parse(String.valueOf(body.monitoringStartedAt()).trim());
        } catch (DateTimeException e) {
            return Outcome.error(
                    "payload.monitoringStartedAt is not an ISO-8601 instant: " + body.monitoringStartedAt(),
                    errorPayload());
        }
        Optional<String> superseded = monitoredRun.supersededBecause(request);
        if (superseded.isPresent()) {
            collaborators.record(
                    request,
                    EventKind.MONITORING_COMPLETED,
                    "SUPERSEDED",
                    "monitoring stopped: " + superseded.get(),
                    Map.of("monitoringStartedAt", String.valueOf(body.monitoringStartedAt())));
            return Outcome.proceed(new Payload(true));
        }
        Instant now = collaborators.now();
        Instant configuredEnd = startedAt.plusSeconds(tuning.monitoringDurationSeconds());
        boolean windowOver = !now.isBefore(configuredEnd);
        boolean noRoomForAnotherRound = false;
        if (body.executionStartTime() != null && !body.executionStartTime().isBlank()) {
            try {
                Instant limit = new ExecutionBudget(
                                Instant.parse(body.executionStartTime().trim()), timeout)
                        .end();
                noRoomForAnotherRound = now.plusSeconds(tuning.monitoringIntervalSeconds() + ROUND_SECONDS)
                        .isAfter(limit);
            } catch (DateTimeException e) {
                return Outcome.error(
                        "payload.executionStartTime is not an ISO-8601 instant: " + body.executionStartTime(),
                        errorPayload());
            }
        }
        boolean expired = windowOver || noRoomForAnotherRound;
        if (expired) {
            collaborators.record(
                    request,
                    EventKind.MONITORING_COMPLETED,
                    "EXPIRED",
                    windowOver
                            ? "monitoring window over"
                            : "monitoring stopped before the execution timeout; the configured window until "
                                    + InterlockJson.timestamp(configuredEnd) + " is not watched further",
                    Map.of(
                            "monitoringStartedAt",
                            body.monitoringStartedAt(),
                            "monitoringEndsAt",
                            InterlockJson.timestamp(configuredEnd)));
        }
        return Outcome.proceed(new Payload(expired));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(true);
    }
}
