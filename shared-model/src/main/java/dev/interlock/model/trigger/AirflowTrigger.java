package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Starts an Airflow DAG run through the stable REST API and polls it. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record AirflowTrigger(
        String url,
        String dagId,
        Map<String, String> headers,
        String body,
        Map<String, Object> conf,
        @JsonAlias("timeout") int timeoutSeconds)
        implements TriggerConfig {

    public AirflowTrigger {
        headers = Frozen.map(headers);
        conf = Frozen.map(conf);
        timeoutSeconds = timeoutSeconds == 0 ? HttpTrigger.DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    @Override
    public TriggerType type() {
        return TriggerType.AIRFLOW;
    }
}
