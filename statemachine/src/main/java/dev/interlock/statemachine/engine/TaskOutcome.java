package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;

/** How a Task's call (or its callback wait) ended, before the state's Retry and Catch rules see it. */
sealed interface TaskOutcome {
    record Succeeded(JsonNode output) implements TaskOutcome {}

    record Failed(String error, String cause) implements TaskOutcome {}

    record TimedOut(String error, String cause) implements TaskOutcome {}
}
