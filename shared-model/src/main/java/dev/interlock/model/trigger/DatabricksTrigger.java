package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Runs a Databricks job (by id, or a one-time run by name) with notebook parameters, and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record DatabricksTrigger(
        String workspaceUrl,
        String jobName,
        Long jobId,
        @JsonAlias("arguments") Map<String, String> notebookParams,
        Map<String, String> headers,
        @JsonAlias("timeout") int timeoutSeconds)
        implements TriggerConfig {

    public DatabricksTrigger {
        notebookParams = Frozen.map(notebookParams);
        headers = Frozen.map(headers);
        timeoutSeconds = timeoutSeconds == 0 ? HttpTrigger.DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    @Override
    public TriggerType type() {
        return TriggerType.DATABRICKS;
    }
}
