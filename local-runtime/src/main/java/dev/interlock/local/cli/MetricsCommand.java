package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code interlock metrics}: the CloudWatch metrics the functions published (embedded metric format), per pipeline,
 * as a running local runtime summed them from the functions' own lines ({@code GET /local/metrics}). On AWS the same
 * numbers are in CloudWatch, namespace {@code Interlock} (docs/metrics.md).
 */
@Command(
        name = "metrics",
        description = "Show the metrics the functions published, per pipeline (a local runtime's GET /local/metrics;"
                + " on AWS see CloudWatch, namespace Interlock).")
final class MetricsCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Option(names = "--pipeline", description = "Only this pipeline's metrics.")
    String pipeline;

    @Override
    public Integer call() {
        ApiClient client = api.client();
        ApiClient.Answer a = client.get("/local/metrics");
        if (a.status() == 404 || a.status() == 403) {
            throw new CliFailure(
                    "no metrics at " + client.endpoint() + ": only a local runtime (interlock up) answers"
                            + " /local/metrics; on AWS the metrics are in CloudWatch, namespace Interlock",
                    CliFailure.FAILED,
                    null);
        }
        if (!a.ok()) {
            return QueryCommands.print(a, "reading metrics");
        }
        JsonNode answer = Output.parse(a.body());
        List<JsonNode> shown = new ArrayList<>();
        for (JsonNode p : answer.path("pipelines")) {
            if (pipeline == null || pipeline.equals(p.path("pipelineId").asText())) {
                shown.add(p);
            }
        }
        if (format.json()) {
            ObjectNode out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            ArrayNode items = out.putArray("pipelines");
            shown.forEach(items::add);
            Output.pretty(System.out, out);
            return 0;
        }
        if (shown.isEmpty()) {
            System.out.println("no metrics" + (pipeline == null ? "" : " for " + pipeline)
                    + ": nothing published since the runtime at " + client.endpoint() + " started");
            return 0;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"PIPELINE", "METRIC", "SUM", "COUNT", "MIN", "MAX", "UNIT"});
        for (JsonNode p : shown) {
            String id = p.path("pipelineId").asText();
            String name = id.isEmpty() ? "(fleet)" : id;
            for (Map.Entry<String, JsonNode> m : p.path("metrics").properties()) {
                JsonNode s = m.getValue();
                rows.add(new String[] {
                    name,
                    m.getKey(),
                    number(s.path("sum").asDouble()),
                    Long.toString(s.path("count").asLong()),
                    number(s.path("min").asDouble()),
                    number(s.path("max").asDouble()),
                    s.path("unit").asText("")
                });
            }
            for (Map.Entry<String, JsonNode> k : p.path("alerts").properties()) {
                rows.add(new String[] {
                    name, "Alerts " + k.getKey(), number(k.getValue().asDouble()), "", "", "", "Count"
                });
            }
        }
        Output.table(System.out, rows);
        return 0;
    }

    /** A whole number without its ".0", else one decimal. */
    private static String number(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e15
                ? Long.toString((long) v)
                : String.format(Locale.ROOT, "%.1f", v);
    }
}
