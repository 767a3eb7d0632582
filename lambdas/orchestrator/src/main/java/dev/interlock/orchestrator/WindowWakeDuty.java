package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.PauseEvents;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ExclusionRule;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchEvent;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.DueEntry;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.WatchdogIndex;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The watchdog's duty for a pipeline's due entry: each window that opened since its last look starts the day's
 * evaluation once (a {@code schedule} marker, unless something else started the day), each completion deadline that
 * passed without COMPLETED alerts {@code SLA_MISSED} once (an {@code ALERT_MUTED} event while the pipeline is paused),
 * excluded dates are left alone; then the watch moves on to its next event.
 */
final class WindowWakeDuty {

    private final Collaborators collaborators;

    WindowWakeDuty(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Acts on the events of one pipeline that fell due since its last look, then moves its watch on. */
    void wake(
            DueEntry entry,
            PipelineWatch watch,
            PipelineConfig config,
            Instant now,
            WatchdogTally tally,
            TickCalendars calendars) {
        WatchdogIndex index = collaborators.provider().watchdog();
        if (watch == null || !entry.dueAt().equals(watch.dueAt())) {
            // The pipeline was deleted, or re-registered and its watch points elsewhere: nothing is due here.
            index.remove(entry);
            return;
        }
        if (config == null) {
            // Read between a deletion's commit and ours: the next tick finds the watch gone.
            return;
        }
        tally.pipelines.incrementAndGet();
        LogContext context = new LogContext(config.name(), null, null, null, null);
        WatchPlan.Due due = WatchPlan.due(config, watch, now);
        due.problems().forEach((scheduleId, problem) -> {
            collaborators
                    .log()
                    .error(
                            new LogContext(config.name(), scheduleId, null, null, null),
                            "watchdog skipped a schedule with an invalid config",
                            Map.of("problem", problem),
                            null);
            tally.errors.add(config.name() + ": schedule " + scheduleId + ": " + problem);
        });
        Instant handledThrough = now;
        // A paused pipeline's deadlines are not alerted: read its pause only when a deadline is due (O(due)).
        Optional<Pause> pause = due.events().stream().anyMatch(e -> e.kind() == WatchEvent.Kind.DEADLINE_PASSED)
                ? collaborators.provider().pauses().get(config.name())
                : Optional.empty();
        for (WatchEvent event : due.events()) {
            try {
                act(config, event, now, tally, calendars, pause);
            } catch (IllegalArgumentException | DateTimeException e) {
                // E.g. an exclusion calendar that is not registered: this event and the ones after it wait for a
                // fix, looked at again within the hour.
                collaborators
                        .log()
                        .error(
                                new LogContext(
                                        config.name(),
                                        event.scheduleId(),
                                        event.date().toString(),
                                        null,
                                        null),
                                "watchdog could not act on an event",
                                Map.of("event", event.kind().name()),
                                e);
                tally.errors.add(config.name() + ": " + e.getMessage());
                handledThrough = event.at().minusMillis(1);
                break;
            }
        }
        PipelineWatch next = handledThrough.equals(now)
                ? WatchPlan.advanced(config, watch, now)
                : WatchPlan.retried(watch, handledThrough, now.plus(WatchPlan.PROBLEM_RECHECK));
        if (!index.advance(watch, next)) {
            collaborators
                    .log()
                    .info(context, "watch changed during the tick (re-registered); its new entry stands", Map.of());
        }
    }

    private void act(
            PipelineConfig config,
            WatchEvent event,
            Instant now,
            WatchdogTally tally,
            TickCalendars calendars,
            Optional<Pause> pause) {
        String id = config.name() + "/" + event.scheduleId() + "/" + event.date();
        if (ExclusionRule.reason(calendars, config, event.date()).isPresent()) {
            tally.excluded.add(id);
            return;
        }
        ScheduleWindow window = ScheduleWindow.of(config, event.scheduleId(), event.date());
        Optional<RunLog> log =
                collaborators.provider().runLogs().get(new RunLogKey(config.name(), event.date(), event.scheduleId()));
        switch (event.kind()) {
            case WINDOW_OPENS -> {
                if (startsTheDay(config, window, now, log)) {
                    tally.markersWritten.add(id);
                }
            }
            case DEADLINE_PASSED -> {
                if (missedDeadline(config, window, now, log, pause)) {
                    tally.slaMissed.add(id);
                }
            }
        }
    }

    /** Writes the day's {@code schedule} marker when nothing started the day yet. */
    private boolean startsTheDay(PipelineConfig pipeline, ScheduleWindow window, Instant now, Optional<RunLog> log) {
        if (log.isPresent()) {
            return false;
        }
        boolean marked = collaborators.provider().cascade().markers(pipeline.name(), window.date()).stream()
                .anyMatch(m -> window.scheduleId().equals(m.scheduleId()));
        if (marked) {
            return false;
        }
        Marker marker = new Marker(
                pipeline.name(),
                window.scheduleId(),
                window.date(),
                MarkerSource.SCHEDULE,
                TableKeys.scheduleMarkerSuffix(window.date(), window.scheduleId()),
                false,
                "watchdog",
                null,
                now);
        boolean written = collaborators.provider().cascade().writeMarker(marker);
        if (written) {
            collaborators
                    .log()
                    .info(
                            new LogContext(
                                    pipeline.name(),
                                    window.scheduleId(),
                                    window.date().toString(),
                                    null,
                                    null),
                            "schedule marker written",
                            Map.of("opensAt", InterlockJson.timestamp(window.opensAt())));
        }
        return written;
    }

    /** Alerts SLA_MISSED once when the completion deadline passed without a COMPLETED run log. */
    private boolean missedDeadline(
            PipelineConfig pipeline, ScheduleWindow window, Instant now, Optional<RunLog> log, Optional<Pause> pause) {
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
        if (pause.isPresent()) {
            collaborators
                    .provider()
                    .events()
                    .append(PauseEvents.deadlineNotAlerted(
                            pause.get(), window.scheduleId(), window.date(), details, now));
            return false;
        }
        return collaborators
                .alerts()
                .raise(
                        AlertKind.SLA_MISSED,
                        AlertLevel.ERROR,
                        pipeline.name(),
                        window.scheduleId(),
                        window.date(),
                        "SLA missed for " + pipeline.name() + " schedule " + window.scheduleId() + " on "
                                + window.date() + ": not completed by "
                                + ReadableTime.withZone(window.completionDeadline(), window.zone()) + " (run log: "
                                + status + ")",
                        details,
                        new LogContext(
                                pipeline.name(),
                                window.scheduleId(),
                                window.date().toString(),
                                null,
                                null));
    }
}
