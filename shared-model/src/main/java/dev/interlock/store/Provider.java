package dev.interlock.store;

import dev.interlock.model.event.Event;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.rerun.Rerun;

/**
 * Everything Interlock stores, as narrow stores over one table (SPEC §4). Implemented by the DynamoDB Provider and
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

    /** Evaluation locks. */
    Locker locks();

    /** The watchdog's due-time index. */
    WatchdogIndex watchdog();

    /**
     * Applies a run-state swap, a run-log change and events atomically (one TransactWriteItems on DynamoDB). A
     * concurrent run-log writer makes the store re-read and re-apply the change; a moved run version is a
     * {@link TransitionOutcome.RunVersionConflict}, not an exception.
     */
    TransitionOutcome recordTransition(RunTransition transition);

    /**
     * Accepts a new rerun all or nothing (one TransactWriteItems on DynamoDB): the rerun (its item and the pipeline's
     * copy, as {@link RerunStore#put} writes a new rerun), its replay {@code marker} (only if no marker with its key
     * exists, as {@link CascadeStore#writeMarker}) and {@code event} — and only while fewer than {@code maxPerDay}
     * reruns have been counted for the rerun's (pipeline, date, schedule). The count is a budget counter item updated
     * in the same write, so concurrent requests cannot both take the last slot. Every new rerun counts against it,
     * whether accepted here or recorded by {@link RerunStore#put} (e.g. the orchestrator's late-arrival reruns, also
     * REJECTED ones), which is what {@link RerunStore#count} counts too.
     *
     * @param rerun a rerun whose id is new (an existing id is an {@link IllegalStateException}, nothing written)
     * @return {@link RerunAcceptance.Accepted}, or a refusal after which nothing was written
     */
    RerunAcceptance acceptRerun(Rerun rerun, Marker marker, Event event, int maxPerDay);

    /** Checks the store answers; throws {@link StoreException} when it does not (the API's health check). */
    void ping();
}
