package dev.interlock.model.backfill;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/**
 * Where a backfill is: RUNNING while it has days to start or finish; CANCELLING once cancelled while days still run
 * (they finish, no pending day starts); then COMPLETED or CANCELLED, which never change.
 */
public enum BackfillStatus implements WireEnum {
    RUNNING("RUNNING"),
    CANCELLING("CANCELLING"),
    COMPLETED("COMPLETED"),
    CANCELLED("CANCELLED");

    private final String wireName;

    BackfillStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Whether the backfill is over: no day of it runs or will start. */
    public boolean isEnded() {
        return this == COMPLETED || this == CANCELLED;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static BackfillStatus fromJson(String raw) {
        return WireEnum.parse(BackfillStatus.class, raw, "backfill status");
    }
}
