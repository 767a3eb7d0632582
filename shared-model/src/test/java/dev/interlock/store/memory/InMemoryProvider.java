package dev.interlock.store.memory;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.Mute;
import dev.interlock.model.alert.MuteScope;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.event.AlertEvent;
import dev.interlock.model.event.Event;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.IndexKey;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.watch.PipelineWatch;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.AlertHistory;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;
import dev.interlock.store.AlertQuery;
import dev.interlock.store.ArchetypeStore;
import dev.interlock.store.BackfillStore;
import dev.interlock.store.CalendarStore;
import dev.interlock.store.CascadeStore;
import dev.interlock.store.DueEntry;
import dev.interlock.store.EventStore;
import dev.interlock.store.HolderCheck;
import dev.interlock.store.JobCallbackStore;
import dev.interlock.store.LateArrivalStore;
import dev.interlock.store.LockFence;
import dev.interlock.store.LockHolder;
import dev.interlock.store.Locker;
import dev.interlock.store.MuteStore;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.PauseStore;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Provider;
import dev.interlock.store.RerunAcceptance;
import dev.interlock.store.RerunStore;
import dev.interlock.store.Retention;
import dev.interlock.store.RunLogChange;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunLogStore;
import dev.interlock.store.RunStore;
import dev.interlock.store.RunTransition;
import dev.interlock.store.SensorStore;
import dev.interlock.store.TimeToLive;
import dev.interlock.store.TraitStore;
import dev.interlock.store.TransitionOutcome;
import dev.interlock.store.WatchdogIndex;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The Provider in memory, for fast unit tests of the functions: thread-safe (one lock, so multi-item changes are
 * atomic), time from an injected {@link Clock}, expired items read as absent, and the same conditional-write outcomes
 * as the DynamoDB Provider. Documents are kept as JSON so values round-trip exactly as they do through DynamoDB.
 */
public final class InMemoryProvider implements Provider {

    private static final String OWNER = "owner";
    private static final String ACQUIRED_AT = "acquiredAt";
    private static final String EXECUTION_ARN = "executionArn";
    private static final String NEXT_ROUND_BY = "nextRoundBy";
    private static final String EVALUATING_UNTIL = "evaluatingUntil";
    private static final String ABSORBED = "absorbed";
    private static final String ALERT_STATE = "state";
    private static final String CLAIMED = "CLAIMED";
    private static final String SENT = "SENT";
    private static final String CLAIMANT = "claimant";
    private static final String LEASE_UNTIL = "leaseUntil";
    /** The budget counter's count attribute (as on DynamoDB). */
    private static final String COUNT = "n";
    /** The watchdog checkpoint's attribute (as on DynamoDB). */
    private static final String LOW_WATER = "lowWater";

    private final Clock clock;
    private final Retention retention;
    private final MemoryTable table = new MemoryTable();

    private final MemoryConfigStores configs = new MemoryConfigStores(table, this::now, new Watches());
    private final TraitStore traits = new Traits();
    private final SensorStore sensors = new Sensors();
    private final RunStore runs = new Runs();
    private final RunLogStore runLogs = new RunLogs();
    private final EventStore events = new Events();
    private final RerunStore reruns = new Reruns();
    private final CascadeStore cascade = new Cascade();
    private final LateArrivalStore lateArrivals = new LateArrivals();
    private final AlertLedger alerts = new Alerts();
    private final AlertHistory alertHistory = new AlertEvents();
    private final Locker locks = new Locks();
    private final WatchdogIndex watchdog = new Watchdog();
    private final JobCallbackStore jobCallbacks = new JobCallbacks();
    private final MuteStore mutes = new Mutes();
    private final PauseStore pauses = new Pauses();
    private final Forces forces = new Forces();
    private final Backfills backfills = new Backfills();

    /** An empty store with the default retention. */
    public InMemoryProvider(Clock clock) {
        this(clock, Retention.DEFAULT);
    }

    /** An empty store. */
    public InMemoryProvider(Clock clock, Retention retention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.retention = Objects.requireNonNull(retention, "retention");
    }

    @Override
    public PipelineStore pipelines() {
        return configs.pipelines;
    }

    @Override
    public ArchetypeStore archetypes() {
        return configs.archetypes;
    }

    @Override
    public CalendarStore calendars() {
        return configs.calendars;
    }

    @Override
    public TraitStore traits() {
        return traits;
    }

    @Override
    public SensorStore sensors() {
        return sensors;
    }

    @Override
    public RunStore runs() {
        return runs;
    }

    @Override
    public RunLogStore runLogs() {
        return runLogs;
    }

    @Override
    public EventStore events() {
        return events;
    }

    @Override
    public RerunStore reruns() {
        return reruns;
    }

    @Override
    public CascadeStore cascade() {
        return cascade;
    }

    @Override
    public LateArrivalStore lateArrivals() {
        return lateArrivals;
    }

    @Override
    public AlertLedger alerts() {
        return alerts;
    }

    @Override
    public AlertHistory alertHistory() {
        return alertHistory;
    }

    @Override
    public Locker locks() {
        return locks;
    }

    @Override
    public WatchdogIndex watchdog() {
        return watchdog;
    }

    @Override
    public JobCallbackStore jobCallbacks() {
        return jobCallbacks;
    }

    @Override
    public PauseStore pauses() {
        return pauses;
    }

    @Override
    public dev.interlock.store.ForceStore forces() {
        return forces;
    }

    @Override
    public BackfillStore backfills() {
        return backfills;
    }

    @Override
    public boolean startBackfillDay(Backfill read, Backfill next, Rerun rerun, Marker marker, Event event) {
        Objects.requireNonNull(rerun, "rerun");
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(event, "event");
        synchronized (table) {
            if (!backfills.versionHolds(read)) {
                return false;
            }
            if (table.raw(TableKeys.rerun(rerun.rerunId())).isPresent()
                    || table.raw(markerKey(marker)).isPresent()) {
                throw new IllegalStateException("rerun or marker " + rerun.rerunId() + " of backfill "
                        + next.backfillId() + " exists already although the backfill's version held");
            }
            backfills.items.put(next.backfillId(), next.atVersion(read.version() + 1));
            writeRerun(rerun);
            putMarker(marker);
            writeEvent(event);
            return true;
        }
    }

    @Override
    public MuteStore mutes() {
        return mutes;
    }

    @Override
    public TransitionOutcome recordTransition(RunTransition transition, LockFence fence) {
        synchronized (table) {
            RunState next = transition.next();
            // The run-log change is applied before the version check, as the DynamoDB Provider must (it learns
            // about the version only from the transaction): a change that would clobber the ledger fails either way.
            RunLog log = null;
            if (transition.runLog() != null) {
                log = prepareRunLog(
                        transition.runLog().key(), transition.runLog().change());
            }
            requireHeld(fence, "run transition of " + next.runId());
            Optional<MemoryTable.Item> run = table.live(TableKeys.runState(next.runId()), now());
            if (run.isEmpty() || run.get().version() != transition.expectedVersion()) {
                return new TransitionOutcome.RunVersionConflict(next.runId(), transition.expectedVersion());
            }
            writeRun(next);
            if (log != null) {
                writeRunLog(log);
            }
            transition.events().forEach(this::writeEvent);
            return new TransitionOutcome.Applied(next, log);
        }
    }

    @Override
    public boolean createRun(RunState run, Instant settleBy, Event event, LockFence fence) {
        Objects.requireNonNull(event, "event");
        synchronized (table) {
            requireHeld(fence, "creating run " + run.runId());
            if (table.raw(TableKeys.runState(run.runId())).isPresent()) {
                return false;
            }
            watchdog().expectRunSettled(run.pipelineId(), run.runId(), settleBy);
            writeRun(run);
            writeEvent(event);
            return true;
        }
    }

    @Override
    public RunLog recordRunLog(RunLogKey key, RunLogChange change, List<Event> events, LockFence fence) {
        synchronized (table) {
            Optional<RunLog> current = table.live(runLogKey(key), now()).map(i -> decode(i, RunLog.class));
            RunLog next = RunLogChange.applyPreserving(key, current, change);
            if (current.isPresent() && current.get().equals(next)) {
                return next;
            }
            requireHeld(fence, "recording run log " + key);
            writeRunLog(next);
            events.forEach(this::writeEvent);
            return next;
        }
    }

    /** The fence's check (the DynamoDB Provider's ConditionCheck on the lock): its owner holds the live lock. */
    private void requireHeld(LockFence fence, String write) {
        if (fence == null) {
            return;
        }
        Optional<MemoryTable.Item> held = table.live(TableKeys.lock(fence.key()), now());
        if (held.isEmpty() || !fence.owner().equals(held.get().attribute(OWNER))) {
            throw fence.lost(write);
        }
    }

    @Override
    public PipelineAndArchetype pipelineAndArchetype(String pipelineId, String archetypeName) {
        return new PipelineAndArchetype(
                pipelines().get(pipelineId),
                archetypeName == null ? Optional.empty() : archetypes().get(archetypeName));
    }

    @Override
    public RerunAcceptance acceptRerun(Rerun rerun, Marker marker, Event event, int maxPerDay) {
        Objects.requireNonNull(rerun, "rerun");
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(event, "event");
        synchronized (table) {
            // The checks see expired items too, as DynamoDB's conditions do; the budget is checked first.
            if (table.raw(TableKeys.rerun(rerun.rerunId())).isPresent()) {
                throw new IllegalStateException(
                        "rerun " + rerun.rerunId() + " exists already; acceptRerun takes new reruns");
            }
            int used = budgetUsed(rerun);
            if (used >= maxPerDay) {
                return new RerunAcceptance.BudgetSpent(used);
            }
            if (table.raw(markerKey(marker)).isPresent()) {
                return new RerunAcceptance.MarkerExists();
            }
            writeNewRerun(rerun);
            putMarker(marker);
            writeEvent(event);
            return new RerunAcceptance.Accepted();
        }
    }

    @Override
    public boolean moveRerun(RerunStatus from, Rerun next, Event event) {
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(event, "event");
        if (from != null && !from.allowsRewriteAs(next.status())) {
            throw new IllegalArgumentException("a rerun cannot move from " + from + " to " + next.status());
        }
        synchronized (table) {
            // Like the DynamoDB conditions: an expired rerun not yet deleted still exists for them.
            Optional<Rerun> stored = table.raw(TableKeys.rerun(next.rerunId())).map(i -> decode(i, Rerun.class));
            if (from == null
                    ? stored.isPresent()
                    : stored.isEmpty() || stored.get().status() != from) {
                return false;
            }
            if (stored.isPresent() && !copyKey(stored.get()).equals(copyKey(next))) {
                throw new IllegalArgumentException(
                        "rerun " + next.rerunId() + " belongs to " + copyKey(stored.get()) + ", not " + copyKey(next));
            }
            writeRerun(next);
            writeEvent(event);
            return true;
        }
    }

    @Override
    public void recordRound(List<TraitResult> results, List<Event> roundEvents) {
        results.forEach(traits::put);
        roundEvents.forEach(events::append);
    }

    @Override
    public void ping() {
        // Memory is always there; the method exists so the API's health check reads the same on both Providers.
    }

    private Instant now() {
        return clock.instant();
    }

    private long ttlAfter(Duration retention) {
        return TimeToLive.epochSecondsOf(now().plus(retention));
    }

    private static Long ttlAt(Instant expiresAt) {
        return expiresAt == null ? null : TimeToLive.epochSecondsOf(expiresAt);
    }

    private static MemoryTable.Item item(ItemKey key, IndexKey index, Object document, long version, Long ttl) {
        return new MemoryTable.Item(key, index, InterlockJson.write(document), version, ttl, Map.of());
    }

    private static <T> T decode(MemoryTable.Item item, Class<T> type) {
        return InterlockJson.read(item.data(), type);
    }

    private <T> Optional<T> getDocument(ItemKey key, Class<T> type) {
        synchronized (table) {
            return table.live(key, now()).map(i -> decode(i, type));
        }
    }

    private <T> Page<T> listIndex(String gsi1pk, boolean ascending, PageRequest page, Class<T> type) {
        synchronized (table) {
            return MemoryTable.page(
                    table.queryIndex(gsi1pk, ascending, now()),
                    page,
                    ascending,
                    MemoryTable::indexPosition,
                    i -> decode(i, type));
        }
    }

    private <T> Page<T> listPartition(String pk, String skPrefix, boolean ascending, PageRequest page, Class<T> type) {
        synchronized (table) {
            return MemoryTable.page(
                    table.query(pk, skPrefix, ascending, now()),
                    page,
                    ascending,
                    MemoryTable::tablePosition,
                    i -> decode(i, type));
        }
    }

    private <T> List<T> listAll(String pk, String skPrefix, boolean ascending, Class<T> type) {
        synchronized (table) {
            return table.query(pk, skPrefix, ascending, now()).stream()
                    .map(i -> decode(i, type))
                    .toList();
        }
    }

    private void writeRun(RunState run) {
        table.put(item(
                TableKeys.runState(run.runId()),
                TableKeys.runStateIndex(run.pipelineId(), run.createdAt(), run.runId()),
                run,
                run.version(),
                ttlAfter(retention.runs())));
    }

    private RunLog prepareRunLog(RunLogKey key, RunLogChange change) {
        Optional<RunLog> current = table.live(runLogKey(key), now()).map(i -> decode(i, RunLog.class));
        return RunLogChange.applyPreserving(key, current, change);
    }

    private void writeRunLog(RunLog log) {
        ItemKey key = TableKeys.runLog(log.pipelineId(), log.date(), log.scheduleId());
        long version = table.raw(key).map(i -> i.version() + 1).orElse(1L);
        table.put(item(
                key,
                TableKeys.runLogIndex(log.pipelineId(), log.date(), log.scheduleId()),
                log,
                version,
                ttlAfter(retention.runLogs())));
    }

    private static ItemKey budgetKey(Rerun rerun) {
        return TableKeys.rerunBudget(rerun.pipelineId(), rerun.date(), rerun.scheduleId());
    }

    private int budgetUsed(Rerun rerun) {
        return table.raw(budgetKey(rerun))
                .map(i -> Integer.parseInt(i.attribute(COUNT)))
                .orElse(0);
    }

    /** A new rerun's item and pipeline copy, and one more on its budget counter (which lives as long as they do). */
    private void writeNewRerun(Rerun rerun) {
        writeRerun(rerun);
        table.put(new MemoryTable.Item(
                budgetKey(rerun),
                null,
                "{}",
                1,
                ttlAfter(retention.reruns()),
                Map.of(COUNT, Integer.toString(budgetUsed(rerun) + 1))));
    }

    /** A rerun's item (listed by request time) and the pipeline's copy (found per date and listed per pipeline). */
    private void writeRerun(Rerun rerun) {
        long ttl = ttlAfter(retention.reruns());
        table.put(item(TableKeys.rerun(rerun.rerunId()), TableKeys.rerunIndex(rerun.requestedAt()), rerun, 1, ttl));
        table.put(item(
                copyKey(rerun),
                TableKeys.rerunOfPipelineIndex(rerun.pipelineId(), rerun.requestedAt(), rerun.rerunId()),
                rerun,
                1,
                ttl));
    }

    private static ItemKey copyKey(Rerun rerun) {
        return TableKeys.rerunOfPipeline(rerun.pipelineId(), rerun.date(), rerun.scheduleId(), rerun.rerunId());
    }

    private static ItemKey runLogKey(RunLogKey key) {
        return TableKeys.runLog(key.pipelineId(), key.date(), key.scheduleId());
    }

    private static ItemKey markerKey(Marker marker) {
        return marker.key();
    }

    private void putMarker(Marker marker) {
        table.put(item(markerKey(marker), null, marker, 1, ttlAfter(retention.markers())));
    }

    private void writeEvent(Event event) {
        String random = HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        table.put(item(
                TableKeys.event(event.pipelineId(), event.timestamp().toEpochMilli(), random),
                null,
                event,
                1,
                ttlAfter(retention.events())));
    }

    /** Replaces {@code previous} by {@code next} (null: deletes it) and moves the pipeline's due entry with it. */
    private void writeWatch(PipelineWatch previous, PipelineWatch next) {
        if (previous == null && next == null) {
            return;
        }
        if (previous != null && previous.dueAt() != null) {
            table.delete(TableKeys.dueEntry(previous.dueAt(), previous.pipelineId(), null));
        }
        if (next == null) {
            table.delete(TableKeys.watch(previous.pipelineId()));
            return;
        }
        table.put(item(TableKeys.watch(next.pipelineId()), null, next, next.version(), null));
        if (next.dueAt() != null) {
            table.put(item(
                    TableKeys.dueEntry(next.dueAt(), next.pipelineId(), null),
                    null,
                    new DueEntry(next.dueAt(), next.pipelineId(), null),
                    1,
                    null));
        }
    }

    /** The watch side of a pipeline's registration and deletion (called by the config stores under the table's lock). */
    private final class Watches implements MemoryConfigStores.Watches {
        @Override
        public void registered(PipelineConfig config) {
            PipelineWatch previous = table.live(TableKeys.watch(config.name()), now())
                    .map(i -> decode(i, PipelineWatch.class))
                    .orElse(null);
            writeWatch(previous, WatchPlan.registered(config, previous, now()));
        }

        @Override
        public void deleted(String pipelineId) {
            table.live(TableKeys.watch(pipelineId), now())
                    .map(i -> decode(i, PipelineWatch.class))
                    .ifPresent(watch -> writeWatch(watch, null));
        }
    }

    private final class Traits implements TraitStore {
        @Override
        public void put(TraitResult result) {
            synchronized (table) {
                table.put(item(
                        TableKeys.traitResult(
                                result.pipelineId(), result.date(), result.scheduleId(), result.traitType()),
                        null,
                        result,
                        1,
                        ttlAt(result.expiresAt())));
            }
        }

        @Override
        public Optional<TraitResult> get(String pipelineId, LocalDate date, String scheduleId, String traitType) {
            return getDocument(TableKeys.traitResult(pipelineId, date, scheduleId, traitType), TraitResult.class);
        }

        @Override
        public List<TraitResult> list(String pipelineId, LocalDate date, String scheduleId) {
            return listAll(
                    TableKeys.pipelinePk(pipelineId), TableKeys.traitPrefix(date, scheduleId), true, TraitResult.class);
        }

        @Override
        public List<TraitResult> ofDay(String pipelineId, LocalDate date) {
            return listAll(TableKeys.pipelinePk(pipelineId), TableKeys.traitDayPrefix(date), true, TraitResult.class);
        }

        @Override
        public Page<TraitResult> listByPipeline(String pipelineId, PageRequest page) {
            return listPartition(
                    TableKeys.pipelinePk(pipelineId), TableKeys.TRAIT_PREFIX, false, page, TraitResult.class);
        }
    }

    private final class Sensors implements SensorStore {
        @Override
        public SensorWrite write(SensorValue value, Instant expiresAt) {
            synchronized (table) {
                ItemKey key = TableKeys.sensor(value.name(), value.partition());
                // The item's version is the revision; it keeps counting past an expired value, as on DynamoDB.
                long revision = table.raw(key).map(MemoryTable.Item::version).orElse(0L);
                Optional<SensorValue> live = table.live(key, now()).map(i -> decode(i, SensorValue.class));
                boolean changed = live.isEmpty() || !live.get().sameFieldsAs(value);
                SensorValue stored = value.atRevision(changed ? revision + 1 : revision);
                table.put(item(key, null, stored, stored.revision(), ttlAt(expiresAt)));
                return new SensorWrite(stored, changed);
            }
        }

        @Override
        public Optional<SensorValue> get(String name, String partition) {
            return getDocument(TableKeys.sensor(name, partition), SensorValue.class);
        }
    }

    private final class Runs implements RunStore {
        @Override
        public boolean create(RunState run) {
            synchronized (table) {
                if (table.raw(TableKeys.runState(run.runId())).isPresent()) {
                    return false;
                }
                writeRun(run);
                return true;
            }
        }

        @Override
        public Optional<RunState> get(String runId) {
            return getDocument(TableKeys.runState(runId), RunState.class);
        }

        @Override
        public boolean compareAndSwap(long expectedVersion, RunState next) {
            if (next.version() != expectedVersion + 1) {
                throw new IllegalArgumentException("run " + next.runId() + ": next version must be "
                        + (expectedVersion + 1) + ", was " + next.version());
            }
            synchronized (table) {
                Optional<MemoryTable.Item> current = table.live(TableKeys.runState(next.runId()), now());
                if (current.isEmpty() || current.get().version() != expectedVersion) {
                    return false;
                }
                writeRun(next);
                return true;
            }
        }

        @Override
        public Page<RunState> listByPipeline(String pipelineId, PageRequest page) {
            return listIndex(TableKeys.runsByPipeline(pipelineId), false, page, RunState.class);
        }

        @Override
        public List<RunState> listCreated(String pipelineId, Instant createdFrom, Instant createdBefore) {
            String from = InterlockJson.timestamp(createdFrom);
            String before = InterlockJson.timestamp(createdBefore);
            synchronized (table) {
                List<RunState> created = new ArrayList<>();
                for (MemoryTable.Item item : table.queryIndex(TableKeys.runsByPipeline(pipelineId), true, now())) {
                    String sk = item.index().gsi1sk();
                    if (sk.compareTo(from) >= 0 && sk.compareTo(before) < 0) {
                        created.add(decode(item, RunState.class));
                    }
                }
                return created;
            }
        }

        @Override
        public List<RunState> listNonTerminal(String pipelineId, Instant createdFrom, Instant createdBefore) {
            return listCreated(pipelineId, createdFrom, createdBefore).stream()
                    .filter(run -> !run.status().isTerminal())
                    .toList();
        }
    }

    private final class RunLogs implements RunLogStore {
        @Override
        public Optional<RunLog> get(RunLogKey key) {
            return getDocument(runLogKey(key), RunLog.class);
        }

        @Override
        public Map<RunLogKey, RunLog> getAll(Collection<RunLogKey> keys) {
            Map<RunLogKey, RunLog> found = new LinkedHashMap<>();
            for (RunLogKey key : keys) {
                get(key).ifPresent(log -> found.put(key, log));
            }
            return found;
        }

        @Override
        public RunLog update(RunLogKey key, RunLogChange change) {
            synchronized (table) {
                Optional<RunLog> current = table.live(runLogKey(key), now()).map(i -> decode(i, RunLog.class));
                RunLog next = RunLogChange.applyPreserving(key, current, change);
                if (current.isPresent() && current.get().equals(next)) {
                    return next;
                }
                writeRunLog(next);
                return next;
            }
        }

        @Override
        public Page<RunLog> listByPipeline(String pipelineId, PageRequest page) {
            return listPartition(TableKeys.pipelinePk(pipelineId), TableKeys.RUNLOG_PREFIX, false, page, RunLog.class);
        }

        @Override
        public Page<RunLog> listByDate(LocalDate date, PageRequest page) {
            return listIndex(TableKeys.runLogsByDate(date), true, page, RunLog.class);
        }
    }

    private final class Events implements EventStore {
        @Override
        public void append(Event event) {
            synchronized (table) {
                writeEvent(event);
            }
        }

        @Override
        public Page<Event> read(String pipelineId, PageRequest page) {
            return listPartition(TableKeys.pipelinePk(pipelineId), TableKeys.EVENT_PREFIX, true, page, Event.class);
        }

        @Override
        public List<Event> latest(String pipelineId, int count) {
            if (count < 1) {
                throw new IllegalArgumentException("count must be positive: " + count);
            }
            List<Event> newestFirst = listPartition(
                            TableKeys.pipelinePk(pipelineId),
                            TableKeys.EVENT_PREFIX,
                            false,
                            PageRequest.first(count),
                            Event.class)
                    .items();
            return newestFirst.reversed();
        }
    }

    private final class Reruns implements RerunStore {
        @Override
        public Optional<Rerun> get(String rerunId) {
            return getDocument(TableKeys.rerun(rerunId), Rerun.class);
        }

        @Override
        public Page<Rerun> list(PageRequest page) {
            return listIndex(TableKeys.RERUN_TYPE, false, page, Rerun.class);
        }

        @Override
        public Page<Rerun> listByPipeline(String pipelineId, PageRequest page) {
            return listIndex(TableKeys.rerunsByPipeline(pipelineId), false, page, Rerun.class);
        }

        @Override
        public Optional<Rerun> forExecution(
                String pipelineId, LocalDate date, String scheduleId, String executionName) {
            return listAll(TableKeys.pipelinePk(pipelineId), TableKeys.rerunPrefix(date, scheduleId), true, Rerun.class)
                    .stream()
                    .filter(r -> executionName != null && executionName.equals(r.executionName()))
                    .findFirst();
        }

        @Override
        public int count(String pipelineId, LocalDate date, String scheduleId) {
            synchronized (table) {
                return (int)
                        table
                                .query(
                                        TableKeys.pipelinePk(pipelineId),
                                        TableKeys.rerunPrefix(date, scheduleId),
                                        true,
                                        now())
                                .stream()
                                .filter(item -> decode(item, Rerun.class).backfillId() == null)
                                .count();
            }
        }
    }

    private final class Cascade implements CascadeStore {
        @Override
        public boolean writeMarker(Marker marker) {
            synchronized (table) {
                // Like attribute_not_exists(PK): an expired marker DynamoDB has not deleted yet still blocks the
                // write, and must, since re-writing it would be a stream MODIFY that starts nothing.
                if (table.raw(markerKey(marker)).isPresent()) {
                    return false;
                }
                putMarker(marker);
                return true;
            }
        }

        @Override
        public List<Marker> markers(String pipelineId, LocalDate date) {
            return listAll(TableKeys.pipelinePk(pipelineId), TableKeys.MARKER_PREFIX, true, Marker.class).stream()
                    .filter(m -> date.equals(m.date()))
                    .toList();
        }

        @Override
        public List<String> downstreamOf(String upstreamPipelineId) {
            synchronized (table) {
                return table
                        .query(TableKeys.pipelinePk(upstreamPipelineId), TableKeys.DOWNSTREAM_PREFIX, true, now())
                        .stream()
                        .map(i -> i.key().sk().substring(TableKeys.DOWNSTREAM_PREFIX.length()))
                        .toList();
            }
        }
    }

    private final class LateArrivals implements LateArrivalStore {
        @Override
        public void put(LateArrival lateArrival) {
            synchronized (table) {
                table.put(item(
                        TableKeys.lateArrival(
                                lateArrival.pipelineId(),
                                lateArrival.date(),
                                lateArrival.scheduleId(),
                                lateArrival.detectedAt().toEpochMilli()),
                        null,
                        lateArrival,
                        1,
                        ttlAfter(retention.lateArrivals())));
            }
        }

        @Override
        public List<LateArrival> list(String pipelineId, LocalDate date, String scheduleId) {
            return listAll(
                    TableKeys.pipelinePk(pipelineId),
                    TableKeys.lateArrivalPrefix(date, scheduleId),
                    true,
                    LateArrival.class);
        }
    }

    private final class Alerts implements AlertLedger {
        @Override
        public boolean claim(AlertKey key, String claimant, Duration lease) {
            requireClaimant(claimant);
            synchronized (table) {
                ItemKey itemKey = alertKey(key);
                Instant now = now();
                Optional<MemoryTable.Item> current = table.live(itemKey, now);
                if (current.isPresent() && !claimable(current.get(), claimant, now)) {
                    return false;
                }
                table.put(new MemoryTable.Item(
                        itemKey,
                        null,
                        null,
                        1,
                        ttlAfter(retention.alertDedup()),
                        Map.of(
                                ALERT_STATE,
                                CLAIMED,
                                CLAIMANT,
                                claimant,
                                LEASE_UNTIL,
                                Long.toString(now.plus(lease).getEpochSecond()))));
                return true;
            }
        }

        /** An unsent claim: the claimant's own, or one whose lease is over. An item without a state was sent. */
        private static boolean claimable(MemoryTable.Item item, String claimant, Instant now) {
            if (!CLAIMED.equals(item.attribute(ALERT_STATE))) {
                return false;
            }
            return claimant.equals(item.attribute(CLAIMANT))
                    || Long.parseLong(item.attribute(LEASE_UNTIL)) <= now.getEpochSecond();
        }

        @Override
        public void markSent(AlertKey key, String claimant) {
            synchronized (table) {
                table.raw(alertKey(key))
                        .ifPresent(item -> table.put(new MemoryTable.Item(
                                item.key(),
                                null,
                                null,
                                1,
                                item.ttl(),
                                Map.of(ALERT_STATE, SENT, CLAIMANT, requireClaimant(claimant)))));
            }
        }

        @Override
        public void release(AlertKey key, String claimant) {
            synchronized (table) {
                ItemKey itemKey = alertKey(key);
                table.raw(itemKey)
                        .filter(item -> CLAIMED.equals(item.attribute(ALERT_STATE))
                                && requireClaimant(claimant).equals(item.attribute(CLAIMANT)))
                        .ifPresent(item -> table.delete(itemKey));
            }
        }

        private static ItemKey alertKey(AlertKey key) {
            return TableKeys.alertDedup(key.kind(), key.pipelineId(), key.date(), key.scheduleId());
        }

        private static String requireClaimant(String claimant) {
            if (claimant == null || claimant.isBlank()) {
                throw new IllegalArgumentException("alert claimant is required");
            }
            return claimant;
        }
    }

    private final class AlertEvents implements AlertHistory {
        @Override
        public void record(Alert alert) {
            Event event = AlertEvent.of(alert);
            String random =
                    HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
            synchronized (table) {
                table.put(item(
                        TableKeys.event(event.pipelineId(), event.timestamp().toEpochMilli(), random),
                        TableKeys.alertIndex(event.timestamp(), event.pipelineId(), random),
                        event,
                        1,
                        ttlAfter(retention.events())));
            }
        }

        @Override
        public Page<Alert> list(AlertQuery query, PageRequest page) {
            Instant oldest = now().minus(retention.events());
            Instant since = query.since() == null || query.since().isBefore(oldest) ? oldest : query.since();
            String from = TableKeys.alertSortKeyFrom(since);
            synchronized (table) {
                List<MemoryTable.Item> matching = new ArrayList<>();
                for (LocalDate day = LocalDate.ofInstant(now(), ZoneOffset.UTC);
                        !day.isBefore(LocalDate.ofInstant(since, ZoneOffset.UTC));
                        day = day.minusDays(1)) {
                    for (MemoryTable.Item item : table.queryIndex(TableKeys.alertsByDay(day), false, now())) {
                        Alert alert = AlertEvent.alertOf(decode(item, Event.class));
                        if (item.index().gsi1sk().compareTo(from) >= 0
                                && (query.pipelineId() == null
                                        || query.pipelineId().equals(alert.pipelineId()))
                                && (query.kind() == null || query.kind() == alert.kind())) {
                            matching.add(item);
                        }
                    }
                }
                return MemoryTable.page(
                        matching,
                        page,
                        false,
                        MemoryTable::indexPosition,
                        i -> AlertEvent.alertOf(decode(i, Event.class)));
            }
        }
    }

    private final class Watchdog implements WatchdogIndex {
        @Override
        public Optional<PipelineWatch> watch(String pipelineId) {
            return getDocument(TableKeys.watch(pipelineId), PipelineWatch.class);
        }

        @Override
        public Map<String, PipelineWatch> watches(Collection<String> pipelineIds) {
            Map<String, PipelineWatch> found = new LinkedHashMap<>();
            for (String pipelineId : pipelineIds) {
                watch(pipelineId).ifPresent(w -> found.put(pipelineId, w));
            }
            return found;
        }

        @Override
        public PipelineWatch adopt(PipelineConfig config) {
            synchronized (table) {
                Optional<PipelineWatch> existing = watch(config.name());
                if (existing.isPresent()) {
                    return existing.get();
                }
                PipelineWatch watch = WatchPlan.registered(config, null, now());
                writeWatch(null, watch);
                return watch;
            }
        }

        @Override
        public Page<DueEntry> due(LocalDate day, int shard, Instant until, PageRequest page) {
            String last = TableKeys.dueSortKeyPrefix(until) + Character.MAX_VALUE;
            synchronized (table) {
                List<MemoryTable.Item> due = table.query(TableKeys.duePartition(day, shard), "", true, now()).stream()
                        .filter(i -> i.key().sk().compareTo(last) <= 0)
                        .toList();
                return MemoryTable.page(due, page, true, MemoryTable::tablePosition, i -> decode(i, DueEntry.class));
            }
        }

        @Override
        public boolean advance(PipelineWatch current, PipelineWatch next) {
            synchronized (table) {
                Optional<MemoryTable.Item> stored = table.live(TableKeys.watch(current.pipelineId()), now());
                if (stored.isEmpty() || stored.get().version() != current.version()) {
                    return false;
                }
                writeWatch(current, next);
                return true;
            }
        }

        @Override
        public void expectRunSettled(String pipelineId, String runId, Instant at) {
            Objects.requireNonNull(runId, "runId");
            synchronized (table) {
                table.put(item(
                        TableKeys.dueEntry(at, pipelineId, runId),
                        null,
                        new DueEntry(at, pipelineId, runId),
                        1,
                        ttlAt(at.plus(retention.runs()))));
            }
        }

        @Override
        public void expectJobCallback(String pipelineId, String runId, String triggerType, String jobId, Instant at) {
            DueEntry entry = new DueEntry(at, pipelineId, Objects.requireNonNull(runId, "runId"), triggerType, jobId);
            synchronized (table) {
                table.put(item(entry.key(), null, entry, 1, ttlAt(at.plus(retention.runs()))));
            }
        }

        @Override
        public void expectHolderCheck(String pipelineId, HolderCheck holder, Instant at) {
            DueEntry entry = DueEntry.holderCheck(at, pipelineId, holder);
            synchronized (table) {
                table.put(item(entry.key(), null, entry, 1, ttlAt(at.plus(retention.runs()))));
            }
        }

        @Override
        public void remove(DueEntry entry) {
            synchronized (table) {
                table.delete(entry.key());
            }
        }

        @Override
        public Optional<LocalDate> lowWater() {
            synchronized (table) {
                return table.live(TableKeys.watchdogCheckpoint(), now())
                        .map(i -> LocalDate.parse(i.attribute(LOW_WATER)));
            }
        }

        @Override
        public void raiseLowWater(LocalDate day) {
            synchronized (table) {
                Optional<LocalDate> current = lowWater();
                if (current.isEmpty() || current.get().isBefore(day)) {
                    table.put(new MemoryTable.Item(
                            TableKeys.watchdogCheckpoint(), null, "{}", 1, null, Map.of(LOW_WATER, day.toString())));
                }
            }
        }
    }

    private final class Locks implements Locker {
        @Override
        public boolean acquire(LockKey key, String owner, Duration ttl) {
            return acquire(key, owner, ttl, null, null);
        }

        @Override
        public boolean acquire(LockKey key, String owner, Duration ttl, String executionArn, Instant checkAt) {
            requireOwner(owner);
            if (ttl == null || ttl.isNegative() || ttl.isZero()) {
                throw new IllegalArgumentException("lock ttl must be positive: " + ttl);
            }
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.live(itemKey, now());
                if (held.isPresent() && !owner.equals(held.get().attribute(OWNER))) {
                    return false;
                }
                Map<String, String> attributes = new HashMap<>();
                attributes.put(OWNER, owner);
                attributes.put(ACQUIRED_AT, InterlockJson.timestamp(now()));
                if (executionArn != null) {
                    attributes.put(EXECUTION_ARN, executionArn);
                }
                table.put(new MemoryTable.Item(
                        itemKey, null, null, 1, TimeToLive.epochSecondsOf(now().plus(ttl)), Map.copyOf(attributes)));
                if (executionArn != null && checkAt != null) {
                    watchdog.expectHolderCheck(
                            key.pipelineId(),
                            new HolderCheck(key.scheduleId(), key.date(), owner, executionArn),
                            checkAt);
                }
                return true;
            }
        }

        @Override
        public boolean release(LockKey key, String owner) {
            requireOwner(owner);
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.raw(itemKey);
                if (held.isEmpty() || !owner.equals(held.get().attribute(OWNER))) {
                    return false;
                }
                return table.delete(itemKey);
            }
        }

        @Override
        public Optional<LockHolder> releaseHeldBy(LockKey key, String owner) {
            requireOwner(owner);
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.raw(itemKey);
                if (held.isEmpty() || !owner.equals(held.get().attribute(OWNER))) {
                    return Optional.empty();
                }
                table.delete(itemKey);
                return held.map(Locks::holderOf);
            }
        }

        @Override
        public Optional<LockHolder> holder(LockKey key) {
            synchronized (table) {
                return table.live(TableKeys.lock(key), now()).map(Locks::holderOf);
            }
        }

        @Override
        public Map<LockKey, LockHolder> holders(Collection<LockKey> keys) {
            Map<LockKey, LockHolder> held = new LinkedHashMap<>();
            for (LockKey key : keys) {
                holder(key).ifPresent(h -> held.put(key, h));
            }
            return held;
        }

        @Override
        public boolean recordEvaluating(LockKey key, String owner, Instant nextRoundBy, Instant evaluatingUntil) {
            requireOwner(owner);
            return change(key, owner, attributes -> {
                attributes.remove(NEXT_ROUND_BY);
                attributes.remove(EVALUATING_UNTIL);
                if (nextRoundBy != null && evaluatingUntil != null) {
                    attributes.put(NEXT_ROUND_BY, InterlockJson.timestamp(nextRoundBy));
                    attributes.put(EVALUATING_UNTIL, InterlockJson.timestamp(evaluatingUntil));
                }
            });
        }

        @Override
        public boolean handOver(LockKey key, String from, String to, Duration ttl) {
            requireOwner(from);
            requireOwner(to);
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.live(itemKey, now());
                if (held.isPresent() && to.equals(held.get().attribute(OWNER))) {
                    return true;
                }
                if (held.isEmpty() || !from.equals(held.get().attribute(OWNER))) {
                    return false;
                }
                Map<String, String> attributes =
                        new java.util.HashMap<>(held.get().attributes());
                attributes.put(OWNER, to);
                attributes.put(ACQUIRED_AT, InterlockJson.timestamp(now()));
                table.put(new MemoryTable.Item(
                        itemKey, null, null, 1, TimeToLive.epochSecondsOf(now().plus(ttl)), Map.copyOf(attributes)));
                return true;
            }
        }

        @Override
        public boolean recordAbsorbed(LockKey key, String holder) {
            requireOwner(holder);
            return change(
                    key,
                    holder,
                    attributes -> attributes.merge(ABSORBED, "1", (a, b) -> Integer.toString(Integer.parseInt(a) + 1)));
        }

        @Override
        public Optional<LockHolder> forceRelease(LockKey key) {
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.raw(itemKey);
                held.ifPresent(item -> table.delete(itemKey));
                return held.filter(item -> item.isLive(now())).map(Locks::holderOf);
            }
        }

        /** Rewrites the attributes of {@code owner}'s live lock; false when it does not hold one. */
        private boolean change(LockKey key, String owner, java.util.function.Consumer<Map<String, String>> edit) {
            synchronized (table) {
                ItemKey itemKey = TableKeys.lock(key);
                Optional<MemoryTable.Item> held = table.live(itemKey, now());
                if (held.isEmpty() || !owner.equals(held.get().attribute(OWNER))) {
                    return false;
                }
                Map<String, String> attributes =
                        new java.util.HashMap<>(held.get().attributes());
                edit.accept(attributes);
                table.put(
                        new MemoryTable.Item(itemKey, null, null, 1, held.get().ttl(), Map.copyOf(attributes)));
                return true;
            }
        }

        private static LockHolder holderOf(MemoryTable.Item item) {
            return new LockHolder(
                    item.attribute(OWNER),
                    instant(item.attribute(ACQUIRED_AT)),
                    item.ttl() == null ? null : Instant.ofEpochSecond(item.ttl()),
                    instant(item.attribute(NEXT_ROUND_BY)),
                    instant(item.attribute(EVALUATING_UNTIL)),
                    item.attribute(ABSORBED) == null ? 0 : Integer.parseInt(item.attribute(ABSORBED)));
        }

        private static Instant instant(String text) {
            return text == null ? null : Instant.parse(text);
        }

        private static void requireOwner(String owner) {
            if (owner == null || owner.isBlank()) {
                throw new IllegalArgumentException("lock owner is required");
            }
        }
    }

    /** Atomic per job (as DynamoDB's UpdateItem with ALL_NEW); expiry is not modelled. */
    private static final class JobCallbacks implements JobCallbackStore {
        private final ConcurrentHashMap<ItemKey, JobCallback> items = new ConcurrentHashMap<>();

        @Override
        public JobCallback await(TriggerType type, String jobId, JobCallback.Waiter waiter, Instant expiresAt) {
            return items.compute(
                    TableKeys.jobCallback(type.wireName(), jobId),
                    (k, old) -> new JobCallback(type, jobId, waiter, old == null ? null : old.end()));
        }

        @Override
        public JobCallback find(TriggerType type, String jobId) {
            return items.get(TableKeys.jobCallback(type.wireName(), jobId));
        }

        @Override
        public JobCallback ended(TriggerType type, String jobId, JobCallback.JobEnd end, Instant expiresAt) {
            return items.compute(
                    TableKeys.jobCallback(type.wireName(), jobId),
                    (k, old) -> new JobCallback(
                            type,
                            jobId,
                            old == null ? null : old.waiter(),
                            old == null || old.end() == null ? end : old.end()));
        }
    }

    /** One mute per (scope, target); ended ones are kept (expiry is not modelled). */
    private static final class Mutes implements MuteStore {
        private final java.util.concurrent.ConcurrentSkipListMap<String, Mute> items =
                new java.util.concurrent.ConcurrentSkipListMap<>();

        private static String key(MuteScope scope, String target) {
            return scope.wireName() + "#" + target;
        }

        @Override
        public void put(Mute mute) {
            items.put(key(mute.scope(), mute.target()), mute);
        }

        @Override
        public Optional<Mute> get(MuteScope scope, String target) {
            return Optional.ofNullable(items.get(key(scope, target)));
        }

        @Override
        public Optional<Mute> delete(MuteScope scope, String target) {
            return Optional.ofNullable(items.remove(key(scope, target)));
        }

        @Override
        public List<Mute> list() {
            return List.copyOf(items.values());
        }
    }

    /** Backfills, changed under the table's lock like the reruns and markers a day's start writes with them. */
    private final class Backfills implements BackfillStore {
        private final Map<String, Backfill> items = new java.util.concurrent.ConcurrentHashMap<>();
        private final Set<String> active = java.util.concurrent.ConcurrentHashMap.newKeySet();

        boolean versionHolds(Backfill read) {
            Backfill stored = items.get(read.backfillId());
            return stored != null && stored.version() == read.version();
        }

        @Override
        public boolean create(Backfill backfill, Event requested) {
            synchronized (table) {
                if (items.putIfAbsent(backfill.backfillId(), backfill) != null) {
                    return false;
                }
                active.add(backfill.backfillId());
                writeEvent(requested);
                return true;
            }
        }

        @Override
        public Optional<Backfill> get(String backfillId) {
            return Optional.ofNullable(items.get(backfillId));
        }

        @Override
        public List<Backfill> list(String pipelineId) {
            return items.values().stream()
                    .filter(b -> pipelineId == null || pipelineId.equals(b.pipelineId()))
                    .sorted(java.util.Comparator.comparing(Backfill::requestedAt)
                            .thenComparing(Backfill::backfillId)
                            .reversed())
                    .toList();
        }

        @Override
        public List<Backfill> active() {
            return active.stream()
                    .map(items::get)
                    .filter(Objects::nonNull)
                    .sorted(java.util.Comparator.comparing(Backfill::requestedAt))
                    .toList();
        }

        @Override
        public boolean replace(Backfill read, Backfill next, List<Event> events) {
            synchronized (table) {
                if (!versionHolds(read)) {
                    return false;
                }
                items.put(next.backfillId(), next.atVersion(read.version() + 1));
                if (next.alerted()) {
                    active.remove(next.backfillId());
                }
                events.forEach(InMemoryProvider.this::writeEvent);
                return true;
            }
        }
    }

    private static final class Pauses implements PauseStore {
        private final java.util.concurrent.ConcurrentSkipListMap<String, dev.interlock.model.pause.Pause> items =
                new java.util.concurrent.ConcurrentSkipListMap<>();

        @Override
        public boolean put(dev.interlock.model.pause.Pause pause) {
            return items.putIfAbsent(pause.pipelineId(), pause) == null;
        }

        @Override
        public Optional<dev.interlock.model.pause.Pause> get(String pipelineId) {
            return Optional.ofNullable(items.get(pipelineId));
        }

        @Override
        public Optional<dev.interlock.model.pause.Pause> delete(String pipelineId) {
            return Optional.ofNullable(items.remove(pipelineId));
        }

        @Override
        public List<dev.interlock.model.pause.Pause> list() {
            return List.copyOf(items.values());
        }
    }

    /** Forces by (pipeline, date, schedule); an expired one reads as absent, as its TTL makes it in the table. */
    private final class Forces implements dev.interlock.store.ForceStore {
        private final Map<String, dev.interlock.model.force.ForceReady> items = new ConcurrentHashMap<>();

        private static String key(String pipelineId, java.time.LocalDate date, String scheduleId) {
            return pipelineId + "|" + date + "|" + scheduleId;
        }

        @Override
        public void put(dev.interlock.model.force.ForceReady force) {
            items.put(key(force.pipelineId(), force.date(), force.scheduleId()), force);
        }

        @Override
        public Optional<dev.interlock.model.force.ForceReady> get(
                String pipelineId, java.time.LocalDate date, String scheduleId) {
            return Optional.ofNullable(items.get(key(pipelineId, date, scheduleId)))
                    .filter(f -> f.activeAt(clock.instant()));
        }
    }
}
