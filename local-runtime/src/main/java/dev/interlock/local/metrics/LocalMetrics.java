package dev.interlock.local.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What CloudWatch would make of the functions' embedded-metric-format lines, for the local runtime: it hears every
 * line the in-process functions print, keeps those with an {@code _aws.CloudWatchMetrics} directive and sums each
 * metric per pipeline (count, sum, min, max — the statistics a dashboard graphs), alerts per kind. Since the runtime
 * started; nothing is kept across a restart (the lines themselves are in the functions' log file).
 */
public final class LocalMetrics {

    /** The raw lines kept for tests and {@code --lines}; the aggregate has no such limit. */
    static final int MAX_LINES = 100_000;

    private final List<String> lines = new ArrayList<>();
    /** pipeline → metric → statistics; the fleet's lines (no PipelineId) under "". */
    private final Map<String, Map<String, Stats>> metrics = new TreeMap<>();
    /** pipeline → alert kind → count. */
    private final Map<String, Map<String, Double>> alerts = new TreeMap<>();

    /** One metric's statistics. */
    private static final class Stats {
        long count;
        double sum;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        String unit;

        void add(double v) {
            count++;
            sum += v;
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
    }

    /** Hears one printed line; anything that is not an EMF line is ignored. */
    public void accept(String line) {
        if (!line.startsWith("{\"_aws\"")) {
            return;
        }
        JsonNode root;
        try {
            root = InterlockJson.json().readTree(line);
        } catch (java.io.IOException | RuntimeException e) {
            return;
        }
        JsonNode directives = root.path("_aws").path("CloudWatchMetrics");
        if (!directives.isArray() || directives.isEmpty()) {
            return;
        }
        String pipeline = root.path("PipelineId").asText("");
        String kind = root.path("AlertKind").asText("");
        synchronized (this) {
            if (lines.size() < MAX_LINES) {
                lines.add(line);
            }
            for (JsonNode d : directives) {
                for (JsonNode m : d.path("Metrics")) {
                    String name = m.path("Name").asText("");
                    JsonNode value = root.path(name);
                    if (name.isEmpty() || !value.isNumber()) {
                        continue;
                    }
                    if (!kind.isEmpty()) {
                        alerts.computeIfAbsent(pipeline, p -> new TreeMap<>())
                                .merge(kind, value.asDouble(), Double::sum);
                    }
                    Stats s = metrics.computeIfAbsent(pipeline, p -> new TreeMap<>())
                            .computeIfAbsent(name, n -> new Stats());
                    s.add(value.asDouble());
                    s.unit = m.path("Unit").asText("None");
                }
            }
        }
    }

    /** The EMF lines heard so far, oldest first. */
    public synchronized List<String> lines() {
        return List.copyOf(lines);
    }

    /**
     * {@code {"pipelines":[{"pipelineId","metrics":{name:{count,sum,min,max,unit}},"alerts":{kind:n}}]}}: what
     * {@code GET /local/metrics} answers and {@code interlock metrics} prints.
     */
    public synchronized ObjectNode toJson() {
        ObjectNode root = InterlockJson.json().createObjectNode();
        ArrayNode pipelines = root.putArray("pipelines");
        for (Map.Entry<String, Map<String, Stats>> p : metrics.entrySet()) {
            ObjectNode item = pipelines.addObject();
            item.put("pipelineId", p.getKey());
            ObjectNode m = item.putObject("metrics");
            p.getValue().forEach((name, s) -> {
                ObjectNode stat = m.putObject(name);
                stat.put("count", s.count);
                stat.put("sum", s.sum);
                stat.put("min", s.min);
                stat.put("max", s.max);
                stat.put("unit", s.unit);
            });
            ObjectNode a = item.putObject("alerts");
            alerts.getOrDefault(p.getKey(), Map.of()).forEach(a::put);
        }
        return root;
    }
}
