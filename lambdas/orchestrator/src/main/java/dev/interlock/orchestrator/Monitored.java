package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What monitoring after completion watches, read from an execution's state document: the one home of the state paths
 * the monitoring loop needs and a monitoring successor's input carries (statemachine/CONTRACT.md §2) —
 * {@code resolvePipeline.payload.{runId, traits, monitoring}}, {@code traitResults} (the baseline) and
 * {@code logCompleted.payload.loggedAt} (when monitoring began).
 *
 * @param monitoring the resolved monitoring settings as the run had them (carried on, not read)
 */
record Monitored(String runId, JsonNode traits, JsonNode monitoring, JsonNode baseline, Instant completedAt) {

    /** Reads it; a missing or mistyped field is an {@link IllegalArgumentException} naming its path. */
    static Monitored of(JsonNode state) {
        if (state == null || !state.isObject()) {
            throw new IllegalArgumentException("payload.state must be the execution's state document (an object)");
        }
        JsonNode resolved = state.path("resolvePipeline").path("payload");
        String runId = text(resolved.path("runId"), "state.resolvePipeline.payload.runId");
        JsonNode traits = array(resolved.path("traits"), "state.resolvePipeline.payload.traits");
        JsonNode monitoring = resolved.path("monitoring");
        if (!monitoring.isObject()) {
            throw new IllegalArgumentException("state.resolvePipeline.payload.monitoring must be an object");
        }
        JsonNode baseline = array(state.path("traitResults"), "state.traitResults");
        String loggedAt = text(
                state.path("logCompleted").path("payload").path("loggedAt"), "state.logCompleted.payload.loggedAt");
        Instant completedAt;
        try {
            completedAt = Instant.parse(loggedAt);
        } catch (DateTimeException e) {
            throw new IllegalArgumentException(
                    "state.logCompleted.payload.loggedAt is not an ISO-8601 instant: " + loggedAt, e);
        }
        return new Monitored(runId, traits, monitoring, baseline, completedAt);
    }

    /** What a monitoring successor's input carries: the same paths, so it reads them as this execution did. */
    Map<String, Object> carried() {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("runId", runId);
        payload.put("traits", InterlockJson.convert(traits, Object.class));
        payload.put("monitoring", InterlockJson.convert(monitoring, Object.class));
        Map<String, Object> carried = new LinkedHashMap<>();
        carried.put("resolvePipeline", Map.of("payload", payload));
        carried.put("traitResults", InterlockJson.convert(baseline, Object.class));
        carried.put("logCompleted", Map.of("payload", Map.of("loggedAt", InterlockJson.timestamp(completedAt))));
        return carried;
    }

    private static String text(JsonNode node, String path) {
        if (!node.isTextual() || node.asText().isBlank()) {
            throw new IllegalArgumentException(path + " is missing or not a string");
        }
        return node.asText().trim();
    }

    private static JsonNode array(JsonNode node, String path) {
        if (!node.isArray()) {
            throw new IllegalArgumentException(path + " is missing or not an array");
        }
        return node;
    }
}
