package dev.interlock.model.trigger;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Starts an AWS Glue job run with templated job arguments and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record GlueTrigger(String jobName, Map<String, String> arguments) implements TriggerConfig {

    public GlueTrigger {
        arguments = Frozen.map(arguments);
    }

    @Override
    public TriggerType type() {
        return TriggerType.GLUE;
    }
}
