package dev.interlock.model.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** What an event records; events are the per-pipeline audit trail. */
public enum EventKind implements WireEnum {
    TRAIT_EVALUATED("TRAIT_EVALUATED"),
    READINESS_CHECKED("READINESS_CHECKED"),
    RUN_STATE_CHANGED("RUN_STATE_CHANGED"),
    TRIGGER_FIRED("TRIGGER_FIRED"),
    TRIGGER_FAILED("TRIGGER_FAILED"),
    RETRY_SCHEDULED("RETRY_SCHEDULED"),
    RETRY_EXHAUSTED("RETRY_EXHAUSTED"),
    VALIDATION_EXHAUSTED("VALIDATION_EXHAUSTED"),
    SLA_BREACHED("SLA_BREACHED"),
    EXCLUDED("EXCLUDED"),
    CASCADE_NOTIFIED("CASCADE_NOTIFIED"),
    MARKER_WRITTEN("MARKER_WRITTEN"),
    RERUN_REQUESTED("RERUN_REQUESTED"),
    RERUN_STATUS_CHANGED("RERUN_STATUS_CHANGED"),
    MONITORING_STARTED("MONITORING_STARTED"),
    MONITORING_DRIFT_DETECTED("MONITORING_DRIFT_DETECTED"),
    MONITORING_COMPLETED("MONITORING_COMPLETED"),
    LATE_ARRIVAL_DETECTED("LATE_ARRIVAL_DETECTED"),
    DRY_RUN_WOULD_TRIGGER("DRY_RUN_WOULD_TRIGGER"),
    SENSOR_UPDATED("SENSOR_UPDATED");

    private final String wireName;

    EventKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static EventKind fromJson(String raw) {
        return WireEnum.parse(EventKind.class, raw, "event kind");
    }
}
