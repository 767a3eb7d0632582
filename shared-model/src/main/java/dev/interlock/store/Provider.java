package dev.interlock.store;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.event.Event;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trait.TraitResult;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Everything Interlock stores, as narrow stores over one table (docs/table-design.md). Implemented by the DynamoDB Provider and
 * the in-memory Provider, which behave the same (one contract suite runs against both).
 */
public interface Provider {

    /** Pipeline configs and the downstream index they imply. */
    PipelineStore pipelines();

    /** Archetypes. */
    ArchetypeStore archetypes();

    /** Exclusion calendars. */
    CalendarStore calendars();

    /** Trait results. */
    TraitStore traits();

    /** Sensor values. */
    SensorStore sensors();

    /** Run states. */
    RunStore runs();

    /** Run logs. */
    RunLogStore runLogs();

    /** Events. */
    EventStore events();

    /** Reruns. */
    RerunStore reruns();

    /** Markers and the downstream index. */
    CascadeStore cascade();

    /** Late arrivals. */
    LateArrivalStore lateArrivals();

    /** Alert deduplication. */
    AlertLedger alerts();

    /** The alerts sent: events of their pipeline days, listed across pipelines. */
    AlertHistory alertHistory();

    /** Evaluation locks. */
    Locker locks();

    /** The watchdog's due-time index. */
    WatchdogIndex watchdog();

    /** Job id → (run, task token) of runs waiting for their job by callback. */
    JobCallbackStore jobCallbacks();

    /** Mutes of pipelines' and teams' alerts. */
    MuteStore mutes();

    /** Paused pipelines. */
    PauseStore pauses();

    /** Days forced ready. */
    ForceStore forces();
    /** Backfills. */
    BackfillStore backfills();

    /**
     * Starts one day of a backfill, all or nothing (one TransactWriteItems on DynamoDB): writes {@code next} (made from
     * {@code read}, as the version after it) only while the stored version is {@code read}'s, the day's {@code rerun} (item and pipeline copy; a backfill's reruns
     * do not touch the rerun budget), its replay {@code marker} (which must be new) and {@code event}. False, having
     * written nothing, when the backfill's version moved: the caller reads it again.
     *
     * @throws IllegalStateException when the rerun or marker exists already although the version held
     */
    boolean startBackfillDay(Backfill read, Backfill next, Rerun rerun, Marker marker, Event event);

    /**
     * Applies a run-state swap, a run-log change and events atomically (one TransactWriteItems on DynamoDB). A
     * concurrent run-log writer makes the store re-read and re-apply the change; a moved run version is a
     * {@link TransitionOutcome.RunVersionConflict}, not an exception.
     */
    default TransitionOutcome recordTransition(RunTransition transition) {
        return recordTransition(transition, null);
    }

    /**
     * {@link #recordTransition(RunTransition)} fenced by {@code fence} (null: not fenced): applied only while the fence's
     * owner holds the lock, checked in the same write.
     *
     * @throws LockLostException having written nothing, when the owner no longer holds the lock
     */
    TransitionOutcome recordTransition(RunTransition transition, LockFence fence);

    /**
     * Creates {@code run} together with the watchdog's check that it settles by {@code settleBy} and {@code event},
     * all or nothing (one TransactWriteItems on DynamoDB): no run ever exists without that check, and the event is
     * written once however often the creation is repeated.
     *
     * @return false, having written nothing, when a run with its id exists already (a repeated creation)
     */
    default boolean createRun(RunState run, Instant settleBy, Event event) {
        return createRun(run, settleBy, event, null);
    }

    /**
     * {@link #createRun(RunState, Instant, Event)} fenced by {@code fence} (null: not fenced).
     *
     * @throws LockLostException having written nothing, when the owner no longer holds the lock
     */
    boolean createRun(RunState run, Instant settleBy, Event event, LockFence fence);

    /**
     * Applies a run-log change and its events all or nothing, without touching a run state (one GetItem and one
     * write on DynamoDB). When the change leaves the run log as it is (a repeated call), nothing is written, the events
     * neither. A concurrent run-log writer makes the store re-read and re-apply the change.
     *
     * @return the run log as stored afterwards
     */
    default RunLog recordRunLog(RunLogKey key, RunLogChange change, List<Event> events) {
        return recordRunLog(key, change, events, null);
    }

    /**
     * {@link #recordRunLog(RunLogKey, RunLogChange, List)} fenced by {@code fence} (null: not fenced); a change that
     * leaves the run log as it is writes nothing and checks nothing.
     *
     * @throws LockLostException having written nothing, when the owner no longer holds the lock
     */
    RunLog recordRunLog(RunLogKey key, RunLogChange change, List<Event> events, LockFence fence);

    /**
     * The pipeline and, in the same read (one BatchGetItem on DynamoDB), the stored archetype it is expected to name.
     * The archetype is empty when none of that name is stored (a bundled one) or the name is null.
     */
    PipelineAndArchetype pipelineAndArchetype(String pipelineId, String archetypeName);

    /** What {@link #pipelineAndArchetype} found. */
    record PipelineAndArchetype(Optional<PipelineConfig> pipeline, Optional<Archetype> archetype) {}

    /**
     * Accepts a new rerun all or nothing (one TransactWriteItems on DynamoDB): the rerun (its item and the pipeline's
     * copy), its replay {@code marker} (only if no marker with its key exists, as {@link CascadeStore#writeMarker}) and
     * {@code event} — and only while fewer than {@code maxPerDay} reruns have been accepted for the rerun's (pipeline,
     * date, schedule). The count is a budget counter item updated in the same write, so concurrent requests (the API's
     * and the orchestrator's late-arrival reruns alike) cannot both take the last slot.
     *
     * @param rerun a rerun whose id is new (an existing id is an {@link IllegalStateException}, nothing written)
     * @return {@link RerunAcceptance.Accepted}, or a refusal after which nothing was written
     */
    RerunAcceptance acceptRerun(Rerun rerun, Marker marker, Event event, int maxPerDay);

    /**
     * Moves a rerun, all or nothing (one TransactWriteItems on DynamoDB): writes {@code next} (item and pipeline copy)
     * and {@code event}, only if the stored rerun is still in status {@code from}; with {@code from} null, only if no
     * rerun with that id exists (a rerun refused before it could be accepted, recorded as such; it does not count
     * against the budget). Answers false, having written nothing, when the stored rerun is elsewhere: an earlier
     * delivery of the same request, or another writer, moved it first. So repeating a move is harmless.
     *
     * A live rerun may also be rewritten in its own status ({@link RerunStatus#allowsRewriteAs}): its execution handed
     * the work to a successor ({@link Rerun#handedOverTo}).
     *
     * @throws IllegalArgumentException when {@code from} may not move to {@code next.status()}, or {@code next} names
     *                                  another (pipeline, date, schedule) than the stored rerun
     */
    boolean moveRerun(RerunStatus from, Rerun next, Event event);

    /**
     * Records one evaluation round: every trait result (replacing the trait's previous one) and the round's events,
     * in as few requests as the store allows (one BatchWriteItem of up to 25 items on DynamoDB). Unconditional puts:
     * repeating a round rewrites the same results and adds its events again. Not atomic across items; a failure
     * throws {@link StoreException}, and the caller's retry writes the round again.
     */
    void recordRound(List<TraitResult> results, List<Event> events);

    /** Checks the store answers; throws {@link StoreException} when it does not (the API's health check). */
    void ping();
}
