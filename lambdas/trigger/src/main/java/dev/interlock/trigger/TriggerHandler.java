package dev.interlock.trigger;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.model.json.InterlockJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Lambda entry of the trigger: start one run's job and answer the five-field result (CONTRACT §5). */
public final class TriggerHandler implements RequestStreamHandler {

    private final RunTrigger trigger;

    public TriggerHandler(RunTrigger trigger) {
        this.trigger = trigger;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        TriggerInput request = InterlockJson.json().readValue(input, TriggerInput.class);
        if (request == null) {
            throw new IllegalArgumentException("trigger input is empty");
        }
        InterlockJson.json().writeValue(output, trigger.fire(request));
    }
}
