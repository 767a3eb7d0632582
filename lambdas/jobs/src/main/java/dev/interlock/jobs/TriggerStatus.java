package dev.interlock.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Where a job stands right after the trigger: still running (polled next), already completed, or failed to start. */
public enum TriggerStatus implements WireEnum {
    RUNNING("running"),
    COMPLETED("completed"),
    FAILED("failed");

    private final String wireName;

    TriggerStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static TriggerStatus fromJson(String raw) {
        return WireEnum.parse(TriggerStatus.class, raw, "trigger status");
    }
}
