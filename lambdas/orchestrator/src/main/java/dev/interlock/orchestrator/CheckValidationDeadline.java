package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.workflow.ExecutionBudget;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code checkValidationDeadline}: may the NOT READY loop wait once more, and in which execution? The deadline is
 * {@code sla.validationTimeout} on the execution date; without one, the last moment this execution can still trigger
 * and follow the job for its whole maximum duration ({@code ExecutionBudget.latestTrigger}). A configured deadline
 * later than that is honoured across executions: when the next round (one interval from now) would start after this
 * execution's latest trigger, the wait is handed to a successor execution ({@link Continuation}) that evaluates that
 * round, so the window is never cut. Every answer carries {@code exhausted}, so the loop always ends. Each round is
 * also reported to the execution's lock, which is how a marker for the same day knows it may be absorbed. A round
 * whose required trait failed PERMANENT ends the wait at once ({@link StoppedWait}).
 */
public final class CheckValidationDeadline implements Action {

    /**
     * Always-present payload. {@code failureCategory}, {@code message} and {@code trait} are what the run log records
     * when the wait ends: VALIDATION_EXHAUSTED at the deadline, PERMANENT with the trait when {@link StoppedWait} ends it.
     *
     * @param handedOver         the wait continues in {@code successorExecution}, which holds the lock now; this
     *                           execution ends
     * @param successorExecution the execution the continuation marker starts, {@code ""} unless handed over
     */
    public record Payload(
            boolean exhausted,
            String deadline,
            String failureCategory,
            String message,
            String trait,
            boolean handedOver,
            String successorExecution) {
        Payload(boolean exhausted, String deadline) {
            this(exhausted, deadline, FailureCategory.VALIDATION_EXHAUSTED.wireName(), DEADLINE_PASSED, "", false, "");
        }

        /** The wait goes on in {@code successor}, which holds the lock now. */
        static Payload handedOverTo(String deadline, String successor) {
            return new Payload(
                    false,
                    deadline,
                    FailureCategory.VALIDATION_EXHAUSTED.wireName(),
                    DEADLINE_PASSED,
                    "",
                    true,
                    successor);
        }
    }

    /** Request payload; {@code traitResults} is the round just judged (absent from older callers). */
    record Request(String executionStartTime, Integer executionTimeoutSeconds, Boolean replay, JsonNode traitResults) {}

    static final String DEADLINE_PASSED = "validation deadline passed before every required trait passed";

    /**
     * Time one evaluation round (the trait Map and the checks after it) may take on top of the wait before its holder
     * looks dead to markers that meet its lock. Too short only costs waiting (a live holder's markers wait instead of
     * being absorbed); too long risks absorbing work into a holder that just died (an operator's release hands such
     * work on). Five minutes covers every evaluator but one that uses most of the 15-minute trait timeout.
     */
    static final int ROUND_ALLOWANCE_SECONDS = 300;

    private final Collaborators collaborators;
    private final StoppedWait stoppedWait;

    public CheckValidationDeadline(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.stoppedWait = new StoppedWait(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request body = request.payload(Request.class);
        Optional<Outcome> stopped = stoppedWait.check(request, body.traitResults());
        if (stopped.isPresent()) {
            return stopped.get();
        }
        int timeout = body.executionTimeoutSeconds() != null && body.executionTimeoutSeconds() > 0
                ? body.executionTimeoutSeconds()
                : collaborators.settings().executionTimeoutSeconds();
        Instant now = collaborators.now();
        Optional<Instant> start = executionStart(body, request);
        if (start.isEmpty()) {
            // Without a start there is no bound at all; stopping is the only answer that cannot loop forever.
            return Outcome.error("payload.executionStartTime is missing or not an ISO-8601 instant", errorPayload());
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            Instant fallback = new ExecutionBudget(start.get(), timeout).end();
            return Outcome.error(Collaborators.notFound(request), payload(fallback, now));
        }
        Instant latestTrigger = new ExecutionBudget(start.get(), timeout).latestTrigger(pipeline.get());
        Instant deadline = latestTrigger;
        Outcome outcome;
        try {
            Instant configured = ScheduleWindow.of(pipeline.get(), request.scheduleId(), request.date())
                    .validationDeadline();
            if (configured != null) {
                deadline = configured;
            }
            outcome = Outcome.proceed(payload(deadline, now));
        } catch (IllegalArgumentException | DateTimeException e) {
            outcome = Outcome.error(
                    "invalid sla.validationTimeout, using the execution's own deadline: " + e.getMessage(),
                    payload(deadline, now));
        }
        reportRound(request, pipeline.get(), deadline, now);
        Instant nextRound = now.plusSeconds(Math.max(1, pipeline.get().evaluationIntervalSeconds()));
        if (outcome.result() == Result.PROCEED
                && now.isBefore(deadline)
                && nextRound.isAfter(latestTrigger)
                && request.executionName() != null) {
            boolean replay = body.replay() != null && body.replay();
            String successor =
                    new Continuation(collaborators).handOver(request, replay, timeout, deadline, latestTrigger);
            return Outcome.proceed(Payload.handedOverTo(InterlockJson.timestamp(deadline), successor));
        }
        return outcome;
    }

    /**
     * Tells the lock that its holder evaluates until {@code deadline} and starts its next round within an interval and
     * a round's time, so a marker for the same day is absorbed instead of waiting. Once the deadline has passed this
     * round may be the last, so the report is withdrawn. Best effort: without it markers wait instead.
     */
    private void reportRound(ActionRequest request, PipelineConfig pipeline, Instant deadline, Instant now) {
        if (request.executionName() == null) {
            return;
        }
        boolean last = !now.isBefore(deadline);
        Instant nextRoundBy =
                now.plusSeconds(Math.max(1, pipeline.evaluationIntervalSeconds()) + ROUND_ALLOWANCE_SECONDS);
        try {
            collaborators
                    .provider()
                    .locks()
                    .recordEvaluating(
                            LockOwner.key(request),
                            request.executionName(),
                            last ? null : nextRoundBy,
                            last ? null : deadline);
        } catch (RuntimeException e) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "could not report the evaluation round to the lock",
                            Map.of("error", String.valueOf(e.getMessage())));
        }
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
                collaborators
                        .log()
                        .warn(
                                request.logContext(),
                                "unparsable executionStartTime; using the run's creation time",
                                Map.of("executionStartTime", body.executionStartTime()));
            }
        }
        if (request.runId() == null) {
            return Optional.empty();
        }
        return collaborators.provider().runs().get(request.runId()).map(RunState::createdAt);
    }
}
