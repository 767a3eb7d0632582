package dev.interlock.store;

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

    /**
     * Applies a run-state swap, a run-log change and events atomically (one TransactWriteItems on DynamoDB). A
     * concurrent run-log writer makes the store re-read and re-apply the change; a moved run version is a
     * {@link TransitionOutcome.RunVersionConflict}, not an exception.
     */
    TransitionOutcome recordTransition(RunTransition transition);

    /** Checks the store answers; throws {@link StoreException} when it does not (the API's health check). */
    void ping();
}
