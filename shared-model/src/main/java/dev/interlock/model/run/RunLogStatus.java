package dev.interlock.model.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Status of the run log of one (pipeline, date, schedule); PENDING means evaluated but not ready yet. */
public enum RunLogStatus implements WireEnum {
    PENDING("PENDING"),
    RUNNING("RUNNING"),
    COMPLETED("COMPLETED"),
    FAILED("FAILED"),
    CANCELLED("CANCELLED");

    private final String wireName;

    RunLogStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static RunLogStatus fromJson(String raw) {
        return WireEnum.parse(RunLogStatus.class, raw, "run log status");
    }
}
