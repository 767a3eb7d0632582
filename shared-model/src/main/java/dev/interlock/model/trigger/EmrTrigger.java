package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Adds a JAR step to a running EMR cluster (arguments become {@code k=v} step args) and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record EmrTrigger(
        String clusterId,
        @JsonAlias("jobName") String stepName,
        @JsonAlias("command") String jar,
        Map<String, String> arguments)
        implements TriggerConfig {

    public EmrTrigger {
        arguments = Frozen.map(arguments);
    }

    @Override
    public TriggerType type() {
        return TriggerType.EMR;
    }
}
