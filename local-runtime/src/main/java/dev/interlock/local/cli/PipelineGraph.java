package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Pipelines and the upstreams they wait for ({@code config.upstreamPipeline} of their traits), read from pipeline
 * documents as the CLI has them: the order {@code apply} registers them in (upstreams first, so the API knows an
 * upstream when its downstream arrives), a cycle among them, and each one's downstreams for {@code graph}.
 */
final class PipelineGraph {

    /** In the order the documents came, which {@link #upstreamsFirst()} keeps where it can. */
    private final Map<String, Set<String>> upstreams = new LinkedHashMap<>();

    /** The graph of these pipeline documents (JSON as registered or as read from files). */
    static PipelineGraph of(Collection<JsonNode> pipelines) {
        PipelineGraph graph = new PipelineGraph();
        for (JsonNode pipeline : pipelines) {
            graph.upstreams.put(field(pipeline, "name").asText(), upstreamsOf(pipeline));
        }
        return graph;
    }

    /** The pipelines a document waits for, in name order (field names as the API reads them, any case). */
    static Set<String> upstreamsOf(JsonNode pipeline) {
        Set<String> names = new TreeSet<>();
        for (JsonNode trait : field(pipeline, "traits")) {
            JsonNode upstream = field(trait, "config").path("upstreamPipeline");
            if (upstream.isTextual() && !upstream.asText().isBlank()) {
                names.add(upstream.asText().trim());
            }
        }
        return names;
    }

    /** Every pipeline, in name order. */
    Set<String> pipelines() {
        return new TreeSet<>(upstreams.keySet());
    }

    /** The pipelines {@code pipeline} waits for (registered here or not), in name order. */
    Set<String> upstreamsOf(String pipeline) {
        return upstreams.getOrDefault(pipeline, Set.of());
    }

    /** The pipelines here that wait for {@code pipeline}, in name order. */
    Set<String> downstreamsOf(String pipeline) {
        Set<String> downstreams = new TreeSet<>();
        upstreams.forEach((name, ups) -> {
            if (ups.contains(pipeline)) {
                downstreams.add(name);
            }
        });
        return downstreams;
    }

    /**
     * A cycle among these pipelines, as {@code a -> b -> a} (each waits for the next), or empty. Searched in document
     * order, so the same documents always name the same cycle.
     */
    Optional<List<String>> cycle() {
        Map<String, Integer> state = new HashMap<>(); // absent: unseen, 1: on the current path, 2: done
        for (String start : upstreams.keySet()) {
            List<String> path = new ArrayList<>();
            Optional<List<String>> found = visit(start, state, path);
            if (found.isPresent()) {
                return found;
            }
        }
        return Optional.empty();
    }

    private Optional<List<String>> visit(String node, Map<String, Integer> state, List<String> path) {
        Integer seen = state.get(node);
        if (seen != null && seen == 2) {
            return Optional.empty();
        }
        if (seen != null) {
            List<String> cycle = new ArrayList<>(path.subList(path.indexOf(node), path.size()));
            cycle.add(node);
            return Optional.of(cycle);
        }
        state.put(node, 1);
        path.add(node);
        for (String upstream : upstreamsOf(node)) {
            if (upstreams.containsKey(upstream)) {
                Optional<List<String>> found = visit(upstream, state, path);
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        path.removeLast();
        state.put(node, 2);
        return Optional.empty();
    }

    /**
     * Every pipeline, each after the pipelines here it waits for and otherwise in document order; call only when
     * {@link #cycle()} is empty.
     */
    List<String> upstreamsFirst() {
        List<String> order = new ArrayList<>();
        Set<String> placed = new HashSet<>();
        for (String name : upstreams.keySet()) {
            place(name, placed, order);
        }
        return order;
    }

    private void place(String name, Set<String> placed, List<String> order) {
        if (!placed.add(name)) {
            return;
        }
        for (String upstream : upstreamsOf(name)) {
            if (upstreams.containsKey(upstream)) {
                place(upstream, placed, order);
            }
        }
        order.add(name);
    }

    /** A field by name in any case, as the API binds documents; missing when absent. */
    private static JsonNode field(JsonNode node, String name) {
        for (var it = node.fields(); it.hasNext(); ) {
            var f = it.next();
            if (f.getKey().equalsIgnoreCase(name)) {
                return f.getValue();
            }
        }
        return MissingNode.getInstance();
    }
}
