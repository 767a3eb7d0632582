package dev.interlock.model.rerun;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Lifecycle of a rerun request. */
public enum RerunStatus implements WireEnum {
    PENDING("PENDING"),
    STARTED("STARTED"),
    COMPLETED("COMPLETED"),
    FAILED("FAILED"),
    REJECTED("REJECTED");

    private final String wireName;

    RerunStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static RerunStatus fromJson(String raw) {
        return WireEnum.parse(RerunStatus.class, raw, "rerun status");
    }
}
