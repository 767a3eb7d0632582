package dev.interlock.jobs;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** What a poll found: the job is still running, or finished one way or the other. */
public enum RunCheckState implements WireEnum {
    RUNNING("running"),
    SUCCEEDED("succeeded"),
    FAILED("failed");

    private final String wireName;

    RunCheckState(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    @JsonCreator
    public static RunCheckState fromJson(String raw) {
        return WireEnum.parse(RunCheckState.class, raw, "run check state");
    }
}
