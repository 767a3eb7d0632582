package dev.interlock.orchestrator;

import dev.interlock.deps.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.store.Page;
import dev.interlock.store.RunLogKey;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code watchdog} (an EventBridge schedule): what no marker will ever report. For every pipeline schedule it starts
 * the day's evaluation once its {@code after} has passed and nothing else did, alerts SLA_MISSED once when the
 * deadline passed without COMPLETED, and alerts STUCK_RUN once for runs still not terminal after the execution
 * timeout. Excluded execution dates are left alone. A pipeline with an invalid config is reported, not fatal.
 */
public final class Watchdog implements Action {

    /** What one tick did; entries are {@code <pipeline>/<schedule>/<date>} (stuck runs: the run id). */
    public record Summary(int pipelines, List<String> markersWritten, List<String> slaMissed, List<String> stuckRuns,
                          List<String> excluded, List<String> errors) {
    }

    private static final int PAGE_SIZE = 100;

    private final Collaborators collaborators;

    public Watchdog(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Summary summary = new Summary(0, new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>());
        List<PipelineConfig> pipelines = Page.all(PAGE_SIZE, collaborators.provider().pipelines()::list);
        for (PipelineConfig pipeline : pipelines) {
            LogContext context = new LogContext(pipeline.name(), null, null, null, request.executionName());
            try {
                for (ScheduleConfig schedule : pipeline.effectiveSchedules()) {
                    watchSchedule(pipeline, schedule, summary);
                }
                watchRuns(pipeline, summary);
            } catch (IllegalArgumentException | DateTimeException e) {
                collaborators.log().error(context, "watchdog skipped a pipeline with an invalid config", Map.of(), e);
                summary.errors().add(pipeline.name() + ": " + e.getMessage());
            }
        }
        Summary done = new Summary(pipelines.size(), List.copyOf(summary.markersWritten()), List.copyOf(summary.slaMissed()),
                List.copyOf(summary.stuckRuns()), List.copyOf(summary.excluded()), List.copyOf(summary.errors()));
        collaborators.log().info(LogContext.NONE, "watchdog tick", Map.of("pipelines", done.pipelines(),
                "markersWritten", done.markersWritten().size(), "slaMissed", done.slaMissed().size(),
                "stuckRuns", done.stuckRuns().size(), "errors", done.errors().size()));
        return Outcome.proceed(done);
    }

    @Override
    public Summary errorPayload() {
        return new Summary(0, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    private void watchSchedule(PipelineConfig pipeline, ScheduleConfig schedule, Summary summary) {
        Instant now = collaborators.now();
        String scheduleId = schedule.name();
        ZoneId zone = ScheduleWindow.zoneOf(schedule, pipeline.sla());
        LocalDate today = LocalDate.ofInstant(now, zone);
        Instant startOfToday = today.atStartOfDay(zone).toInstant();
        // Yesterday too: a deadline earlier than `after` rolls to the next day, so yesterday's window may be due today.
        for (LocalDate date : List.of(today.minusDays(1), today)) {
            String id = pipeline.name() + "/" + scheduleId + "/" + date;
            Optional<String> excluded = ExclusionRule.reason(collaborators.provider().calendars(), pipeline, date);
            if (excluded.isPresent()) {
                if (date.equals(today)) {
                    summary.excluded().add(id);
                }
                continue;
            }
            ScheduleWindow window = ScheduleWindow.of(pipeline, scheduleId, date);
            Optional<RunLog> log = collaborators.provider().runLogs().get(new RunLogKey(pipeline.name(), date, scheduleId));
            if (date.equals(today) && startsToday(schedule, window, now, log, pipeline, date)) {
                summary.markersWritten().add(id);
            }
            // Yesterday's window counts only for a deadline that rolled into today; its own misses were judged
            // yesterday (and a pipeline registered today has no yesterday to miss).
            boolean judged = date.equals(today)
                    || window.completionDeadline() != null && !window.completionDeadline().isBefore(startOfToday);
            if (judged && missedDeadline(pipeline, window, now, log)) {
                summary.slaMissed().add(id);
            }
        }
    }

    /** Writes the day's {@code schedule} marker when the window opened and nothing started the day yet. */
    private boolean startsToday(ScheduleConfig schedule, ScheduleWindow window, Instant now, Optional<RunLog> log,
                                PipelineConfig pipeline, LocalDate date) {
        if (schedule.after() == null || schedule.after().isBlank() || !window.isOpen(now) || log.isPresent()) {
            return false;
        }
        boolean marked = collaborators.provider().cascade().markers(pipeline.name(), date).stream()
                .anyMatch(m -> schedule.name().equals(m.scheduleId()));
        if (marked) {
            return false;
        }
        Marker marker = new Marker(pipeline.name(), schedule.name(), date, MarkerSource.SCHEDULE,
                TableKeys.scheduleMarkerSuffix(date, schedule.name()), false, "watchdog", null, now);
        boolean written = collaborators.provider().cascade().writeMarker(marker);
        if (written) {
            collaborators.log().info(new LogContext(pipeline.name(), schedule.name(), date.toString(), null, null),
                    "schedule marker written", Map.of("opensAt", InterlockJson.timestamp(window.opensAt())));
        }
        return written;
    }

    /** Alerts SLA_MISSED once when the completion deadline passed without a COMPLETED run log. */
    private boolean missedDeadline(PipelineConfig pipeline, ScheduleWindow window, Instant now, Optional<RunLog> log) {
        // A dry run never triggers, so it never completes: its deadline says nothing.
        if (pipeline.dryRun() || !ScheduleWindow.breached(window.completionDeadline(), now)) {
            return false;
        }
        if (log.isPresent() && log.get().status() == RunLogStatus.COMPLETED) {
            return false;
        }
        String status = log.map(l -> l.status().wireName()).orElse("none");
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("deadline", InterlockJson.timestamp(window.completionDeadline()));
        details.put("runLogStatus", status);
        return collaborators.alerts().raise(AlertKind.SLA_MISSED, AlertLevel.ERROR, pipeline.name(), window.scheduleId(),
                window.date(), "SLA missed for " + pipeline.name() + " schedule " + window.scheduleId() + " on "
                        + window.date() + ": not completed by " + details.get("deadline") + " (run log: " + status + ")",
                details, new LogContext(pipeline.name(), window.scheduleId(), window.date().toString(), null, null));
    }

    /** Alerts STUCK_RUN once per (pipeline, date, schedule) for runs older than the execution timeout. */
    private void watchRuns(PipelineConfig pipeline, Summary summary) {
        Instant now = collaborators.now();
        Instant before = now.minusSeconds(collaborators.settings().executionTimeoutSeconds());
        Instant from = now.minus(Duration.ofDays(collaborators.settings().retentionDays()));
        for (RunState run : collaborators.provider().runs().listNonTerminal(pipeline.name(), from, before)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("runId", run.runId());
            details.put("status", run.status().wireName());
            details.put("createdAt", InterlockJson.timestamp(run.createdAt()));
            if (run.executionName() != null) {
                details.put("executionName", run.executionName());
            }
            String message = "Run " + run.runId() + " of " + pipeline.name() + " is still " + run.status().wireName()
                    + " " + Duration.between(run.createdAt(), now).toMinutes() + " min after it was created";
            if (collaborators.alerts().raise(AlertKind.STUCK_RUN, AlertLevel.ERROR, pipeline.name(), run.scheduleId(),
                    run.date(), message, details, new LogContext(pipeline.name(), run.scheduleId(), run.date().toString(),
                            run.runId(), run.executionName()))) {
                summary.stuckRuns().add(run.runId());
            }
        }
    }
}
