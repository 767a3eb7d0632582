package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.force.ForceReady;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.status.DayState;
import dev.interlock.model.status.ScheduleStatus;
import dev.interlock.store.Provider;
import dev.interlock.store.StatusReader;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Forcing a day ready (docs/operations.md, "Forcing a day ready"): {@code POST /pipelines/{id}/days/{date}/force-ready}
 * with a reason records the operator's word for that (pipeline, date, schedule) only, audits it as a
 * {@code FORCED_READY} event, and starts an evaluation of the day at once, whose round then triggers without the traits
 * that hold it back. Refused for a paused pipeline, a day that completed and a day whose job runs.
 */
final class ForceReadyRoutes {

    /** The answer: the force recorded and the evaluation it started. */
    record Forcing(
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String reason,
            String forcedBy,
            Instant forcedAt,
            Instant expiresAt,
            String executionName) {}

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;
    private final MarkerRoutes markers;

    ForceReadyRoutes(Provider provider, RequestBody body, Clock clock, MarkerRoutes markers) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
        this.markers = markers;
    }

    ApiResponse force(ApiRequest request, Map<String, String> path) {
        String pipelineId = PathIds.pipelineId(path.get("id"));
        List<ValidationError> errors = new ArrayList<>();
        LocalDate date = null;
        try {
            date = LocalDate.parse(String.valueOf(path.get("date")));
        } catch (DateTimeParseException e) {
            errors.add(new ValidationError("path.date", "'" + path.get("date") + "' is not a date (YYYY-MM-DD)"));
        }
        JsonNode document = body.readObject(request, false);
        RequestFields fields = RequestFields.read(document, List.of("reason", "scheduleId", "expiresAt"), errors);
        String reason = fields.prose("reason", true, ForceReady.MAX_REASON, errors);
        Instant now = clock.instant();
        Instant expiresAt = fields.instant("expiresAt", errors);
        if (expiresAt != null && !expiresAt.isAfter(now)) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, "expiresAt"),
                    InterlockJson.timestamp(expiresAt) + " is not in the future; a force that lapsed already would "
                            + "force nothing"));
        }
        PipelineConfig pipeline =
                provider.pipelines().get(pipelineId).orElseThrow(() -> PipelineRoutes.notFound(pipelineId));
        String scheduleId = MarkerRoutes.schedule(pipeline, fields.text("scheduleId"), errors);
        MarkerRoutes.windowExists(pipeline, scheduleId, date, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the force-ready request has " + errors.size() + " problem(s)", errors);
        }
        PauseRoutes.refuseIfPaused(provider, pipeline);
        refuseIfDoneOrRunning(pipeline, date, scheduleId);
        ForceReady force = new ForceReady(
                pipelineId,
                date,
                scheduleId,
                reason,
                request.caller(),
                now,
                expiresAt != null ? expiresAt : ForceReady.defaultExpiry(date));
        provider.forces().put(force);
        // Audited once it took effect: there is never a FORCED_READY event without its force.
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("forcedBy", force.forcedBy());
        details.put("reason", force.reason());
        details.put("expiresAt", InterlockJson.timestamp(force.expiresAt()));
        provider.events()
                .append(new Event(
                        EventKind.FORCED_READY,
                        pipelineId,
                        scheduleId,
                        date,
                        null,
                        null,
                        "FORCED",
                        force.forced().describe(),
                        details,
                        now));
        MarkerRoutes.Evaluation evaluation = markers.start(pipelineId, scheduleId, date, request.caller(), now);
        return ApiResponse.json(
                202,
                new Forcing(
                        pipelineId,
                        date,
                        scheduleId,
                        reason,
                        force.forcedBy(),
                        now,
                        force.expiresAt(),
                        evaluation.executionName()));
    }

    /** A 409 when the day completed or its job runs: forcing it would start nothing, or a second job. */
    private void refuseIfDoneOrRunning(PipelineConfig pipeline, LocalDate date, String scheduleId) {
        ScheduleStatus day = new StatusReader(provider, clock)
                .status(pipeline, date).schedules().stream()
                        .filter(s -> s.scheduleId().equals(scheduleId))
                        .findFirst()
                        .orElse(null);
        if (day == null) {
            return;
        }
        String which = pipeline.name() + " " + scheduleId + " " + date;
        if (day.state() == DayState.COMPLETED || day.state() == DayState.MONITORING) {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    which + " is COMPLETED; there is nothing to force (request a rerun to run it again)");
        }
        if (day.state() == DayState.TRIGGERING || day.state() == DayState.RUNNING) {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    which + " is " + day.state().wireName() + ": its job is running (run " + day.runId() + ")");
        }
    }
}
