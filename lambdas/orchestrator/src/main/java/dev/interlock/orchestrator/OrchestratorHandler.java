package dev.interlock.orchestrator;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.evaluation.TraitEvaluation;
import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.function.Supplier;

/**
 * Lambda entry of the orchestrator: JSON in, one action, JSON out, through the shared codec (keys case-insensitive,
 * unknown keys ignored). Malformed JSON is answered as an {@code error} result, never thrown.
 */
public final class OrchestratorHandler implements RequestStreamHandler {

    private final Supplier<Orchestrator> orchestrator;

    /** Lambda entry: the container's shared Deps, checked for every variable the orchestrator needs. */
    public OrchestratorHandler() {
        this(Deps.forFunction(InterlockFunction.ORCHESTRATOR));
        Priming.onInit(Deps.get(), InterlockFunction.ORCHESTRATOR, this);
    }

    /**
     * Over existing Deps (the local runtime). The dispatcher, and with it the DynamoDB client, is built on the first
     * request, so initialisation (and a SnapStart snapshot) holds no connection and no clock reading.
     */
    public OrchestratorHandler(Deps deps) {
        this.orchestrator = Lazy.of(() -> new Orchestrator(
                deps.provider(),
                deps.clock(),
                deps.alerts(),
                OrchestratorSettings.from(deps.environment()),
                deps.log("orchestrator"),
                new SfnTaskCallbacks(() -> deps.clients().stepFunctions()),
                TriggerRunners.callbackJobChecks(deps.clients(), deps.log("watchdog")),
                TraitEvaluation.from(deps)::evaluateVerdict));
    }

    /** Around a dispatcher built by hand (tests: the in-memory Provider, a fixed clock, a recording publisher). */
    public OrchestratorHandler(Orchestrator orchestrator) {
        this.orchestrator = () -> orchestrator;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        Orchestrator dispatcher = orchestrator.get();
        OrchestratorResponse response;
        try {
            JsonNode request = InterlockJson.json().readTree(input);
            response = dispatcher.handle(request);
        } catch (JsonProcessingException e) {
            response = dispatcher.unreadable(e);
        }
        output.write(InterlockJson.json().writeValueAsBytes(response));
        output.flush();
    }
}
