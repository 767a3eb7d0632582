package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.store.DueEntry;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.StoreException;
import dev.interlock.store.WatchdogIndex;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.LongSupplier;

/**
 * {@code watchdog} (an EventBridge schedule): what no marker will ever report. A tick reads only what is due — the
 * entries of the due-time index ({@link WatchdogIndex}) up to now — so it costs what is due, not what is registered,
 * and hands each entry to its duty, several at once:
 *
 * <ul>
 *   <li>a pipeline's entry wakes its watch ({@link WindowWakeDuty}): opened windows start their day once, passed
 *       completion deadlines alert {@code SLA_MISSED} once;
 *   <li>a run's entry, due when the execution timeout has passed, alerts {@code STUCK_RUN} once if the run is still not
 *       terminal ({@link StuckRunDuty});
 *   <li>a callback check asks the job system whether a job waited for by callback ended without its job-state event,
 *       and completes the wait itself if so ({@link CallbackCheckDuty});
 *   <li>a holder check asks whether the execution holding a lock still runs and releases the lock of one that ended
 *       ({@link HolderCheckDuty});
 *   <li>and every backfill in view moves on ({@link BackfillProgress}).
 * </ul>
 *
 * A pipeline with an invalid config is reported, not fatal. Handled entries are deleted as they are handled, so a tick
 * that stops (its time budget, a store fault) leaves the rest for the next one, and a missed tick is caught up by the
 * next.
 */
public final class Watchdog implements Action {

    /**
     * What one tick did; entries are {@code <pipeline>/<schedule>/<date>} (stuck runs: the run id).
     *
     * @param pipelines  pipelines whose watch was due and looked at
     * @param dueEntries due entries read (pipelines woken and runs checked)
     * @param caughtUp   whether everything due was handled; false when the time budget ran out (the next tick resumes)
     * @param jobEventsRecovered runs whose callback wait the watchdog completed because no job-state event came
     */
    public record Summary(
            int pipelines,
            List<String> markersWritten,
            List<String> slaMissed,
            List<String> stuckRuns,
            List<String> excluded,
            List<String> errors,
            int dueEntries,
            boolean caughtUp,
            List<String> jobEventsRecovered) {}

    /**
     * How long after a callback wait starts (and then between checks while its job runs) the watchdog asks the job
     * system whether the job ended without its job-state event reaching {@code jobStateChange}.
     */
    public static final Duration CALLBACK_CHECK_INTERVAL = Duration.ofMinutes(15);

    /** The reason a {@code JOB_EVENT_RECOVERED} event gives. */
    static final String NO_JOB_STATE_EVENT = "NO_JOB_STATE_EVENT";

    /** Well inside the orchestrator's 120 s timeout: a tick that has more to do leaves it to the next one. */
    static final Duration DEFAULT_BUDGET = Duration.ofSeconds(60);

    private static final int PAGE_SIZE = 100;
    /** Due pipelines handled at once: their reads and writes are independent, and DynamoDB latency dominates. */
    private static final int CONCURRENCY = 8;
    /**
     * Writers put entries in the partition of their own "now"; a tick keeps reading the previous day's partitions for
     * this long after midnight, so a writer whose clock lags a little is not missed.
     */
    private static final Duration LOW_WATER_MARGIN = Duration.ofMinutes(5);

    private final Collaborators collaborators;
    private final Duration budget;
    private final LongSupplier nanoTime;

    public Watchdog(Collaborators collaborators) {
        this(collaborators, DEFAULT_BUDGET, System::nanoTime);
    }

    /** A watchdog with its own time budget per tick, measured on {@code nanoTime} (tests pass a controlled one). */
    Watchdog(Collaborators collaborators, Duration budget, LongSupplier nanoTime) {
        this.collaborators = collaborators;
        this.budget = budget;
        this.nanoTime = nanoTime;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Instant now = collaborators.now();
        long started = nanoTime.getAsLong();
        WatchdogIndex index = collaborators.provider().watchdog();
        WatchdogTally tally = new WatchdogTally();
        TickCalendars calendars = new TickCalendars(collaborators.provider().calendars());
        LocalDate today = LocalDate.ofInstant(now, ZoneOffset.UTC);
        Optional<LocalDate> lowWater = index.lowWater();
        Optional<LocalDate> from = lowWater.isPresent() ? lowWater : adoptUnwatched(now, started);
        if (from.isEmpty()) {
            return done(tally.summary(false), started);
        }
        boolean caughtUp = true;
        try (ExecutorService workers = Executors.newFixedThreadPool(
                CONCURRENCY, Thread.ofVirtual().name("watchdog-", 0).factory())) {
            days:
            for (LocalDate day = from.get(); !day.isAfter(today); day = day.plusDays(1)) {
                for (int shard = 0; shard < TableKeys.DUE_SHARDS; shard++) {
                    PageRequest page = PageRequest.first(PAGE_SIZE);
                    while (page != null) {
                        if (outOfTime(started)) {
                            caughtUp = false;
                            break days;
                        }
                        Page<DueEntry> due = index.due(day, shard, now, page);
                        handle(due.items(), now, tally, calendars, workers);
                        page = due.nextCursor() == null ? null : page.after(due.nextCursor());
                    }
                }
            }
        }
        // Backfills in view move on: a day whose end no orchestrator reported, a pause lifted, a summary alert owed.
        tally.errors.addAll(new BackfillProgress(collaborators).tick());
        if (caughtUp) {
            LocalDate done = LocalDate.ofInstant(now.minus(LOW_WATER_MARGIN), ZoneOffset.UTC);
            if (lowWater.map(d -> d.isBefore(done)).orElse(true)) {
                index.raiseLowWater(done);
            }
        }
        return done(tally.summary(caughtUp), started);
    }

    private Outcome done(Summary summary, long started) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("dueEntries", summary.dueEntries());
        fields.put("pipelines", summary.pipelines());
        fields.put("markersWritten", summary.markersWritten().size());
        fields.put("slaMissed", summary.slaMissed().size());
        fields.put("stuckRuns", summary.stuckRuns().size());
        fields.put("jobEventsRecovered", summary.jobEventsRecovered().size());
        fields.put("errors", summary.errors().size());
        fields.put("caughtUp", summary.caughtUp());
        fields.put("millis", Duration.ofNanos(nanoTime.getAsLong() - started).toMillis());
        collaborators.log().info(LogContext.NONE, "watchdog tick", fields);
        return Outcome.proceed(summary);
    }

    /**
     * The first tick on a table (no checkpoint yet) gives every pipeline registered before the due-time index existed
     * its watch, once, so an upgrade does not leave them unwatched; later registrations write their own. Answers the
     * earliest day a due entry may be in, or empty when the time budget ran out (the next tick goes on; adopting is
     * idempotent).
     */
    private Optional<LocalDate> adoptUnwatched(Instant now, long started) {
        WatchdogIndex index = collaborators.provider().watchdog();
        // Run checks written before the first tick are due at least an execution timeout after their run started.
        LocalDate earliest = LocalDate.ofInstant(now, ZoneOffset.UTC).minusDays(1);
        int adopted = 0;
        PageRequest page = PageRequest.first(PAGE_SIZE);
        while (page != null) {
            if (outOfTime(started)) {
                return Optional.empty();
            }
            Page<PipelineConfig> configs = collaborators.provider().pipelines().list(page);
            for (PipelineConfig config : configs.items()) {
                PipelineWatch watch = index.watch(config.name()).orElse(null);
                if (watch == null) {
                    watch = index.adopt(config);
                    adopted++;
                }
                if (watch.dueAt() != null
                        && LocalDate.ofInstant(watch.dueAt(), ZoneOffset.UTC).isBefore(earliest)) {
                    earliest = LocalDate.ofInstant(watch.dueAt(), ZoneOffset.UTC);
                }
            }
            page = configs.nextCursor() == null ? null : page.after(configs.nextCursor());
        }
        collaborators
                .log()
                .info(
                        LogContext.NONE,
                        "watchdog index started",
                        Map.of("adopted", adopted, "from", earliest.toString()));
        return Optional.of(earliest);
    }

    private boolean outOfTime(long started) {
        return Duration.ofNanos(nanoTime.getAsLong() - started).compareTo(budget) > 0;
    }

    @Override
    public Summary errorPayload() {
        return new Summary(0, List.of(), List.of(), List.of(), List.of(), List.of(), 0, false, List.of());
    }

    /** Handles one page of due entries, several at once; a store fault stops the tick once the page is done. */
    private void handle(
            List<DueEntry> entries,
            Instant now,
            WatchdogTally tally,
            TickCalendars calendars,
            ExecutorService workers) {
        if (entries.isEmpty()) {
            return;
        }
        tally.entries.addAndGet(entries.size());
        List<Future<?>> work = new ArrayList<>();
        for (DueEntry entry : entries) {
            work.add(workers.submit(() -> {
                if (entry.isHolderCheck()) {
                    new HolderCheckDuty(collaborators).check(entry).ifPresent(tally.errors::add);
                } else if (entry.isCallbackCheck()) {
                    new CallbackCheckDuty(collaborators).check(entry, tally);
                } else if (entry.isRunCheck()) {
                    new StuckRunDuty(collaborators).check(entry, tally);
                } else {
                    // Single-key reads (the functions' roles grant no batch reads), made by the workers in parallel.
                    Optional<PipelineWatch> watch =
                            collaborators.provider().watchdog().watch(entry.pipelineId());
                    Optional<PipelineConfig> config = watch.isEmpty()
                            ? Optional.empty()
                            : collaborators.provider().pipelines().get(entry.pipelineId());
                    new WindowWakeDuty(collaborators)
                            .wake(entry, watch.orElse(null), config.orElse(null), now, tally, calendars);
                }
            }));
        }
        RuntimeException fault = null;
        for (Future<?> done : work) {
            try {
                done.get();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreException("watchdog tick interrupted", e);
            } catch (ExecutionException e) {
                if (fault == null) {
                    fault = e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
                }
            }
        }
        if (fault != null) {
            throw fault;
        }
    }
}
