package dev.interlock.model.trigger;

import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.List;
import java.util.Map;

/** Starts an EMR Serverless job run with an execution role and a Spark job driver, and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record EmrServerlessTrigger(
        String applicationId,
        String jobName,
        String executionRoleArn,
        String entryPoint,
        List<String> entryPointArguments,
        String sparkSubmitParameters,
        Map<String, String> arguments)
        implements TriggerConfig {

    public EmrServerlessTrigger {
        entryPointArguments = Frozen.list(entryPointArguments);
        arguments = Frozen.map(arguments);
    }

    @Override
    public TriggerType type() {
        return TriggerType.EMR_SERVERLESS;
    }
}
