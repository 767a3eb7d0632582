package dev.interlock.store;

import dev.interlock.model.alert.Mute;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ScheduleWindow;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * Reads what the table holds about pipeline days with a bounded number of requests and hands it to
 * {@link StatusDerivation} / {@link DayTimeline}. It only reads. Per pipeline day: the config (1, or none in the
 * overview, whose listing holds it), the named calendar (0–1), four Queries (the recent events, the recent runs, the
 * day's trait results of every schedule, the downstream index), one BatchGetItem for every schedule's run log and
 * the upstreams' run logs, one for every schedule's lock, the upstream configs (one BatchGetItem, when it has
 * upstreams), the watchdog's watch (only while a schedule whose window has opened has neither run log nor lock holder:
 * forward-only), and a run by id for a schedule whose run is older than the recent runs. The overview reads the key
 * lookups of a whole page at once (one BatchGetItem per 100 keys) and the Queries of its pipelines in parallel.
 */
public final class StatusReader {

    /** Events read per pipeline day: the newest ones, which is where an unfinished day's story is. */
    public static final int STATUS_EVENTS = 200;
    /** Events read for a timeline (one store page at most). */
    public static final int TIMELINE_EVENTS = PageRequest.MAX_LIMIT;
    /** Runs read per pipeline day (newest first). */
    public static final int RECENT_RUNS = 50;
    /** Pipelines of an overview page whose Queries run at once: bounded, so a page never floods the table. */
    static final int OVERVIEW_PARALLELISM = 8;

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
        Instant now = clock.instant();
        LocalDate day = date != null ? date : StatusDerivation.today(config, now);
        DayRecords records =
                read(List.of(new Day(config, day)), now, Runnable::run).get(0);
        return routed(
                records,
                provider.mutes().covering(config.name(), config.team()),
                provider.pauses().get(config.name()).orElse(null),
                now);
    }

    /**
     * The derived status of one day's records, told which of {@code mutes} cover its pipeline and its pause (null:
     * none).
     */
    private static PipelineDayStatus routed(DayRecords records, List<Mute> mutes, Pause pause, Instant now) {
        PipelineConfig config = records.pipeline();
        List<Mute> covering = mutes.stream()
                .filter(m -> m.covers(config.name(), config.team()))
                .toList();
        PipelineDayStatus status = StatusDerivation.derive(records, now)
                .routed(
                        config.ownership(),
                        PipelineDayStatus.MuteNote.of(covering, now).orElse(null));
        return pause == null ? status : status.paused(pause);
    }

    /**
     * One line per registered pipeline (a page of them, in name order); {@code date} null means each one's today. The
     * mutes and pauses are read once for the page (one GSI1 query each), the key lookups of all its pipeline days
     * together, and each day's Queries in parallel: the same records and the same derivation as {@link #status}, at a
     * fraction of the requests.
     */
    public Page<StatusLine> overview(LocalDate date, PageRequest page) {
        Page<PipelineConfig> pipelines = provider.pipelines().list(page);
        if (pipelines.items().isEmpty()) {
            return new Page<>(List.of(), pipelines.nextCursor());
        }
        Instant now = clock.instant();
        List<Mute> mutes = provider.mutes().list();
        Map<String, Pause> pauses = new HashMap<>();
        provider.pauses().list().forEach(p -> pauses.put(p.pipelineId(), p));
        List<Day> days = pipelines.items().stream()
                .map(c -> new Day(c, date != null ? date : StatusDerivation.today(c, now)))
                .toList();
        List<DayRecords> records;
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(OVERVIEW_PARALLELISM, days.size()));
        try {
            records = read(days, now, pool);
        } finally {
            pool.shutdownNow();
        }
        List<StatusLine> lines = new ArrayList<>();
        for (DayRecords day : records) {
            lines.add(StatusLine.of(
                    routed(day, mutes, pauses.get(day.pipeline().name()), now),
                    day.pipeline().tier()));
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

    /** One pipeline day to read: its config and date, and the schedules it has on that date. */
    private record Day(PipelineConfig config, LocalDate date, List<String> scheduleIds) {
        Day(PipelineConfig config, LocalDate date) {
            this(config, date, ScheduleWindows.idsOn(config, date));
        }

        String pipelineId() {
            return config.name();
        }

        Set<String> upstreamIds() {
            Set<String> ids = new TreeSet<>();
            scheduleIds.forEach(id -> StatusDerivation.upstreamsOf(config, id).forEach(pair -> ids.add(pair[0])));
            return ids;
        }
    }

    /** What a day's Queries return (one partition each: they cannot be batched across pipelines). */
    private record Queried(
            Calendar calendar,
            List<Event> events,
            List<RunState> recentRuns,
            List<TraitResult> traits,
            List<String> downstreams) {}

    /** Everything the derivation reads about each of {@code days}, in their order. */
    private List<DayRecords> read(List<Day> days, Instant now, Executor executor) {
        List<CompletableFuture<Queried>> queries = days.stream()
                .map(day -> CompletableFuture.supplyAsync(() -> query(day), executor))
                .toList();
        // The key lookups of every day at once, while the Queries run.
        Map<RunLogKey, RunLog> logs = provider.runLogs()
                .getAll(days.stream()
                        .flatMap(day -> Stream.concat(
                                day.scheduleIds().stream().map(id -> new RunLogKey(day.pipelineId(), day.date(), id)),
                                day.scheduleIds().stream()
                                        .flatMap(id -> StatusDerivation.upstreamsOf(day.config(), id).stream())
                                        .map(pair -> new RunLogKey(pair[0], day.date(), pair[1]))))
                        .toList());
        Map<LockKey, LockHolder> holders = provider.locks()
                .holders(days.stream()
                        .flatMap(day ->
                                day.scheduleIds().stream().map(id -> new LockKey(day.pipelineId(), id, day.date())))
                        .toList());
        Set<String> upstreamIds = new TreeSet<>();
        days.forEach(day -> upstreamIds.addAll(day.upstreamIds()));
        Map<String, PipelineConfig> upstreams =
                upstreamIds.isEmpty() ? Map.of() : provider.pipelines().getAll(upstreamIds);
        // When each schedule was registered (forward-only) matters only to a window that has opened and that nothing
        // has started (before it opens the day waits for its window, whenever it was registered).
        Map<String, PipelineWatch> watches = provider.watchdog()
                .watches(days.stream()
                        .filter(day -> day.scheduleIds().stream()
                                .anyMatch(id -> !logs.containsKey(new RunLogKey(day.pipelineId(), day.date(), id))
                                        && !holders.containsKey(new LockKey(day.pipelineId(), id, day.date()))
                                        && ScheduleWindow.of(day.config(), id, day.date())
                                                .isOpen(now)))
                        .map(Day::pipelineId)
                        .distinct()
                        .toList());
        List<DayRecords> records = new ArrayList<>();
        for (int i = 0; i < days.size(); i++) {
            records.add(records(days.get(i), join(queries.get(i)), logs, holders, upstreams, watches));
        }
        return records;
    }

    private Queried query(Day day) {
        PipelineConfig config = day.config();
        Calendar calendar = null;
        if (config.exclusions() != null
                && config.exclusions().calendar() != null
                && !config.exclusions().calendar().isBlank()) {
            calendar = provider.calendars()
                    .get(config.exclusions().calendar().trim())
                    .orElse(null);
        }
        List<Event> events = provider.events().latest(day.pipelineId(), STATUS_EVENTS).stream()
                .filter(e -> day.date().equals(e.date()))
                .toList();
        List<RunState> recentRuns = provider.runs()
                .listByPipeline(day.pipelineId(), PageRequest.first(RECENT_RUNS))
                .items();
        List<TraitResult> traits =
                day.scheduleIds().isEmpty() ? List.of() : provider.traits().ofDay(day.pipelineId(), day.date());
        List<String> downstreams = provider.cascade().downstreamOf(day.pipelineId());
        return new Queried(calendar, events, recentRuns, traits, downstreams);
    }

    private DayRecords records(
            Day day,
            Queried queried,
            Map<RunLogKey, RunLog> logs,
            Map<LockKey, LockHolder> holders,
            Map<String, PipelineConfig> upstreams,
            Map<String, PipelineWatch> watches) {
        String pipelineId = day.pipelineId();
        LocalDate date = day.date();
        Map<String, RunLog> runLogs = new LinkedHashMap<>();
        Map<String, RunState> runs = new LinkedHashMap<>();
        Map<String, List<TraitResult>> traits = new LinkedHashMap<>();
        Map<String, String> lockHolders = new LinkedHashMap<>();
        for (String scheduleId : day.scheduleIds()) {
            Optional<RunLog> log = Optional.ofNullable(logs.get(new RunLogKey(pipelineId, date, scheduleId)));
            log.ifPresent(l -> runLogs.put(scheduleId, l));
            Optional<RunState> newest = queried.recentRuns().stream()
                    .filter(r -> date.equals(r.date()) && scheduleId.equals(r.scheduleId()))
                    .findFirst();
            if (newest.isEmpty() && log.isPresent() && log.get().runId() != null) {
                newest = provider.runs().get(log.get().runId());
            }
            newest.ifPresent(r -> runs.put(scheduleId, r));
            traits.put(
                    scheduleId,
                    queried.traits().stream()
                            .filter(t -> scheduleId.equals(t.scheduleId()))
                            .toList());
            LockHolder holder = holders.get(new LockKey(pipelineId, scheduleId, date));
            if (holder != null) {
                lockHolders.put(scheduleId, holder.owner());
            }
        }
        Map<String, PipelineConfig> upstreamConfigs = new LinkedHashMap<>();
        day.upstreamIds().stream()
                .filter(upstreams::containsKey)
                .forEach(id -> upstreamConfigs.put(id, upstreams.get(id)));
        Map<String, RunLog> upstreamLogs = new LinkedHashMap<>();
        for (String scheduleId : day.scheduleIds()) {
            for (String[] pair : StatusDerivation.upstreamsOf(day.config(), scheduleId)) {
                RunLog log = logs.get(new RunLogKey(pair[0], date, pair[1]));
                if (log != null && upstreamConfigs.containsKey(pair[0])) {
                    upstreamLogs.putIfAbsent(DayRecords.upstreamKey(pair[0], pair[1]), log);
                }
            }
        }
        boolean unstarted =
                day.scheduleIds().stream().anyMatch(id -> !runLogs.containsKey(id) && !lockHolders.containsKey(id));
        return new DayRecords(
                day.config(),
                date,
                queried.calendar(),
                runLogs,
                runs,
                traits,
                lockHolders,
                queried.events(),
                upstreamConfigs,
                upstreamLogs,
                queried.downstreams(),
                unstarted ? watches.get(pipelineId) : null);
    }

    /** The value of a day's Queries; a store fault in one of them is thrown as it was. */
    private static Queried join(CompletableFuture<Queried> query) {
        try {
            return query.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw e;
        }
    }
}
