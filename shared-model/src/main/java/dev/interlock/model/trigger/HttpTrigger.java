package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/** Calls an HTTP endpoint; synchronous: a 2xx answer completes the run. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record HttpTrigger(
        String method,
        String url,
        Map<String, String> headers,
        String body,
        @JsonAlias("timeout") int timeoutSeconds) implements TriggerConfig {

    /** HTTP client timeout when none is configured. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 30;

    public HttpTrigger {
        method = method == null || method.isBlank() ? "POST" : method;
        headers = Frozen.map(headers);
        timeoutSeconds = timeoutSeconds == 0 ? DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    @Override
    public TriggerType type() {
        return TriggerType.HTTP;
    }
}
