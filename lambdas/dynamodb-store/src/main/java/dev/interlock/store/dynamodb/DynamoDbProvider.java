package dev.interlock.store.dynamodb;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.event.Event;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.store.AlertHistory;
import dev.interlock.store.AlertLedger;
import dev.interlock.store.ArchetypeStore;
import dev.interlock.store.BackfillStore;
import dev.interlock.store.Backoff;
import dev.interlock.store.CalendarStore;
import dev.interlock.store.CascadeStore;
import dev.interlock.store.EventStore;
import dev.interlock.store.JobCallbackStore;
import dev.interlock.store.LateArrivalStore;
import dev.interlock.store.LockFence;
import dev.interlock.store.Locker;
import dev.interlock.store.MuteStore;
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
import dev.interlock.store.TraitStore;
import dev.interlock.store.TransitionOutcome;
import dev.interlock.store.WatchdogIndex;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The Provider on the single DynamoDB table of docs/table-design.md: every document in {@code data}, keys from
 * {@code TableKeys}, run-state CAS by conditional UpdateItem, run transitions by TransactWriteItems, expired items
 * read as absent. Cheap to construct: it only holds the client, so Lambdas build it lazily on first use.
 */
public final class DynamoDbProvider implements Provider {

    /** The item of a run transition's run-state update: the first in the transaction. */
    private static final int RUN_ITEM = 0;

    private static final ItemKey PING_KEY = new ItemKey("PING", "PING");
    /** TransactWriteItems takes 100 items: the run, the run log and at most 98 events. */
    private static final int MAX_TRANSITION_EVENTS = 98;

    private final SingleTable table;
    private final DynamoDbPipelineStore pipelines;
    private final DynamoDbConfigStores.Archetypes archetypes;
    private final DynamoDbConfigStores.Calendars calendars;
    private final DynamoDbTraitAndSensorStores.Traits traits;
    private final DynamoDbTraitAndSensorStores.Sensors sensors;
    private final DynamoDbRunStore runs;
    private final DynamoDbRunLogStore runLogs;
    private final DynamoDbEventStore events;
    private final DynamoDbRerunStore reruns;
    private final DynamoDbCascadeStore cascade;
    private final DynamoDbLateArrivalStore lateArrivals;
    private final DynamoDbAlertLedger alerts;
    private final DynamoDbAlertHistory alertHistory;
    private final DynamoDbLocker locks;
    private final DynamoDbWatchdogIndex watchdog;
    private final DynamoDbJobCallbackStore jobCallbacks;
    private final DynamoDbMuteStore mutes;
    private final DynamoDbPauseStore pauses;
    private final DynamoDbForceStore forces;
    private final DynamoDbBackfillStore backfills;

    /** The production Provider: default retention and backoff. */
    public DynamoDbProvider(DynamoDbClient client, String tableName, Clock clock) {
        this(client, tableName, clock, Retention.DEFAULT, Backoff.standard());
    }

    /** A Provider with explicit retention and backoff (tests inject a backoff that never sleeps). */
    public DynamoDbProvider(
            DynamoDbClient client, String tableName, Clock clock, Retention retention, Backoff backoff) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(tableName, "tableName");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(backoff, "backoff");
        this.table = new SingleTable(client, tableName, clock, backoff);
        this.watchdog = new DynamoDbWatchdogIndex(table, retention);
        this.jobCallbacks = new DynamoDbJobCallbackStore(table);
        this.mutes = new DynamoDbMuteStore(table);
        this.pauses = new DynamoDbPauseStore(table);
        this.forces = new DynamoDbForceStore(table);
        this.pipelines = new DynamoDbPipelineStore(table, watchdog);
        this.archetypes = new DynamoDbConfigStores.Archetypes(table, pipelines);
        this.calendars = new DynamoDbConfigStores.Calendars(table, pipelines);
        this.traits = new DynamoDbTraitAndSensorStores.Traits(table);
        this.sensors = new DynamoDbTraitAndSensorStores.Sensors(table);
        this.runs = new DynamoDbRunStore(table, retention);
        this.runLogs = new DynamoDbRunLogStore(table, retention);
        // The random suffix of event keys is drawn per event, never at construction (SnapStart restores snapshots).
        this.events = new DynamoDbEventStore(
                table, retention, () -> ThreadLocalRandom.current().nextInt());
        this.reruns = new DynamoDbRerunStore(table, retention);
        this.backfills = new DynamoDbBackfillStore(table, events, retention);
        this.cascade = new DynamoDbCascadeStore(table, retention);
        this.lateArrivals = new DynamoDbLateArrivalStore(table, retention);
        this.alerts = new DynamoDbAlertLedger(table, retention);
        this.alertHistory = new DynamoDbAlertHistory(table, events, retention);
        this.locks = new DynamoDbLocker(table);
    }

    @Override
    public PipelineStore pipelines() {
        return pipelines;
    }

    @Override
    public ArchetypeStore archetypes() {
        return archetypes;
    }

    @Override
    public CalendarStore calendars() {
        return calendars;
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

    /**
     * One TransactWriteItems: [the backfill over its version, the rerun item if absent, its pipeline copy, the marker if
     * absent, the event if its key is new]. A moved version answers false; a taken event key is retried.
     */
    @Override
    public boolean startBackfillDay(Backfill read, Backfill next, Rerun rerun, Marker marker, Event event) {
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(rerun, "rerun");
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(event, "event");
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(backfills.put(read, next));
            int rerunItem = writes.size() + DynamoDbRerunStore.RERUN_ITEM;
            writes.addAll(reruns.backfillRerunWrites(rerun));
            int markerItem = writes.size();
            writes.add(table.putOf(cascade.item(marker), Conditions.absent()));
            writes.add(table.putOf(events.item(event), Conditions.absent()));
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.BACKFILL_START, "BACKFILL#" + next.backfillId());
            if (cancelled.isEmpty()) {
                return true;
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), 0)) {
                return false;
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), rerunItem)
                    || SingleTable.conditionFailedAt(cancelled.get(), markerItem)) {
                throw new IllegalStateException("rerun or marker " + rerun.rerunId() + " of backfill "
                        + next.backfillId() + " exists already although the backfill's version held");
            }
            table.retryAfterConflict(attempt, "backfill " + next.backfillId() + " (event key taken)");
        }
    }

    @Override
    public MuteStore mutes() {
        return mutes;
    }

    /**
     * One TransactWriteItems: [run update conditional on its version, run-log put conditional on the version read,
     * event puts]. A failed run condition is the domain outcome {@link TransitionOutcome.RunVersionConflict}; a failed
     * run-log or event condition means another writer got in between, so the run log is read again and the change
     * re-applied (bounded, with backoff).
     */
    @Override
    public TransitionOutcome recordTransition(RunTransition transition, LockFence fence) {
        if (transition.events().size() > MAX_TRANSITION_EVENTS) {
            throw new IllegalArgumentException("a run transition holds at most " + MAX_TRANSITION_EVENTS
                    + " events, got " + transition.events().size());
        }
        String runId = transition.next().runId();
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(runs.swapInTransaction(transition.expectedVersion(), transition.next()));
            RunLog log = null;
            if (transition.runLog() != null) {
                DynamoDbRunLogStore.PreparedWrite write = runLogs.prepare(
                        transition.runLog().key(), transition.runLog().change(), CapacityIntent.TRANSITION);
                log = write.entry();
                if (write.changes()) {
                    writes.add(table.putOf(write.item(), write.condition()));
                }
            }
            for (Event event : transition.events()) {
                writes.add(table.putOf(events.item(event), Conditions.absent()));
            }
            fence(writes, fence);
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.TRANSITION, "RUN#" + runId);
            if (cancelled.isEmpty()) {
                return new TransitionOutcome.Applied(transition.next(), log);
            }
            refuseIfFenced(cancelled.get(), writes, fence, "run transition of " + runId);
            if (SingleTable.conditionFailedAt(cancelled.get(), RUN_ITEM)) {
                return new TransitionOutcome.RunVersionConflict(runId, transition.expectedVersion());
            }
            table.retryAfterConflict(attempt, "run transition of " + runId);
        }
    }

    /**
     * One TransactWriteItems: [run if absent, its settle-by due entry, event, the fence's lock check]; a failed fence
     * throws, a failed run condition answers false.
     */
    @Override
    public boolean createRun(RunState run, Instant settleBy, Event event, LockFence fence) {
        Objects.requireNonNull(event, "event");
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = new ArrayList<>(List.of(
                    table.putOf(runs.newItem(run), Conditions.absent()),
                    table.putOf(watchdog.runSettledItem(run.pipelineId(), run.runId(), settleBy), null),
                    table.putOf(events.item(event), Conditions.absent())));
            fence(writes, fence);
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.RUN_START, "RUN#" + run.runId());
            if (cancelled.isEmpty()) {
                return true;
            }
            refuseIfFenced(cancelled.get(), writes, fence, "creating run " + run.runId());
            if (SingleTable.conditionFailedAt(cancelled.get(), RUN_ITEM)) {
                return false;
            }
            table.retryAfterConflict(attempt, "creating run " + run.runId() + " (event key taken)");
        }
    }

    /**
     * The run log read, the change applied, then one write conditional on the version read: a PutItem without events,
     * else one TransactWriteItems [run log, event puts, the fence's lock check]. A failed fence throws; another failed
     * condition re-reads and re-applies (bounded).
     */
    @Override
    public RunLog recordRunLog(RunLogKey key, RunLogChange change, List<Event> events, LockFence fence) {
        if (events.size() > MAX_TRANSITION_EVENTS) {
            throw new IllegalArgumentException(
                    "a run-log record holds at most " + MAX_TRANSITION_EVENTS + " events, got " + events.size());
        }
        if (events.isEmpty() && fence == null) {
            return runLogs.update(key, change);
        }
        for (int attempt = 1; ; attempt++) {
            DynamoDbRunLogStore.PreparedWrite write = runLogs.prepare(key, change, CapacityIntent.RUN_LOG_RECORD);
            if (!write.changes()) {
                return write.entry();
            }
            List<TransactWriteItem> writes = new ArrayList<>();
            writes.add(table.putOf(write.item(), write.condition()));
            for (Event event : events) {
                writes.add(table.putOf(this.events.item(event), Conditions.absent()));
            }
            fence(writes, fence);
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.RUN_LOG_RECORD, "RUNLOG " + key);
            if (cancelled.isEmpty()) {
                return write.entry();
            }
            refuseIfFenced(cancelled.get(), writes, fence, "recording run log " + key);
            table.retryAfterConflict(attempt, "recording run log " + key);
        }
    }

    /** Adds the fence's lock check as the last item of a transaction (null: not fenced). */
    private void fence(List<TransactWriteItem> writes, LockFence fence) {
        if (fence != null) {
            writes.add(locks.fenceCheck(fence));
        }
    }

    /** Throws when the fence, the last item of {@code writes}, is what cancelled the transaction. */
    private static void refuseIfFenced(
            List<CancellationReason> reasons, List<TransactWriteItem> writes, LockFence fence, String write) {
        if (fence != null && SingleTable.conditionFailedAt(reasons, writes.size() - 1)) {
            throw fence.lost(write);
        }
    }

    /** One consistent BatchGetItem of both items. */
    @Override
    public PipelineAndArchetype pipelineAndArchetype(String pipelineId, String archetypeName) {
        List<ItemKey> keys = new ArrayList<>();
        keys.add(TableKeys.pipeline(pipelineId));
        if (archetypeName != null && !archetypeName.isBlank()) {
            keys.add(TableKeys.archetype(archetypeName));
        }
        ItemKey pipelineKey = TableKeys.pipeline(pipelineId);
        Optional<PipelineConfig> pipeline = Optional.empty();
        Optional<Archetype> archetype = Optional.empty();
        for (Map<String, AttributeValue> item : table.batchGetLive(keys, CapacityIntent.PIPELINE_AND_ARCHETYPE)) {
            if (pipelineKey.pk().equals(ItemCodec.string(item, ItemCodec.PK))
                    && pipelineKey.sk().equals(ItemCodec.string(item, ItemCodec.SK))) {
                pipeline = Optional.of(ItemCodec.decode(item, PipelineConfig.class));
            } else {
                archetype = Optional.of(ItemCodec.decode(item, Archetype.class));
            }
        }
        return new PipelineAndArchetype(pipeline, archetype);
    }

    /**
     * One TransactWriteItems: [rerun item if absent, pipeline copy, budget counter {@code ADD n 1} if it is below
     * {@code maxPerDay}, marker if absent, event if its key is new]. A failed counter condition is
     * {@link RerunAcceptance.BudgetSpent} (the counter read again for the message), a failed marker condition
     * {@link RerunAcceptance.MarkerExists}; an event key collision is retried with a new random suffix.
     */
    @Override
    public RerunAcceptance acceptRerun(Rerun rerun, Marker marker, Event event, int maxPerDay) {
        Objects.requireNonNull(rerun, "rerun");
        Objects.requireNonNull(marker, "marker");
        Objects.requireNonNull(event, "event");
        for (int attempt = 1; ; attempt++) {
            List<TransactWriteItem> writes = reruns.newRerunWrites(rerun, maxPerDay);
            int markerItem = writes.size();
            writes.add(table.putOf(cascade.item(marker), Conditions.absent()));
            writes.add(table.putOf(events.item(event), Conditions.absent()));
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.RERUN_ACCEPT, "RERUN#" + rerun.rerunId());
            if (cancelled.isEmpty()) {
                return new RerunAcceptance.Accepted();
            }
            // Several conditions can fail at once; the order of the checks is the in-memory Provider's.
            if (SingleTable.conditionFailedAt(cancelled.get(), DynamoDbRerunStore.RERUN_ITEM)) {
                throw new IllegalStateException(
                        "rerun " + rerun.rerunId() + " exists already; acceptRerun takes new reruns");
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), DynamoDbRerunStore.BUDGET_ITEM)) {
                return new RerunAcceptance.BudgetSpent(reruns.budgetUsed(rerun));
            }
            if (SingleTable.conditionFailedAt(cancelled.get(), markerItem)) {
                return new RerunAcceptance.MarkerExists();
            }
            table.retryAfterConflict(attempt, "rerun " + rerun.rerunId() + " (event key taken)");
        }
    }

    /**
     * Reads the rerun, then one TransactWriteItems: [rerun item if absent (from null) or unchanged since read, pipeline
     * copy, event if its key is new]. A stored rerun in another status answers false without writing; a rerun changed
     * between read and write is read again; an event key collision is retried with a new random suffix.
     */
    @Override
    public boolean moveRerun(RerunStatus from, Rerun next, Event event) {
        Objects.requireNonNull(next, "next");
        Objects.requireNonNull(event, "event");
        if (from != null && !from.allowsRewriteAs(next.status())) {
            throw new IllegalArgumentException("a rerun cannot move from " + from + " to " + next.status());
        }
        for (int attempt = 1; ; attempt++) {
            Optional<Map<String, AttributeValue>> stored = reruns.raw(next.rerunId());
            Optional<Rerun> current = stored.map(item -> ItemCodec.decode(item, Rerun.class));
            if (from == null
                    ? current.isPresent()
                    : current.isEmpty() || current.get().status() != from) {
                return false;
            }
            if (current.isPresent()
                    && !(current.get().pipelineId().equals(next.pipelineId())
                            && current.get().date().equals(next.date())
                            && current.get().scheduleId().equals(next.scheduleId()))) {
                throw new IllegalArgumentException("rerun " + next.rerunId() + " belongs to "
                        + current.get().pipelineId() + "/"
                        + current.get().date() + "/" + current.get().scheduleId() + ", not " + next.pipelineId() + "/"
                        + next.date() + "/" + next.scheduleId());
            }
            List<TransactWriteItem> writes = reruns.moveWrites(next, stored);
            writes.add(table.putOf(events.item(event), Conditions.absent()));
            Optional<List<CancellationReason>> cancelled =
                    table.transact(writes, CapacityIntent.RERUN_MOVE, "RERUN#" + next.rerunId());
            if (cancelled.isEmpty()) {
                return true;
            }
            // The rerun changed since it was read (the next read tells how), or the event key was taken: try again.
            table.retryAfterConflict(attempt, "rerun " + next.rerunId() + " moving to " + next.status());
        }
    }

    @Override
    public void recordRound(List<TraitResult> results, List<Event> roundEvents) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        Set<ItemKey> keys = new HashSet<>();
        for (TraitResult result : results) {
            Map<String, AttributeValue> item = DynamoDbTraitAndSensorStores.Traits.item(result);
            if (keys.add(SingleTable.keyOf(item))) {
                items.add(item);
            }
        }
        for (Event event : roundEvents) {
            // A batch cannot put one key twice; events of one round share their millisecond, so draw again on a clash.
            Map<String, AttributeValue> item = events.item(event);
            while (!keys.add(SingleTable.keyOf(item))) {
                item = events.item(event);
            }
            items.add(item);
        }
        if (!items.isEmpty()) {
            table.batchPut(items, CapacityIntent.ROUND_RECORD);
        }
    }

    @Override
    public void ping() {
        table.getRaw(PING_KEY, CapacityIntent.PING);
    }
}
