package dev.interlock.orchestrator;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ScheduleWindow;

import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code checkValidationDeadline}: may the NOT READY loop wait once more? The deadline is {@code sla.validationTimeout}
 * on the execution date, but never later than the default that leaves room for polling before the execution times
 * out. Every answer carries {@code exhausted}, so the loop always ends.
 */
public final class CheckValidationDeadline implements Action {

    /** Always-present payload. */
    public record Payload(boolean exhausted, String deadline) {
    }

    /** Request payload. */
    record Request(String executionStartTime, Integer executionTimeoutSeconds) {
    }

    private final Collaborators collaborators;

    public CheckValidationDeadline(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        int timeout = body.executionTimeoutSeconds() != null && body.executionTimeoutSeconds() > 0
                ? body.executionTimeoutSeconds() : collaborators.settings().executionTimeoutSeconds();
        Instant now = collaborators.now();
        Optional<Instant> start = executionStart(body, request);
        if (start.isEmpty()) {
            // Without a start there is no bound at all; stopping is the only answer that cannot loop forever.
            return Outcome.error("payload.executionStartTime is missing or not an ISO-8601 instant", errorPayload());
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            Instant fallback = start.get().plusSeconds(Math.max(0, timeout - PipelineTuning.SAFETY_MARGIN_SECONDS));
            return Outcome.error(Collaborators.notFound(request), payload(fallback, now));
        }
        Instant deadline = PipelineTuning.defaultValidationDeadline(pipeline.get(), start.get(), timeout);
        try {
            Instant configured = ScheduleWindow.of(pipeline.get(), request.scheduleId(), request.date()).validationDeadline();
            if (configured != null && configured.isBefore(deadline)) {
                deadline = configured;
            }
        } catch (IllegalArgumentException | DateTimeException e) {
            return Outcome.error("invalid sla.validationTimeout, using the execution's own deadline: " + e.getMessage(),
                    payload(deadline, now));
        }
        return Outcome.proceed(payload(deadline, now));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(true, "");
    }

    private static Payload payload(Instant deadline, Instant now) {
        return new Payload(!now.isBefore(deadline), InterlockJson.timestamp(deadline));
    }

    private Optional<Instant> executionStart(Request body, ActionRequest request) {
        if (body.executionStartTime() != null && !body.executionStartTime().isBlank()) {
            try {
                return Optional.of(Instant.parse(body.executionStartTime().trim()));
            } catch (DateTimeException e) {
                collaborators.log().warn(request.logContext(), "unparsable executionStartTime; using the run's creation time",
                        Map.of("executionStartTime", body.executionStartTime()));
            }
        }
        if (request.runId() == null) {
            return Optional.empty();
        }
        return collaborators.provider().runs().get(request.runId()).map(RunState::createdAt);
    }
}
