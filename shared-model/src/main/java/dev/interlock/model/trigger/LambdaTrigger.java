package dev.interlock.model.trigger;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/** Invokes a Lambda function synchronously with a JSON payload; a normal return completes the run. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record LambdaTrigger(String functionName, JsonNode payload) implements TriggerConfig {

    @Override
    public TriggerType type() {
        return TriggerType.LAMBDA;
    }
}
