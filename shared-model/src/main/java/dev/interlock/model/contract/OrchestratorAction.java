package dev.interlock.model.contract;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every action the orchestrator answers (statemachine/CONTRACT.md §4), named once for everyone who calls it: the
 * state machine's Tasks, the job-state rules and the watchdog schedule (the CDK stack on AWS, the local runtime on one
 * machine). The contract tests check that the ASL calls exactly the {@link Caller#STATE_MACHINE} actions.
 */
public enum OrchestratorAction {
    CHECK_EXCLUSION("checkExclusion", Caller.STATE_MACHINE),
    ACQUIRE_LOCK("acquireLock", Caller.STATE_MACHINE),
    CHECK_RUN_LOG("checkRunLog", Caller.STATE_MACHINE),
    RESOLVE_PIPELINE("resolvePipeline", Caller.STATE_MACHINE),
    CHECK_VALIDATION_DEADLINE("checkValidationDeadline", Caller.STATE_MACHINE),
    CHECK_READINESS("checkReadiness", Caller.STATE_MACHINE),
    LOG_RESULT("logResult", Caller.STATE_MACHINE),
    CHECK_COMPLETION_SLA("checkCompletionSLA", Caller.STATE_MACHINE),
    NOTIFY_DOWNSTREAM("notifyDownstream", Caller.STATE_MACHINE),
    CHECK_DRIFT("checkDrift", Caller.STATE_MACHINE),
    HANDLE_LATE_ARRIVAL("handleLateArrival", Caller.STATE_MACHINE),
    CHECK_MONITORING_EXPIRED("checkMonitoringExpired", Caller.STATE_MACHINE),
    RELEASE_LOCK("releaseLock", Caller.STATE_MACHINE),
    PLAN_RETRY("planRetry", Caller.STATE_MACHINE),
    ALERT_EXECUTION_ERROR("alertExecutionError", Caller.STATE_MACHINE),
    AWAIT_JOB_COMPLETION("awaitJobCompletion", Caller.STATE_MACHINE),
    JOB_STATE_CHANGE("jobStateChange", Caller.JOB_STATE_RULE),
    EXECUTION_ENDED("executionEnded", Caller.EXECUTION_END_RULE),
    WATCHDOG("watchdog", Caller.WATCHDOG_SCHEDULE);

    /** Who invokes an action. */
    public enum Caller {
        /** A Task of the state machine. */
        STATE_MACHINE,
        /** The EventBridge rules that report a job's end ({@link dev.interlock.model.trigger.JobStateRule}). */
        JOB_STATE_RULE,
        /**
         * The EventBridge rule on Interlock's own state machine's executions that end without releasing their lock
         * ({@link dev.interlock.model.runtime.ExecutionEndRule}).
         */
        EXECUTION_END_RULE,
        /** The EventBridge schedule of the watchdog tick. */
        WATCHDOG_SCHEDULE
    }

    private final String wireName;
    private final Caller caller;

    OrchestratorAction(String wireName, Caller caller) {
        this.wireName = wireName;
        this.caller = caller;
    }

    /** The name in the request's {@code action} field. */
    @JsonValue
    public String wireName() {
        return wireName;
    }

    /** Who invokes the action. */
    public Caller caller() {
        return caller;
    }

    /** The actions {@code caller} invokes, in declaration order. */
    public static List<OrchestratorAction> calledBy(Caller caller) {
        return Arrays.stream(values()).filter(a -> a.caller == caller).toList();
    }

    /** The action called {@code raw} (case-insensitive, like every key Interlock reads). */
    public static Optional<OrchestratorAction> find(String raw) {
        if (raw == null) {
            return Optional.empty();
        }
        for (OrchestratorAction action : values()) {
            if (action.wireName.equalsIgnoreCase(raw.trim())) {
                return Optional.of(action);
            }
        }
        return Optional.empty();
    }

    /**
     * Whether the action concerns one (pipeline, schedule) and so needs them in the request. The watchdog concerns
     * every pipeline; an execution error must be alerted even when the failed execution names no pipeline; a job's
     * state change names only the job (its run is found by the job's id); an ended execution is named by its event (its
     * pipeline, schedule and date are read from the execution's input).
     */
    public boolean needsPipeline() {
        return this != WATCHDOG && this != ALERT_EXECUTION_ERROR && this != JOB_STATE_CHANGE && this != EXECUTION_ENDED;
    }

    /**
     * The request of an action that an EventBridge rule sends for a matched event: {@code {"action": <name>,
     * "payload": {source, detailType, time, detail}}} (the stack's input transformer builds the same shape from the
     * event's fields).
     */
    public Map<String, Object> eventInvocation(Object source, Object detailType, Object time, Object detail) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("source", source);
        payload.put("detailType", detailType);
        payload.put("time", time);
        payload.put("detail", detail);
        return invocation(payload);
    }

    /**
     * The request of an action that needs no pipeline, as an EventBridge target sends it:
     * {@code {"action": <name>, "payload": payload}} ({@code payload} left out when null).
     */
    public Map<String, Object> invocation(Object payload) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("action", wireName);
        if (payload != null) {
            request.put("payload", payload);
        }
        return request;
    }
}
