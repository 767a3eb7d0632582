package dev.interlock.orchestrator;

import dev.interlock.jobs.RunCheck;
import dev.interlock.jobs.RunCheckState;
import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.event.PauseEvents;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.schedule.ExclusionRule;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchEvent;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.CalendarStore;
import dev.interlock.store.DueEntry;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.StoreException;
import dev.interlock.store.WatchdogIndex;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * {@code watchdog} (an EventBridge schedule): what no marker will ever report. It reads only what is due — the
 * entries of the due-time index ({@link WatchdogIndex}) up to now — so a tick costs what is due, not what is
 * registered. A pipeline's entry wakes its watch: each window that opened since the last look starts the day's
 * evaluation once (unless something else did), each completion deadline that passed without COMPLETED alerts
 * SLA_MISSED once, excluded dates are left alone; then the watch is moved on to its next event. A run's entry, due
 * when the execution timeout has passed, alerts STUCK_RUN once if the run is still not terminal. A callback check,
 * due {@link #CALLBACK_CHECK_INTERVAL} after a run started waiting for its job by callback, asks the job system
 * whether the job ended without its job-state event and if so completes the wait itself. A holder check asks whether
 * the execution holding a lock still runs and releases the lock of one that ended ({@link HolderCheckDuty}). A
 * pipeline with an
 * invalid config is reported, not fatal. Handled entries are deleted as they are handled, so a tick that stops (its
 * time budget, a store fault) leaves the rest for the next one, and a missed tick is caught up by the next.
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

    /** What a tick collects, from several threads. */
    private static final class Tally {
        final AtomicInteger pipelines = new AtomicInteger();
        final AtomicInteger entries = new AtomicInteger();
        final List<String> markersWritten = Collections.synchronizedList(new ArrayList<>());
        final Set<String> slaMissed = ConcurrentHashMap.newKeySet();
        final List<String> stuckRuns = Collections.synchronizedList(new ArrayList<>());
        final List<String> jobEventsRecovered = Collections.synchronizedList(new ArrayList<>());
        final Set<String> excluded = ConcurrentHashMap.newKeySet();
        final List<String> errors = Collections.synchronizedList(new ArrayList<>());

        Summary summary(boolean caughtUp) {
            return new Summary(
                    pipelines.get(),
                    sorted(markersWritten),
                    sorted(slaMissed),
                    sorted(stuckRuns),
                    sorted(excluded),
                    sorted(errors),
                    entries.get(),
                    caughtUp,
                    sorted(jobEventsRecovered));
        }

        private static List<String> sorted(java.util.Collection<String> values) {
            synchronized (values) {
                return List.copyOf(new TreeSet<>(values));
            }
        }
    }

    @Override
    public Outcome run(ActionRequest request) {
        Instant now = collaborators.now();
        long started = nanoTime.getAsLong();
        WatchdogIndex index = collaborators.provider().watchdog();
        Tally tally = new Tally();
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
            List<DueEntry> entries, Instant now, Tally tally, TickCalendars calendars, ExecutorService workers) {
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
                    checkCallback(entry, tally);
                } else if (entry.isRunCheck()) {
                    checkRun(entry, tally);
                } else {
                    // Single-key reads (the functions' roles grant no batch reads), made by the workers in parallel.
                    Optional<PipelineWatch> watch =
                            collaborators.provider().watchdog().watch(entry.pipelineId());
                    Optional<PipelineConfig> config = watch.isEmpty()
                            ? Optional.empty()
                            : collaborators.provider().pipelines().get(entry.pipelineId());
                    wake(entry, watch.orElse(null), config.orElse(null), now, tally, calendars);
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

    /** Acts on the events of one pipeline that fell due since its last look, then moves its watch on. */
    private void wake(
            DueEntry entry,
            PipelineWatch watch,
            PipelineConfig config,
            Instant now,
            Tally tally,
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
            Tally tally,
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

    /** Alerts STUCK_RUN once per (pipeline, date, schedule) when the run is still not terminal; then the entry goes. */
    private void checkRun(DueEntry entry, Tally tally) {
        Optional<RunState> found = collaborators.provider().runs().get(entry.runId());
        if (found.isPresent() && !found.get().status().isTerminal()) {
            RunState run = found.get();
            Instant now = collaborators.now();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("runId", run.runId());
            details.put("status", run.status().wireName());
            details.put("createdAt", InterlockJson.timestamp(run.createdAt()));
            if (run.executionName() != null) {
                details.put("executionName", run.executionName());
            }
            String message = "Run " + run.runId() + " of " + run.pipelineId() + " is still "
                    + run.status().wireName() + " "
                    + Duration.between(run.createdAt(), now).toMinutes() + " min after it was created";
            if (collaborators
                    .alerts()
                    .raise(
                            AlertKind.STUCK_RUN,
                            AlertLevel.ERROR,
                            run.pipelineId(),
                            run.scheduleId(),
                            run.date(),
                            message,
                            details,
                            // The tick claims the alert as itself, not as the run's execution (whose own unsent
                            // claim it could take again): overlapping ticks send it once (CallbackCheckRefusal).
                            new LogContext(
                                    run.pipelineId(),
                                    run.scheduleId(),
                                    run.date().toString(),
                                    run.runId(),
                                    null))) {
                tally.stuckRuns.add(run.runId());
            }
        }
        collaborators.provider().watchdog().remove(entry);
    }

    /**
     * A callback check: the job of a run waiting by callback may have ended without its job-state event reaching
     * {@code jobStateChange}. Asks the job system as the run-checker does; a job that ended completes the wait as its
     * event would have ({@link JobCompletion}: CAS on the run, SendTaskSuccess/SendTaskFailure) and leaves
     * {@code JOB_EVENT_RECOVERED}; a job still running (or a check that could not tell) is asked again
     * {@link #CALLBACK_CHECK_INTERVAL} later, and a check refused for good also leaves an event and an alert
     * ({@link CallbackCheckRefusal}). Nothing to do once the run is decided or nobody waits for the job.
     */
    private void checkCallback(DueEntry entry, Tally tally) {
        WatchdogIndex index = collaborators.provider().watchdog();
        Optional<RunState> found = collaborators.provider().runs().get(entry.runId());
        if (found.isEmpty()) {
            index.remove(entry);
            return;
        }
        if (found.get().status().isTerminal()) {
            endedRun(entry, found.get(), tally);
            index.remove(entry);
            return;
        }
        RunState run = found.get();
        LogContext context = new LogContext(
                run.pipelineId(), run.scheduleId(), run.date().toString(), run.runId(), run.executionName());
        TriggerType type;
        try {
            type = TriggerType.fromJson(entry.triggerType());
        } catch (IllegalArgumentException e) {
            collaborators.log().error(context, "callback check of an unknown job type dropped", Map.of(), e);
            tally.errors.add(run.pipelineId() + ": callback check: " + e.getMessage());
            index.remove(entry);
            return;
        }
        RunCheck check;
        try {
            check = collaborators.jobChecks().check(EndedRunCheck.jobCheck(run, type));
        } catch (RuntimeException e) {
            // A defect or an unreachable job system: asked again later, the tick goes on.
            collaborators.log().error(context, "callback check could not ask the job system", Map.of(), e);
            check = RunCheck.running("the job system could not be asked: " + e.getMessage());
        }
        if (CallbackCheckRefusal.refused(check)) {
            new CallbackCheckRefusal(collaborators).report(run, type, entry.jobId(), check, context);
        }
        if (check.state() == RunCheckState.RUNNING) {
            index.expectJobCallback(
                    entry.pipelineId(),
                    entry.runId(),
                    entry.triggerType(),
                    entry.jobId(),
                    collaborators.now().plus(CALLBACK_CHECK_INTERVAL));
            index.remove(entry);
            return;
        }
        JobCallback callback = collaborators.provider().jobCallbacks().find(type, entry.jobId());
        if (callback == null
                || callback.waiter() == null
                || !entry.runId().equals(callback.waiter().runId())) {
            // The waiter was never recorded (its call failed) or another run waits for the job now: the wait's own
            // timeout and fallback poll follow this run.
            collaborators
                    .log()
                    .warn(
                            context,
                            "job ended but no wait of this run is recorded for it",
                            Map.of("job", entry.jobId()));
            index.remove(entry);
            return;
        }
        String message = type.wireName() + " job " + entry.jobId() + " ended "
                + check.state().wireName()
                + " (no job-state event came; asked by the watchdog)"
                + (check.message().isBlank() ? "" : ": " + check.message());
        RunCheck outcome = new RunCheck(check.state(), message, check.failureCategory());
        JobCompletion.Completed done =
                new JobCompletion(collaborators).complete(callback, outcome, JobCompletion.CompletedBy.WATCHDOG);
        if (done.delivered() || done.recorded()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("reason", NO_JOB_STATE_EVENT);
            details.put("triggerType", type.wireName());
            details.put("jobId", entry.jobId());
            details.put("jobState", check.state().wireName());
            details.put("checkedAt", InterlockJson.timestamp(collaborators.now()));
            collaborators
                    .provider()
                    .events()
                    .append(new Event(
                            EventKind.JOB_EVENT_RECOVERED,
                            run.pipelineId(),
                            run.scheduleId(),
                            run.date(),
                            run.runId(),
                            null,
                            check.state().wireName(),
                            "no job-state event came for " + type.wireName() + " job " + entry.jobId()
                                    + "; the watchdog found it " + check.state().wireName() + " and completed the wait",
                            details,
                            collaborators.now()));
            collaborators
                    .log()
                    .warn(
                            context,
                            "job-state event missing; wait completed by the watchdog",
                            Map.of("job", entry.jobId(), "state", check.state().wireName()));
            tally.jobEventsRecovered.add(run.runId());
        }
        index.remove(entry);
    }

    /** A callback check of a run that ended meanwhile: its day's end may still need recording ({@link EndedRunCheck}). */
    private void endedRun(DueEntry entry, RunState run, Tally tally) {
        try {
            if (new EndedRunCheck(collaborators).check(entry, run, TriggerType.fromJson(entry.triggerType()))) {
                tally.jobEventsRecovered.add(run.runId());
            }
        } catch (IllegalArgumentException e) {
            tally.errors.add(run.pipelineId() + ": callback check: " + e.getMessage());
        }
    }

    /** The calendars one tick reads, each at most once (many pipelines share one holiday calendar). */
    private static final class TickCalendars implements Function<String, Optional<Calendar>> {
        private final CalendarStore store;
        private final Map<String, Optional<Calendar>> read = new ConcurrentHashMap<>();

        TickCalendars(CalendarStore store) {
            this.store = store;
        }

        @Override
        public Optional<Calendar> apply(String name) {
            return read.computeIfAbsent(name, store::get);
        }
    }
}
