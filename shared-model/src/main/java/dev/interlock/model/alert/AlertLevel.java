package dev.interlock.model.alert;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** Severity of an alert; written lower-case as in the Go original. */
public enum AlertLevel implements WireEnum {
    INFO("info"),
    WARNING("warning"),
    ERROR("error");

    private final String wireName;

    AlertLevel(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static AlertLevel fromJson(String raw) {
        return WireEnum.parse(AlertLevel.class, raw, "alert level");
    }
}
