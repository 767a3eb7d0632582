package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;

import java.util.List;

/** Runs a local program without a shell (local runtime only); exit code 0 completes the run. */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record CommandTrigger(
        String command,
        List<String> args,
        @JsonAlias("timeout") int timeoutSeconds) implements TriggerConfig {

    public CommandTrigger {
        args = Frozen.list(args);
        timeoutSeconds = timeoutSeconds == 0 ? HttpTrigger.DEFAULT_TIMEOUT_SECONDS : timeoutSeconds;
    }

    @Override
    public TriggerType type() {
        return TriggerType.COMMAND;
    }
}
