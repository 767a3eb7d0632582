package dev.interlock.orchestrator;

/** One orchestrator action: decides an {@link Outcome} for a request; throws only for infrastructure faults. */
public sealed interface Action
        permits CheckExclusion,
                AcquireLock,
                CheckRunLog,
                ResolvePipeline,
                CheckEvaluationSla,
                CheckValidationDeadline,
                CheckReadiness,
                LogResult,
                CheckCompletionSla,
                NotifyDownstream,
                CheckDrift,
                HandleLateArrival,
                CheckMonitoringExpired,
                ReleaseLock,
                PlanRetry,
                AlertExecutionError,
                Watchdog,
                AwaitJobCompletion,
                JobStateChange,
                ExecutionEnded {

    /** Decides the outcome of {@code request}. */
    Outcome run(ActionRequest request);

    /**
     * The payload of an {@code error} this action did not produce itself (a bad request caught by the dispatcher):
     * every always-present field with the value that is safe for the machine (e.g. a loop ends).
     */
    Object errorPayload();
}
