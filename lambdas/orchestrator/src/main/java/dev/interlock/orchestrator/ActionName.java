package dev.interlock.orchestrator;

import java.util.Optional;

/** Every action the orchestrator answers: the state machine's (statemachine/CONTRACT.md §4) and the watchdog's. */
public enum ActionName {
    CHECK_EXCLUSION("checkExclusion"),
    ACQUIRE_LOCK("acquireLock"),
    CHECK_RUN_LOG("checkRunLog"),
    RESOLVE_PIPELINE("resolvePipeline"),
    CHECK_EVALUATION_SLA("checkEvaluationSLA"),
    CHECK_VALIDATION_DEADLINE("checkValidationDeadline"),
    CHECK_READINESS("checkReadiness"),
    LOG_RESULT("logResult"),
    CHECK_COMPLETION_SLA("checkCompletionSLA"),
    NOTIFY_DOWNSTREAM("notifyDownstream"),
    CHECK_DRIFT("checkDrift"),
    HANDLE_LATE_ARRIVAL("handleLateArrival"),
    CHECK_MONITORING_EXPIRED("checkMonitoringExpired"),
    RELEASE_LOCK("releaseLock"),
    PLAN_RETRY("planRetry"),
    ALERT_EXECUTION_ERROR("alertExecutionError"),
    AWAIT_JOB_COMPLETION("awaitJobCompletion"),
    JOB_STATE_CHANGE("jobStateChange"),
    WATCHDOG("watchdog");

    private final String wireName;

    ActionName(String wireName) {
        this.wireName = wireName;
    }

    /** The name in the request's {@code action} field. */
    public String wireName() {
        return wireName;
    }

    /** The action called {@code raw} (case-insensitive, like every key Interlock reads). */
    public static Optional<ActionName> find(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        for (ActionName name : values()) {
            if (name.wireName.equalsIgnoreCase(raw.trim())) {
                return Optional.of(name);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the action concerns one (pipeline, schedule) and so needs them in the request. The watchdog concerns
     * every pipeline; an execution error must be alerted even when the failed execution names no pipeline; a job's
     * state change names only the job (its run is found by the job's id).
     */
    public boolean needsPipeline() {
        return this != WATCHDOG && this != ALERT_EXECUTION_ERROR && this != JOB_STATE_CHANGE;
    }
}
