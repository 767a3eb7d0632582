package dev.interlock.store.dynamodb;

import software.amazon.awssdk.core.interceptor.ExecutionAttribute;

/**
 * What each store operation is allowed to cost, named once and attached to every DynamoDB request it makes, so the
 * {@link RequestCounter} can report requests and consumed capacity per store operation and a review can compare the
 * two. Units: 1 RCU = one strongly consistent read of up to 4 KB (eventually consistent: half); 1 WCU = one write of
 * up to 1 KB; transactional reads and writes cost double. Every item here is well under 4 KB except pipeline configs
 * and events with large details.
 */
public enum CapacityIntent {
    PIPELINE_PUT(
            "pipelines.register",
            "2 consistent GetItems (old config, old watch) + 2 per named archetype/calendar (guard, document) + 1 TransactWriteItems: 2 WCU/KB for the config, the watch, the moved due entry, each index entry and each guard"),
    PIPELINE_GET("pipelines.get", "1 consistent GetItem: 1 RCU/4 KB"),
    PIPELINE_GET_ALL(
            "pipelines.getAll", "1 BatchGetItem per 100 ids (+ retries of UnprocessedKeys): 1 RCU/4 KB per found item"),
    PIPELINE_DELETE(
            "pipelines.delete",
            "2 consistent GetItems + 1 TransactWriteItems deleting the config, its index entries, its watch and due entry"),
    PIPELINE_LIST("pipelines.list", "GSI1 Query (eventually consistent): 0.5 RCU/4 KB of the page, 1 MB per request"),
    ARCHETYPE_PUT(
            "archetypes.register",
            "2 consistent GetItems (guard, old) + the users (DEPENDANTS_READ, PIPELINE_GET_ALL) + 1 TransactWriteItems (document, guard, sensor entries): 2 WCU/KB each"),
    ARCHETYPE_GET("archetypes.get", "1 consistent GetItem: 1 RCU"),
    ARCHETYPE_LIST("archetypes.list", "GSI1 Query: 0.5 RCU/4 KB"),
    CALENDAR_PUT(
            "calendars.register",
            "2 consistent GetItems (guard, old) + the users (DEPENDANTS_READ, PIPELINE_GET_ALL) + 1 TransactWriteItems (document or its deletion, guard): 4 WCU"),
    CALENDAR_GET("calendars.get", "1 consistent GetItem: 1 RCU"),
    CALENDAR_LIST("calendars.list", "GSI1 Query: 0.5 RCU/4 KB"),
    MUTE_PUT("mutes.put", "1 PutItem: 1 WCU"),
    MUTE_GET("mutes.get", "1 consistent GetItem: 1 RCU (an alert reads its pipeline's and its team's: 2 RCU)"),
    MUTE_DELETE("mutes.delete", "1 DeleteItem returning the old item: 1 WCU"),
    MUTE_LIST("mutes.list", "GSI1 Query: 0.5 RCU/4 KB"),
    PAUSE_PUT("pauses.put", "1 conditional PutItem (not paused already): 1 WCU"),
    PAUSE_GET("pauses.get", "1 consistent GetItem: 1 RCU (the stream router reads it once per pipeline and batch)"),
    PAUSE_DELETE("pauses.delete", "1 DeleteItem returning the old item: 1 WCU"),
    PAUSE_LIST("pauses.list", "GSI1 Query: 0.5 RCU/4 KB"),
    FORCE_PUT("forces.put", "1 PutItem: 1 WCU"),
    FORCE_GET("forces.get", "1 consistent GetItem: 1 RCU (an evaluation round that is not ready reads its day's)"),
    BACKFILL_WRITE(
            "backfills.write",
            "1 TransactWriteItems (the backfill over its version, its pointer, its events): 2 WCU/KB of the backfill"
                    + " (1 KB per ~5 days) + 2 WCU per other item"),
    BACKFILL_START(
            "startBackfillDay",
            "1 TransactWriteItems (the backfill over its version, rerun, pipeline copy, marker, event): 2 WCU/KB each"),
    BACKFILL_GET("backfills.get", "1 consistent GetItem: 1 RCU/4 KB (a 500-day backfill is ~100 KB)"),
    BACKFILL_LIST(
            "backfills.list",
            "GSI1 Query (every backfill, kept as long as reruns), or the active pointers' Query and a GetItem each"),
    TRAIT_PUT("traits.put", "1 PutItem: 1 WCU"),
    ROUND_RECORD(
            "recordRound",
            "1 BatchWriteItem per 25 items (+ retries of UnprocessedItems): 1 WCU/KB per trait result and per event"),
    TRAIT_GET("traits.get", "1 consistent GetItem: 1 RCU"),
    TRAIT_LIST("traits.list", "1 consistent Query on one (date, schedule) prefix: 1 RCU/4 KB"),
    TRAIT_DAY("traits.ofDay", "1 consistent Query on one date prefix, every schedule's: 1 RCU/4 KB"),
    SENSOR_PUT(
            "sensors.write",
            "1 consistent GetItem + 1 PutItem conditional on the revision read (again after losing a race): 1 RCU + 1 WCU"),
    SENSOR_GET("sensors.get", "1 consistent GetItem: 1 RCU"),
    RUN_CREATE("runs.create", "1 conditional PutItem: 1 WCU (a failed condition costs 1 WCU too)"),
    RUN_GET("runs.get", "1 consistent GetItem: 1 RCU"),
    RUN_CAS("runs.compareAndSwap", "1 conditional UpdateItem: 1 WCU/KB, win or lose"),
    RUN_LIST("runs.listByPipeline", "GSI1 Query newest first: 0.5 RCU/4 KB"),
    RUN_LIST_NON_TERMINAL(
            "runs.listNonTerminal", "GSI1 Query on a creation-time range, filtered by status: 0.5 RCU/4 KB read"),
    RUN_LIST_CREATED("runs.listCreated", "GSI1 Query on a creation-time range: 0.5 RCU/4 KB read"),
    RUN_LOG_GET("runLogs.get", "1 consistent GetItem: 1 RCU"),
    RUN_LOG_GET_ALL("runLogs.getAll", "1 consistent BatchGetItem per 100 keys: 1 RCU per found run log"),
    RUN_LOG_UPDATE("runLogs.update", "1 consistent GetItem + 1 conditional PutItem per attempt: 1 RCU + 1-2 WCU"),
    RUN_LOG_LIST("runLogs.list", "Query (consistent on the table, eventual on GSI1): 1 or 0.5 RCU/4 KB"),
    EVENT_APPEND("events.append", "1 PutItem if the key is new: 1 WCU/KB"),
    EVENT_READ("events.read", "1 consistent Query per 1 MB: 1 RCU/4 KB"),
    RERUN_ACCEPT(
            "acceptRerun",
            "1 TransactWriteItems (rerun + pipeline copy + budget counter + marker + event): 2 WCU/KB per item, also when refused; a budget refusal adds 1 consistent GetItem of the counter"),
    RERUN_GET("reruns.get", "1 consistent GetItem: 1 RCU"),
    RERUN_LIST("reruns.list", "GSI1 Query newest first (all reruns, or one pipeline's): 0.5 RCU/4 KB"),
    RERUN_MOVE(
            "moveRerun",
            "1 consistent GetItem + 1 TransactWriteItems (rerun + pipeline copy + event): 1 RCU + 2 WCU/KB per item, also when the rerun moved meanwhile"),
    RERUN_FOR_EXECUTION(
            "reruns.forExecution",
            "1 consistent Query on the pipeline's (date, schedule) copies: 1 RCU/4 KB read (a day holds at most its budget of reruns)"),
    RERUN_COUNT("reruns.count", "1 consistent COUNT Query on the pipeline's (date, schedule) copies: 1 RCU/4 KB read"),
    MARKER_WRITE("cascade.writeMarker", "1 PutItem attribute_not_exists: 1 WCU, also when the marker exists"),
    MARKER_LIST("cascade.markers", "1 consistent Query of the pipeline's markers filtered by date: 1 RCU/4 KB read"),
    DEPENDANTS_READ(
            "pipelines.dependants",
            "1 consistent Query of an index partition (users of an archetype, calendar or sensor; keys only): 1 RCU/4 KB"),
    DOWNSTREAM_READ("cascade.downstreamOf", "1 consistent Query of DOWNSTREAM# entries: 1 RCU/4 KB"),
    LATE_ARRIVAL_PUT("lateArrivals.put", "1 PutItem: 1 WCU"),
    LATE_ARRIVAL_LIST("lateArrivals.list", "1 consistent Query: 1 RCU/4 KB"),
    ALERT_CLAIM("alerts.claim", "1 conditional PutItem: 1 WCU (a failed condition costs 1 WCU too)"),
    ALERT_SENT("alerts.markSent", "1 conditional UpdateItem: 1 WCU"),
    ALERT_RELEASE("alerts.release", "1 conditional DeleteItem: 1 WCU"),
    ALERT_RECORD(
            "alertHistory.record", "1 PutItem if the key is new (the ALERT_SENT event with its GSI1 keys): 2 WCU/KB"),
    ALERT_LIST(
            "alertHistory.list",
            "1 GSI1 Query per UTC day the listing covers (eventually consistent): 0.5 RCU/4 KB read, filtered items included"),
    LOCK_ACQUIRE("locks.acquire", "1 conditional PutItem: 1 WCU"),
    LOCK_ACQUIRE_WATCHED(
            "locks.acquire (with holder check)",
            "1 TransactWriteItems (conditional lock Put + the watchdog's holder check Put): 2 WCU per item, win or lose"),
    LOCK_RELEASE("locks.release", "1 conditional DeleteItem: 1 WCU"),
    LOCK_HOLDER("locks.holder", "1 consistent GetItem: 1 RCU"),
    LOCK_HOLDERS("locks.holders", "1 consistent BatchGetItem per 100 keys: 1 RCU per found lock"),
    LOCK_PROGRESS(
            "locks.recordEvaluating/recordAbsorbed", "1 conditional UpdateItem: 1 WCU, once per evaluation round"),
    LOCK_HAND_OVER(
            "locks.handOver", "1 conditional UpdateItem: 1 WCU, once per execution a long validation window needs"),
    LOCK_FORCE_RELEASE("locks.forceRelease", "1 DeleteItem returning the old item: 1 WCU"),
    TRANSITION(
            "recordTransition",
            "1 consistent GetItem of the run log + 1 TransactWriteItems (run + run log + events): 2 WCU/KB per item"),
    RUN_START(
            "createRun",
            "1 TransactWriteItems (run if absent + its settle-by due entry + event): 2 WCU/KB per item, win or lose"),
    RUN_LOG_RECORD(
            "recordRunLog",
            "1 consistent GetItem of the run log + 1 TransactWriteItems (run log + events; a PutItem without events): 2 WCU/KB per item"),
    PIPELINE_AND_ARCHETYPE(
            "pipelineAndArchetype",
            "1 consistent BatchGetItem of the pipeline and its archetype: 1 RCU/4 KB per found item"),
    WATCH_GET("watchdog.watch", "1 consistent GetItem: 1 RCU"),
    WATCH_GET_ALL("watchdog.watches", "1 consistent BatchGetItem per 100 pipelines: 1 RCU per found watch"),
    WATCH_ADOPT(
            "watchdog.adopt",
            "1 consistent GetItem + 1 TransactWriteItems (watch if absent + due entry), once per pipeline registered before the index"),
    DUE_READ(
            "watchdog.due",
            "1 consistent Query of one due partition up to now: 1 RCU/4 KB read (an empty partition costs the minimum)"),
    WATCH_ADVANCE(
            "watchdog.advance",
            "1 TransactWriteItems: the watch (conditional on its version), its old due entry deleted and its new one put: 2 WCU/KB per item"),
    RUN_CHECK_PUT("watchdog.expectRunSettled", "1 PutItem: 1 WCU"),
    CALLBACK_CHECK_PUT("watchdog.expectJobCallback", "1 PutItem: 1 WCU"),
    HOLDER_CHECK_PUT("watchdog.expectHolderCheck", "1 PutItem: 1 WCU, once per watchdog tick while the holder runs"),
    DUE_REMOVE("watchdog.remove", "1 DeleteItem: 1 WCU"),
    CHECKPOINT_GET("watchdog.lowWater", "1 consistent GetItem: 1 RCU"),
    CHECKPOINT_RAISE("watchdog.raiseLowWater", "1 conditional UpdateItem: 1 WCU, also when a later day is recorded"),
    JOB_CALLBACK_AWAIT("jobCallbacks.await", "1 UpdateItem returning the item: 1 WCU/KB"),
    JOB_CALLBACK_END("jobCallbacks.ended", "1 UpdateItem returning the item: 1 WCU/KB"),
    JOB_CALLBACK_GET("jobCallbacks.find", "1 consistent GetItem: 1 RCU/4 KB"),
    PING("ping", "1 consistent GetItem of a key that never exists: 1 RCU");

    /** The execution attribute that carries the intent from the request to the {@link RequestCounter}. */
    public static final ExecutionAttribute<CapacityIntent> ATTRIBUTE =
            new ExecutionAttribute<>("InterlockCapacityIntent");

    private final String operation;
    private final String budget;

    CapacityIntent(String operation, String budget) {
        this.operation = operation;
        this.budget = budget;
    }

    /** The store operation, e.g. {@code runs.compareAndSwap}. */
    public String operation() {
        return operation;
    }

    /** The requests and capacity the operation is designed to consume. */
    public String budget() {
        return budget;
    }
}
