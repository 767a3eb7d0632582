package dev.interlock.trigger;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Lambda entry of the trigger: start one run's job and answer the five-field result (CONTRACT §5). */
public final class TriggerHandler implements RequestStreamHandler {

    private final RunTrigger trigger;

    /** The Lambda entry: the container's shared lazy Deps, checked for every required variable at once. */
    public TriggerHandler() {
        this(Deps.forFunction(InterlockFunction.TRIGGER));
        Priming.onInit(Deps.get(), InterlockFunction.TRIGGER, this);
    }

    /** Over given Deps (the local runtime's, or the container's). */
    public TriggerHandler(Deps deps) {
        // The SNS client is created only when an alert is actually sent; the runners create a job system's client
        // only when a run of its type starts. Built here, not in Deps: only the trigger and run-checker carry jobs.
        this(new RunTrigger(
                deps.provider(),
                TriggerRunners.create(
                        deps.clients(), deps.outboundTemplates(), deps.outboundHttp(), deps.log("trigger")),
                alert -> deps.alerts().publish(alert),
                deps.clock(),
                deps.log("trigger")));
    }

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
