package dev.interlock.model.alert;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Machine-readable alert category (docs/operations.md); dedup is per kind and (pipeline, date, schedule). */
public enum AlertKind implements WireEnum {
    SLA_EVALUATION_BREACHED("SLA_EVALUATION_BREACHED"),
    SLA_COMPLETION_BREACHED("SLA_COMPLETION_BREACHED"),
    SLA_MISSED("SLA_MISSED"),
    VALIDATION_EXHAUSTED("VALIDATION_EXHAUSTED"),
    TRIGGER_FAILED("TRIGGER_FAILED"),
    RUN_FAILED("RUN_FAILED"),
    RETRY_EXHAUSTED("RETRY_EXHAUSTED"),
    TRAIT_ERROR("TRAIT_ERROR"),
    DRIFT_DETECTED("DRIFT_DETECTED"),
    RERUN_FAILED("RERUN_FAILED"),
    STUCK_RUN("STUCK_RUN"),
    EXECUTION_ERROR("EXECUTION_ERROR"),
    JOB_CHECK_FAILED("JOB_CHECK_FAILED"),
    GATE_ERROR("GATE_ERROR"),
    JOB_SUCCEEDED_LATE("JOB_SUCCEEDED_LATE"),
    PROCEEDED_DEGRADED("PROCEEDED_DEGRADED"),
    FORCED_READY("FORCED_READY"),
    UPSTREAM_RERUN("UPSTREAM_RERUN"),
    BACKFILL_FINISHED("BACKFILL_FINISHED");

    private final String wireName;

    AlertKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static AlertKind fromJson(String raw) {
        return WireEnum.parse(AlertKind.class, raw, "alert kind");
    }
}
