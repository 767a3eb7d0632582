package dev.interlock.runchecker;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** Lambda entry of the run-checker: poll one run's job and answer the three-field result (CONTRACT §5). */
public final class RunCheckerHandler implements RequestStreamHandler {

    private final RunPoll poll;

    /** The Lambda entry: the container's shared lazy Deps, checked for every required variable at once. */
    public RunCheckerHandler() {
        this(Deps.forFunction(InterlockFunction.RUN_CHECKER));
        Priming.onInit(Deps.get(), InterlockFunction.RUN_CHECKER, this);
    }

    /** Over given Deps (the local runtime serves the function in process this way). */
    public RunCheckerHandler(Deps deps) {
        // The runners, built here and not in Deps (only the trigger and run-checker carry jobs), check and cancel runs.
        this(
                deps,
                TriggerRunners.create(
                        deps.clients(), deps.outboundTemplates(), deps.outboundHttp(), deps.log("trigger")));
    }

    private RunCheckerHandler(Deps deps, TriggerRunners runners) {
        this(new RunPoll(deps.provider(), runners, runners, deps.clock(), deps.log("run-checker")));
    }

    public RunCheckerHandler(RunPoll poll) {
        this.poll = poll;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        RunCheckInput request = InterlockJson.json().readValue(input, RunCheckInput.class);
        if (request == null) {
            throw new IllegalArgumentException("run-checker input is empty");
        }
        InterlockJson.json().writeValue(output, poll.check(request));
    }
}
