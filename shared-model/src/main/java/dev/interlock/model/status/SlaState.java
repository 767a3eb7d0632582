package dev.interlock.model.status;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** How a day stands against its SLA deadline ({@link SlaFlag}). */
public enum SlaState implements WireEnum {
    /** Done before the deadline, or not done and the deadline more than {@link SlaFlag#AT_RISK_WITHIN} away. */
    ON_TRACK,
    /** Not done, and the deadline is at most {@link SlaFlag#AT_RISK_WITHIN} away. */
    AT_RISK,
    /** The deadline passed before the day was done (it may have been done late since). */
    MISSED;

    @JsonValue
    @Override
    public String wireName() {
        return name();
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static SlaState fromJson(String raw) {
        return WireEnum.parse(SlaState.class, raw, "SLA state");
    }
}
