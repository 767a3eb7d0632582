package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.store.Provider;
import dev.interlock.store.RerunAcceptance;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code POST /pipelines/{id}/evaluations} and {@code …/reruns}: the operator's ways to start an evaluation. Both write a
 * marker, whose stream INSERT the stream router turns into an execution; a rerun also records the request in the
 * rerun ledger and marks the marker {@code replay} so a COMPLETED run log does not stop it. A rerun's ledger entry,
 * marker and event are written in one {@link Provider#acceptRerun} call, gated on the daily budget: all or nothing.
 */
final class MarkerRoutes {

    static final int MAX_REASON = 1000;
    static final int MAX_DESCRIPTION = 4000;

    private final Provider provider;
    private final RequestBody body;
    private final ApiSettings settings;
    private final Clock clock;
    private final Identifiers ids;

    MarkerRoutes(Provider provider, RequestBody body, ApiSettings settings, Clock clock, Identifiers ids) {
        this.provider = provider;
        this.body = body;
        this.settings = settings;
        this.clock = clock;
        this.ids = ids;
    }

    ApiResponse evaluate(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        JsonNode document = body.readObject(request, true);
        List<ValidationError> errors = new ArrayList<>();
        RequestFields fields = RequestFields.read(document, List.of("scheduleId", "date"), errors);
        PipelineConfig pipeline = provider.pipelines().get(id).orElseThrow(() -> PipelineRoutes.notFound(id));
        PauseRoutes.refuseIfPaused(provider, pipeline);
        String scheduleId = schedule(pipeline, fields.text("scheduleId"), errors);
        Instant now = clock.instant();
        LocalDate today = today(pipeline, scheduleId, now);
        LocalDate date = fields.date("date", errors);
        if (date == null) {
            date = today;
        } else if (date.isBefore(today.minusDays(settings.staleMarkerDays()))) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.ROOT, "date"),
                    date + " is more than " + settings.staleMarkerDays()
                            + " days ago, so its marker would be skipped as stale; request a rerun instead"));
        } else if (date.isAfter(today.plusDays(1))) {
            errors.add(new ValidationError(JsonPath.field(JsonPath.ROOT, "date"), date + " is in the future"));
        }
        windowExists(pipeline, scheduleId, date, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the evaluation request has " + errors.size() + " problem(s)", errors);
        }
        return ApiResponse.json(202, start(id, scheduleId, date, request.caller(), now));
    }

    /**
     * Starts one evaluation of the day on an operator's behalf: a {@code manual} marker with a new suffix, written only
     * if no item has its key. What an evaluation request and a re-registration of a stopped day both do.
     */
    Evaluation start(String pipelineId, String scheduleId, LocalDate date, String caller, Instant now) {
        Marker marker =
                new Marker(pipelineId, scheduleId, date, MarkerSource.MANUAL, ids.next(), false, caller, null, now);
        write(marker);
        return new Evaluation(marker, marker.executionName());
    }

    ApiResponse rerun(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        JsonNode document = body.readObject(request, false);
        List<ValidationError> errors = new ArrayList<>();
        RequestFields fields =
                RequestFields.read(document, List.of("date", "scheduleId", "reason", "description"), errors);
        PipelineConfig pipeline = provider.pipelines().get(id).orElseThrow(() -> PipelineRoutes.notFound(id));
        PauseRoutes.refuseIfPaused(provider, pipeline);
        String scheduleId = schedule(pipeline, fields.text("scheduleId"), errors);
        Instant now = clock.instant();
        LocalDate today = today(pipeline, scheduleId, now);
        LocalDate date = fields.date("date", errors);
        String datePath = JsonPath.field(JsonPath.ROOT, "date");
        if (date == null && fields.text("date") == null) {
            date = today;
        } else if (date != null && date.isAfter(today)) {
            errors.add(
                    new ValidationError(datePath, date + " is in the future; only past or current dates can be rerun"));
        }
        windowExists(pipeline, scheduleId, date, errors);
        String reason = fields.prose("reason", true, MAX_REASON, errors);
        String description = fields.prose("description", false, MAX_DESCRIPTION, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the rerun request has " + errors.size() + " problem(s)", errors);
        }
        // A cheap read first, so a spent budget is refused without a transactional write; it also counts reruns
        // recorded before the budget counter existed. The transaction's counter is the gate that holds under races.
        int used = provider.reruns().count(id, date, scheduleId);
        if (used >= settings.maxReruns()) {
            throw budgetSpent(id, date, scheduleId, used);
        }
        String rerunId = ids.next();
        Marker marker = Marker.rerun(id, scheduleId, date, MarkerSource.RERUN, rerunId, null, now);
        Rerun rerun = Rerun.requested(
                rerunId,
                id,
                scheduleId,
                date,
                MarkerSource.MANUAL,
                null,
                reason,
                description,
                marker.executionName(),
                now,
                Map.of("requestedBy", request.caller()));
        // The pipeline's history says who asked for it, as it does for the orchestrator's late-arrival reruns.
        Event requested = new Event(
                EventKind.RERUN_REQUESTED,
                id,
                scheduleId,
                date,
                null,
                null,
                RerunStatus.PENDING.wireName(),
                reason,
                Map.of("rerunId", rerunId, "requestedBy", request.caller(), "executionName", rerun.executionName()),
                now);
        // All or nothing: a refused request leaves no rerun without a marker and spends no budget.
        switch (provider.acceptRerun(rerun, marker, requested, settings.maxReruns())) {
            case RerunAcceptance.Accepted accepted -> {}
            case RerunAcceptance.BudgetSpent spent -> throw budgetSpent(id, date, scheduleId, spent.used());
            case RerunAcceptance.MarkerExists exists -> throw markerExists(marker);
        }
        return ApiResponse.json(202, new RerunAccepted(rerun, marker, rerun.executionName()));
    }

    /**
     * Today for the request: the current date in the schedule's zone (else the SLA's, else UTC), which is what a
     * request without a date means; an unknown schedule (already an error) falls back to UTC.
     */
    private static LocalDate today(PipelineConfig pipeline, String scheduleId, Instant now) {
        return scheduleId == null
                ? LocalDate.ofInstant(now, ZoneOffset.UTC)
                : ScheduleWindow.currentDate(pipeline, scheduleId, now);
    }

    /**
     * The requested schedule, or the pipeline's only plain one; it must be one the pipeline declares, or a window of one
     * of its cron schedules ({@code hourly.1400}).
     */
    static String schedule(PipelineConfig pipeline, String requested, List<ValidationError> errors) {
        List<String> declared = pipeline.effectiveSchedules().stream()
                .map(s -> s.hasCron() ? s.name() + ".HHMM (cron \"" + s.cron().trim() + "\")" : s.name())
                .toList();
        String path = JsonPath.field(JsonPath.ROOT, "scheduleId");
        if (requested == null) {
            if (declared.size() == 1
                    && !pipeline.effectiveSchedules().getFirst().hasCron()) {
                return pipeline.effectiveSchedules().getFirst().name();
            }
            errors.add(new ValidationError(
                    path, "is required: the pipeline has the schedules " + String.join(", ", declared)));
            return null;
        }
        if (pipeline.schedule(requested).isEmpty()) {
            errors.add(new ValidationError(
                    path,
                    "'" + requested + "' is not a schedule of " + pipeline.name() + "; declared: "
                            + String.join(", ", declared)));
            return null;
        }
        return requested;
    }

    /** A cron window must fire on the requested date ({@code hourly.0230} does not on a spring-forward day). */
    static void windowExists(PipelineConfig pipeline, String scheduleId, LocalDate date, List<ValidationError> errors) {
        if (scheduleId != null && date != null) {
            ScheduleWindows.problem(pipeline, scheduleId, date)
                    .ifPresent(problem ->
                            errors.add(new ValidationError(JsonPath.field(JsonPath.ROOT, "scheduleId"), problem)));
        }
    }

    private void write(Marker marker) {
        if (!provider.cascade().writeMarker(marker)) {
            throw markerExists(marker);
        }
    }

    private static ProblemException markerExists(Marker marker) {
        return ProblemException.of(
                ProblemType.CONFLICT, "a marker with suffix " + marker.suffix() + " exists already; retry");
    }

    private ProblemException budgetSpent(String id, LocalDate date, String scheduleId, int used) {
        return ProblemException.of(
                ProblemType.CONFLICT,
                "the rerun budget of " + id + " for " + date + " (" + scheduleId + ") is spent: " + used + " of "
                        + settings.maxReruns());
    }

    /** The answer to an evaluation request: the marker written and the execution it will start. */
    record Evaluation(Marker marker, String executionName) {}

    /** The answer to a rerun request: the ledger entry, the replay marker and the execution it will start. */
    record RerunAccepted(Rerun rerun, Marker marker, String executionName) {}
}
