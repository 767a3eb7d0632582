package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Starts a Step Functions execution whose input is the templated arguments, and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record StepFunctionTrigger(
        String stateMachineArn, @JsonAlias("input") Map<String, String> arguments) implements TriggerConfig {

    public StepFunctionTrigger {
        arguments = Frozen.map(arguments);
    }

    @Override
    public TriggerType type() {
        return TriggerType.STEP_FUNCTION;
    }
}
