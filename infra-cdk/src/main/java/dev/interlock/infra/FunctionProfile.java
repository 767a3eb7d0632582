package dev.interlock.infra;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * How one function is sized and what it may do to the table, with the reason next to each grant. Tables of grants
 * in one place make least privilege reviewable: a function that starts using a new DynamoDB action fails with
 * AccessDenied in AWS until the action is added here, on purpose.
 *
 * @param memoryMb memory; Java gets CPU in proportion, which matters most for the first (restored) request
 * @param timeoutSeconds hard limit of one invocation
 * @param tableActions DynamoDB actions on the table itself, as the DynamoDB Provider ({@code lambdas/dynamodb-store}) issues
 *         them: TransactWriteItems needs no action of its own (it is authorised per contained Put/Update/Delete),
 *         conditional writes need none beyond the write, and no function scans, batch-reads or batch-writes
 * @param indexActions DynamoDB actions on GSI1 only
 * @param publishesAlerts whether the function publishes to the alert topic itself
 * @param why one sentence per grant, kept in the code and shown in the function's description
 */
public record FunctionProfile(
        int memoryMb,
        int timeoutSeconds,
        List<String> tableActions,
        List<String> indexActions,
        boolean publishesAlerts,
        String why) {

    static final String GET_ITEM = "dynamodb:GetItem";
    static final String QUERY = "dynamodb:Query";
    static final String PUT_ITEM = "dynamodb:PutItem";
    static final String UPDATE_ITEM = "dynamodb:UpdateItem";
    static final String DELETE_ITEM = "dynamodb:DeleteItem";
    static final String BATCH_GET_ITEM = "dynamodb:BatchGetItem";
    static final String BATCH_WRITE_ITEM = "dynamodb:BatchWriteItem";
    /** A transaction's check of an item it does not write: the lock that fences a holder's writes. */
    static final String CONDITION_CHECK_ITEM = "dynamodb:ConditionCheckItem";

    /**
     * Variables of {@link EnvVar} the functions never get in AWS: the private-URL switch exists for the local runtime
     * (the functions run outside any VPC, so the SSRF guard must keep its safe default), the endpoint overrides point
     * at local emulators, and Lambda itself sets {@code AWS_REGION} (a reserved name).
     */
    static final Set<EnvVar> LOCAL_ONLY = EnumSet.of(
            EnvVar.INTERLOCK_ALLOW_PRIVATE_URLS,
            EnvVar.INTERLOCK_ENDPOINT_DYNAMODB,
            EnvVar.INTERLOCK_ENDPOINT_STEPFUNCTIONS,
            EnvVar.INTERLOCK_ENDPOINT_LAMBDA,
            EnvVar.INTERLOCK_ENDPOINT_SNS,
            EnvVar.INTERLOCK_ENDPOINT_GLUE,
            EnvVar.INTERLOCK_ENDPOINT_LOGS,
            EnvVar.INTERLOCK_ENDPOINT_EMR,
            EnvVar.INTERLOCK_ENDPOINT_EMR_SERVERLESS,
            EnvVar.INTERLOCK_ENDPOINT_SECRETSMANAGER,
            EnvVar.INTERLOCK_ENDPOINT_SSM,
            EnvVar.AWS_REGION);

    public FunctionProfile {
        tableActions = List.copyOf(tableActions);
        indexActions = List.copyOf(indexActions);
    }

    /** The environment variables the function gets in AWS: what it reads, less the local-only switches. */
    public static Set<EnvVar> environmentOf(InterlockFunction function) {
        Set<EnvVar> variables = EnumSet.noneOf(EnvVar.class);
        variables.addAll(EnvVar.usedBy(function));
        variables.removeAll(LOCAL_ONLY);
        return variables;
    }

    /** The profile of one function. */
    public static FunctionProfile of(InterlockFunction function) {
        return switch (function) {
            // Markers carry pipelineId/scheduleId/date/source/replay as top-level attributes (docs/table-design.md), so
            // the router
            // reads the stream (granted by the event-source mapping) and starts executions; it reads each marker's
            // pipeline's pause by key (once per pipeline and batch); only a marker without a date (an external
            // producer's) makes it read its pipeline's config by key, for the schedule's zone, and only a marker it
            // starts nothing for (unreadable, stale, paused) makes it append a MARKER_SKIPPED event (a put). Emitting
            // OpenLineage (docs/openlineage.md), it reads a run's pipeline config and its upstreams' run logs by key
            // and
            // appends a LINEAGE_NOT_SENT event (a put) for an event it could not send: the same two actions.
            case STREAM_ROUTER ->
                new FunctionProfile(
                        512,
                        60,
                        List.of(GET_ITEM, PUT_ITEM),
                        List.of(),
                        false,
                        "Stream router: marker INSERTs to state-machine executions; reads the pipeline's pause by key, and its config only for a marker without a date; records skipped markers as events.");
            // The dispatcher touches every workflow item: locks (conditional put, owner-checked delete, the holder's
            // progress and absorbed markers as conditional updates), run log (conditional put), run state transitions
            // (CAS update + puts in one transaction), downstream index and markers (query, conditional put; also the
            // successor markers of hand-overs), late-arrival records (puts), reruns (accepted with their marker and a
            // budget-counter update in one transaction; status moves as conditional puts; a day's reruns by query),
            // alert dedup claims (conditional put, update when sent, delete on a failed publish) and each sent alert's
            // ALERT_SENT event with its GSI1 keys (conditional put: the alert history); the watchdog queries
            // its due partitions, reads watches and configs by key, moves a watch and its due entry in one transaction
            // (conditional put, delete, put), deletes handled run checks, and lists pipelines via GSI1 once per table
            // (adopting those registered before the index); an evaluation round's trait results and events are one
            // batch of puts. Reads are single-key, except resolvePipeline's one batch get of the pipeline with its
            // archetype; a run is created with its due entry and event in one transaction. Run creation and run-log
            // writes are fenced by the execution's lock: a ConditionCheck of the lock item in the same transaction.
            case ORCHESTRATOR ->
                new FunctionProfile(
                        1024,
                        120,
                        List.of(
                                GET_ITEM,
                                BATCH_GET_ITEM,
                                QUERY,
                                PUT_ITEM,
                                UPDATE_ITEM,
                                DELETE_ITEM,
                                BATCH_WRITE_ITEM,
                                CONDITION_CHECK_ITEM),
                        List.of(QUERY),
                        true,
                        "Orchestrator: locks, run log, run state, markers, cascade, watchdog; read/write, no scan.");
            // Reads sensor values and upstream run logs by key. Nothing else: it answers its verdict and the
            // orchestrator records the round, so no write, listing, update or delete. It reports ERROR results
            // instead of alerting (the orchestrator's readiness check alerts), so it may not publish.
            case EVALUATOR ->
                new FunctionProfile(
                        1024,
                        120,
                        List.of(GET_ITEM),
                        List.of(),
                        false,
                        "Evaluator: reads sensors and run logs by key; writes nothing.");
            // Creates the run state (conditional put) and records each transition PENDING -> TRIGGERING ->
            // RUNNING|COMPLETED|FAILED as one TransactWriteItems (run-state CAS update + event put); claims alert
            // dedup items (put, update when sent) and gives a claim back (delete) when publishing fails; records each
            // sent alert as its ALERT_SENT event (conditional put). No listing.
            // The claim of the run (PENDING -> TRIGGERING) is fenced by the execution's lock: a ConditionCheck of the
            // lock item in the same transaction.
            case TRIGGER ->
                new FunctionProfile(
                        1024,
                        120,
                        List.of(GET_ITEM, PUT_ITEM, UPDATE_ITEM, DELETE_ITEM, CONDITION_CHECK_ITEM),
                        List.of(),
                        true,
                        "Trigger: creates runs, moves them by CAS with their events, claims alerts.");
            // Polls the job; reads the run state by key and records a terminal or changed state, and the overdue and
            // cancel marks of a job followed past its poll window, as transitions (run-state CAS update + event put,
            // in one transaction). No listing or delete.
            case RUN_CHECKER ->
                new FunctionProfile(
                        512,
                        60,
                        List.of(GET_ITEM, PUT_ITEM, UPDATE_ITEM),
                        List.of(),
                        false,
                        "Run checker: polls jobs, moves the run state by CAS with its event; no listing or delete.");
            // Registration: pipelines with their indexes (downstream; archetype, calendar and sensor users; the
            // watchdog's
            // watch and due entry) as
            // TransactWriteItems of conditional puts and deletes plus updates of the archetype/calendar guards (ADD
            // usage, SET revision); archetypes, calendars, sensors (conditional puts), evaluation and sensor markers
            // (conditional puts); a requested rerun is one transaction of puts (rerun, its pipeline copy, replay
            // marker,
            // event) and an update that adds one to the day's rerun budget counter only while it is below the budget
            // (acceptRerun); an operator's lock release (delete of the lock item, its audit event and a hand-on
            // marker); reads by key, the users of a changed archetype or calendar and the readers of a written sensor
            // in batches (BatchGetItem); lists via GSI1 (TYPE#…, RUNS#, RUNLOGS#, RERUNS#, ALERTS#<day> for GET
            // /alerts)
            // and per pipeline or index
            // partition on the table. It never updates a run state: those belong to the workflow. The 29 s timeout is
            // API Gateway's integration limit.
            case API ->
                new FunctionProfile(
                        1024,
                        29,
                        List.of(GET_ITEM, BATCH_GET_ITEM, QUERY, PUT_ITEM, UPDATE_ITEM, DELETE_ITEM),
                        List.of(QUERY),
                        false,
                        "API: registration with its indexes and guards, sensors, markers, reruns and their daily budget; listings via GSI1; no scan.");
        };
    }
}
