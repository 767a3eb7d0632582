package dev.interlock.api;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Re-registering a pipeline runs again every day whose wait a required trait's PERMANENT evaluator error stopped
 * ({@link AttemptLedger#stoppedWait}): the operator fixed the evaluator or the document and says so by registering it.
 * For each (schedule, date) of the pipeline whose latest run log is such a stop — today in the schedule's zone, or a
 * day a marker for which would not be skipped as stale ({@code STALE_MARKER_DAYS}) — it starts one evaluation through
 * {@link MarkerRoutes#start}, the way {@code POST .../evaluations} does, and records a {@code MARKER_WRITTEN} event
 * saying why. Days that did not stop get nothing. The read is one Query on the pipeline's run logs, newest date first,
 * which stops at the first day too old to run.
 */
final class StoppedDays {

    /** Run logs read per page: a pipeline has one per (schedule, date), so one page usually covers the stale window. */
    private static final int PAGE = 50;

    private final Provider provider;
    private final ApiSettings settings;
    private final MarkerRoutes markers;

    StoppedDays(Provider provider, ApiSettings settings, MarkerRoutes markers) {
        this.provider = provider;
        this.settings = settings;
        this.markers = markers;
    }

    /** The evaluations started for the stopped days of {@code config} (just registered); empty when none stopped. */
    List<MarkerRoutes.Evaluation> restart(PipelineConfig config, String caller, Instant now) {
        Map<String, LocalDate> today = new HashMap<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            today.put(schedule.name(), ScheduleWindow.currentDate(config, schedule.name(), now));
        }
        // A cron window's day is its schedule's (hourly.1400 is read as hourly).
        Function<String, LocalDate> todayOf = scheduleId ->
                config.schedule(scheduleId).map(s -> today.get(s.name())).orElse(null);
        Optional<LocalDate> earliest = today.values().stream().min(LocalDate::compareTo);
        if (earliest.isEmpty()) {
            return List.of();
        }
        LocalDate oldest = earliest.get().minusDays(settings.staleMarkerDays());
        List<MarkerRoutes.Evaluation> started = new ArrayList<>();
        PageRequest request = PageRequest.first(PAGE);
        while (true) {
            Page<RunLog> page = provider.runLogs().listByPipeline(config.name(), request);
            for (RunLog log : page.items()) {
                if (log.date().isBefore(oldest)) {
                    return started;
                }
                LocalDate scheduleToday = todayOf.apply(log.scheduleId());
                if (scheduleToday == null
                        || log.date().isBefore(scheduleToday.minusDays(settings.staleMarkerDays()))
                        || log.date().isAfter(scheduleToday.plusDays(1))) {
                    continue; // a schedule the pipeline no longer declares, or a day its marker would be stale
                }
                Optional<RetryAttempt> stopped = AttemptLedger.stoppedWait(log);
                if (stopped.isPresent()) {
                    started.add(start(config, log, stopped.get(), caller, now));
                }
            }
            Optional<String> next = page.next();
            if (next.isEmpty()) {
                return started;
            }
            request = request.after(next.get());
        }
    }

    private MarkerRoutes.Evaluation start(
            PipelineConfig config, RunLog log, RetryAttempt stopped, String caller, Instant now) {
        MarkerRoutes.Evaluation evaluation = markers.start(config.name(), log.scheduleId(), log.date(), caller, now);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("executionName", evaluation.executionName());
        details.put("requestedBy", caller);
        details.put("reason", "re-registration");
        details.put("stoppedBy", stopped.trait());
        provider.events()
                .append(new Event(
                        EventKind.MARKER_WRITTEN,
                        config.name(),
                        log.scheduleId(),
                        log.date(),
                        null,
                        stopped.trait(),
                        evaluation.marker().source().wireName().toUpperCase(java.util.Locale.ROOT),
                        "the pipeline was re-registered; the day whose wait trait " + stopped.trait()
                                + "'s PERMANENT evaluator error stopped runs again",
                        details,
                        now));
        return evaluation;
    }
}
