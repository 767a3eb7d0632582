package dev.interlock.trigger;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.deps.Deps;
import dev.interlock.deps.prime.Priming;
import dev.interlock.deps.trigger.TriggerRunners;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Lambda entry of the trigger: start one run's job and answer the five-field result (CONTRACT §5). */
public final class TriggerHandler implements RequestStreamHandler {

    private final RunTrigger trigger;

    /** The Lambda entry: the container's shared lazy Deps, checked for every required variable at once. */
    public TriggerHandler() {
        this(Deps.forFunction(InterlockFunction.TRIGGER));
        // Before a SnapStart snapshot (or in provisioned-concurrency init): rehearse the bundled priming events.
        Priming.onInit(Deps.get(), InterlockFunction.TRIGGER, this);
    }

    /** Over given Deps, without command triggers (they would run a process inside the Lambda sandbox). */
    public TriggerHandler(Deps deps) {
        this(deps, false);
    }

    /** Over given Deps; the local runtime passes {@code true}, since there a command trigger is a program on this machine. */
    public TriggerHandler(Deps deps, boolean allowCommandTriggers) {
        // The SNS client is created only when an alert is actually sent.
        this(new RunTrigger(deps.provider(), allowCommandTriggers
                ? TriggerRunners.create(deps.clients(), deps.outboundTemplates(), deps.outboundHttp(), deps.clock(), true)
                : deps.triggerRunners(), alert -> deps.alerts().publish(alert), deps.clock()));
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
