package dev.interlock.store;

import dev.interlock.model.alert.Mute;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.model.status.DayRecords;
import dev.interlock.model.status.DayTimeline;
import dev.interlock.model.status.PipelineDayStatus;
import dev.interlock.model.status.StatusDerivation;
import dev.interlock.model.status.StatusLine;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.watch.PipelineWatch;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads what the table holds about a pipeline day with a bounded number of requests and hands it to
 * {@link StatusDerivation} / {@link DayTimeline}. It only reads. Per pipeline day, with S schedules and U upstream
 * (pipeline, schedule) pairs: the config (1), the named calendar (0–1), the recent events (1), the recent runs (1),
 * the downstream index (1), the watchdog's watch of the pipeline (1, only while a schedule of the day has neither a
 * run log nor a lock holder: forward-only), per schedule its run log, trait results and lock (3 S, plus 1 per schedule whose run is
 * older than the recent runs), each upstream pipeline's config (1 per upstream pipeline) and its run logs (U).
 */
public final class StatusReader {

    /** Events read per pipeline day: the newest ones, which is where an unfinished day's story is. */
    public static final int STATUS_EVENTS = 200;
    /** Events read for a timeline (one store page at most). */
    public static final int TIMELINE_EVENTS = PageRequest.MAX_LIMIT;
    /** Runs read per pipeline day (newest first). */
    public static final int RECENT_RUNS = 50;

    private final Provider provider;
    private final Clock clock;

    public StatusReader(Provider provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
    }

    /** The status of a registered pipeline's day; {@code date} null means today in the pipeline's zone. */
    public Optional<PipelineDayStatus> status(String pipelineId, LocalDate date) {
        return provider.pipelines().get(pipelineId).map(config -> status(config, date));
    }

    /** The status of {@code config}'s day; {@code date} null means today in the pipeline's zone. */
    public PipelineDayStatus status(PipelineConfig config, LocalDate date) {
        return status(
                config,
                date,
                provider.mutes().covering(config.name(), config.team()),
                provider.pauses().get(config.name()).orElse(null));
    }

    /** The status of {@code config}'s day, told which of {@code mutes} cover it and its pause (null: none). */
    private PipelineDayStatus status(PipelineConfig config, LocalDate date, List<Mute> mutes, Pause pause) {
        Instant now = clock.instant();
        LocalDate day = date != null ? date : StatusDerivation.today(config, now);
        List<Mute> covering = mutes.stream()
                .filter(m -> m.covers(config.name(), config.team()))
                .toList();
        PipelineDayStatus status = StatusDerivation.derive(read(config, day), now)
                .routed(
                        config.ownership(),
                        PipelineDayStatus.MuteNote.of(covering, now).orElse(null));
        return pause == null ? status : status.paused(pause);
    }

    /**
     * One line per registered pipeline (a page of them, in name order); {@code date} null means each one's today. The
     * mutes and pauses are read once for the page (one GSI1 query each), not per pipeline.
     */
    public Page<StatusLine> overview(LocalDate date, PageRequest page) {
        Page<PipelineConfig> pipelines = provider.pipelines().list(page);
        List<Mute> mutes =
                pipelines.items().isEmpty() ? List.of() : provider.mutes().list();
        Map<String, Pause> pauses = new HashMap<>();
        if (!pipelines.items().isEmpty()) {
            provider.pauses().list().forEach(p -> pauses.put(p.pipelineId(), p));
        }
        List<StatusLine> lines = new ArrayList<>();
        for (PipelineConfig config : pipelines.items()) {
            lines.add(StatusLine.of(status(config, date, mutes, pauses.get(config.name())), config.tier()));
        }
        return new Page<>(lines, pipelines.nextCursor());
    }

    /** The timeline of a registered pipeline's day; {@code date} null means today in the pipeline's zone. */
    public Optional<DayTimeline> timeline(String pipelineId, LocalDate date) {
        return provider.pipelines().get(pipelineId).map(config -> {
            Instant now = clock.instant();
            LocalDate day = date != null ? date : StatusDerivation.today(config, now);
            List<Event> events = provider.events().latest(pipelineId, TIMELINE_EVENTS);
            List<RunState> runs = provider.runs()
                    .listByPipeline(pipelineId, PageRequest.first(RECENT_RUNS))
                    .items();
            boolean complete = events.size() < TIMELINE_EVENTS
                    || events.get(0).date() != null && events.get(0).date().isBefore(day);
            return DayTimeline.derive(pipelineId, day, events, runs, complete, now);
        });
    }

    /** Everything the derivation reads about one pipeline day. */
    public DayRecords read(PipelineConfig config, LocalDate date) {
        String pipelineId = config.name();
        Calendar calendar = null;
        if (config.exclusions() != null
                && config.exclusions().calendar() != null
                && !config.exclusions().calendar().isBlank()) {
            calendar = provider.calendars()
                    .get(config.exclusions().calendar().trim())
                    .orElse(null);
        }
        List<Event> events = provider.events().latest(pipelineId, STATUS_EVENTS).stream()
                .filter(e -> date.equals(e.date()))
                .toList();
        List<RunState> recentRuns = provider.runs()
                .listByPipeline(pipelineId, PageRequest.first(RECENT_RUNS))
                .items();
        Map<String, RunLog> runLogs = new LinkedHashMap<>();
        Map<String, RunState> runs = new LinkedHashMap<>();
        Map<String, List<TraitResult>> traits = new LinkedHashMap<>();
        Map<String, String> holders = new LinkedHashMap<>();
        Set<String> upstreamIds = new TreeSet<>();
        List<String> scheduleIds = ScheduleWindows.idsOn(config, date);
        for (String scheduleId : scheduleIds) {
            Optional<RunLog> log = provider.runLogs().get(new RunLogKey(pipelineId, date, scheduleId));
            log.ifPresent(l -> runLogs.put(scheduleId, l));
            Optional<RunState> newest = recentRuns.stream()
                    .filter(r -> date.equals(r.date()) && scheduleId.equals(r.scheduleId()))
                    .findFirst();
            if (newest.isEmpty() && log.isPresent() && log.get().runId() != null) {
                newest = provider.runs().get(log.get().runId());
            }
            newest.ifPresent(r -> runs.put(scheduleId, r));
            traits.put(scheduleId, provider.traits().list(pipelineId, date, scheduleId));
            provider.locks()
                    .holder(new LockKey(pipelineId, scheduleId, date))
                    .ifPresent(h -> holders.put(scheduleId, h.owner()));
            StatusDerivation.upstreamsOf(config, scheduleId).forEach(pair -> upstreamIds.add(pair[0]));
        }
        // One GetItem per upstream pipeline (a cascade has few): within the API's read grants, unlike BatchGetItem.
        Map<String, PipelineConfig> upstreamConfigs = new LinkedHashMap<>();
        for (String upstream : upstreamIds) {
            provider.pipelines().get(upstream).ifPresent(c -> upstreamConfigs.put(upstream, c));
        }
        Map<String, RunLog> upstreamLogs = new LinkedHashMap<>();
        for (String scheduleId : scheduleIds) {
            for (String[] pair : StatusDerivation.upstreamsOf(config, scheduleId)) {
                String key = DayRecords.upstreamKey(pair[0], pair[1]);
                if (!upstreamLogs.containsKey(key) && upstreamConfigs.containsKey(pair[0])) {
                    provider.runLogs()
                            .get(new RunLogKey(pair[0], date, pair[1]))
                            .ifPresent(l -> upstreamLogs.put(key, l));
                }
            }
        }
        List<String> downstreams = provider.cascade().downstreamOf(pipelineId);
        // When each schedule was registered (forward-only) matters only to a window nothing has started.
        boolean unstarted = scheduleIds.stream().anyMatch(id -> !runLogs.containsKey(id) && !holders.containsKey(id));
        PipelineWatch watch = unstarted ? provider.watchdog().watch(pipelineId).orElse(null) : null;
        return new DayRecords(
                config,
                date,
                calendar,
                runLogs,
                runs,
                traits,
                holders,
                events,
                upstreamConfigs,
                upstreamLogs,
                downstreams,
                watch);
    }
}
