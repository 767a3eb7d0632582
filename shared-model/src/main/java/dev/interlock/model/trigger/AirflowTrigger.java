package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.List;
import java.util.Map;

/**
 * Starts an Airflow DAG run through the stable REST API and polls it. A DAG run that ends {@code success} is checked
 * for a lie (unless {@code failedTaskCheck} is false): task instances of the run in a state of
 * {@link #FAILED_TASK_STATES} (a trigger rule let the leaves that decide the run's state pass anyway) make it a
 * {@code FALSE_SUCCESS}.
 */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record AirflowTrigger(
        String url,
        String dagId,
        Map<String, String> headers,
        String body,
        Map<String, Object> conf,
        @JsonAlias("timeout") int timeoutSeconds,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean failedTaskCheck)
        implements TriggerConfig {

    /** The task-instance states that make a {@code success} DAG run a lie. */
    public static final List<String> FAILED_TASK_STATES = List.of("failed", "upstream_failed");

    public AirflowTrigger {
        headers = Frozen.map(headers);
        conf = Frozen.map(conf);
        timeoutSeconds = timeoutSeconds == 0 ? HttpTrigger.DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    public AirflowTrigger(
            String url,
            String dagId,
            Map<String, String> headers,
            String body,
            Map<String, Object> conf,
            int timeoutSeconds) {
        this(url, dagId, headers, body, conf, timeoutSeconds, null);
    }

    @Override
    public TriggerType type() {
        return TriggerType.AIRFLOW;
    }

    /** Whether a DAG run that ends {@code success} has its task instances checked (the default: it has). */
    @JsonIgnore
    public boolean failedTasksChecked() {
        return !Boolean.FALSE.equals(failedTaskCheck);
    }
}
