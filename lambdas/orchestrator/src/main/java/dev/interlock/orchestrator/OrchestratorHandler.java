package dev.interlock.orchestrator;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.deps.alert.AlertPublisher;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.store.Provider;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;

/**
 * Lambda entry of the orchestrator: JSON in, one action, JSON out, through the shared codec (keys case-insensitive,
 * unknown keys ignored). Malformed JSON is answered as an {@code error} result, never thrown.
 */
public final class OrchestratorHandler implements RequestStreamHandler {

    private final Orchestrator orchestrator;

    /** Collaborators by constructor: tests pass the in-memory Provider, a fixed clock and a recording publisher. */
    public OrchestratorHandler(Provider provider, Clock clock, AlertPublisher alerts, OrchestratorSettings settings) {
        this(new Orchestrator(provider, clock, alerts, settings));
    }

    /** A handler around an existing dispatcher (the local runtime builds one per process). */
    public OrchestratorHandler(Orchestrator orchestrator) {
        this.orchestrator = orchestrator;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        OrchestratorResponse response;
        try {
            JsonNode request = InterlockJson.json().readTree(input);
            response = orchestrator.handle(request);
        } catch (JsonProcessingException e) {
            response = orchestrator.unreadable(e);
        }
        output.write(InterlockJson.json().writeValueAsBytes(response));
        output.flush();
    }
}
