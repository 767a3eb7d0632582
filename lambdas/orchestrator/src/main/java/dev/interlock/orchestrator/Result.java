package dev.interlock.orchestrator;

import com.fasterxml.jackson.annotation.JsonValue;

/** The three answers an action gives the state machine's Choice states. */
public enum Result {
    PROCEED("proceed"),
    SKIP("skip"),
    ERROR("error");

    private final String wireName;

    Result(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    public String wireName() {
        return wireName;
    }
}
