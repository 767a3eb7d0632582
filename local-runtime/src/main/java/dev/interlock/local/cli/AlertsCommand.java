package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code interlock alerts}: the alerts sent, newest first, from {@code GET /alerts} (the table's alert history). */
@Command(name = "alerts", description = "Show the alerts sent, newest first (GET /alerts).")
final class AlertsCommand implements Callable<Integer> {

    private static final int PAGE = 100;

    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Option(names = "--pipeline", description = "Only this pipeline's alerts.")
    String pipeline;

    @Option(names = "--kind", description = "Only alerts of this kind (SLA_MISSED, EXECUTION_ERROR, …).")
    String kind;

    @Option(
            names = "--since",
            description = "Only alerts sent at or after this instant (2026-03-01T06:00:00Z) or date (midnight UTC).")
    String since;

    @Option(names = "--limit", defaultValue = "50", description = "At most this many alerts (default 50).")
    int limit;

    @Override
    public Integer call() {
        if (limit < 1) {
            throw new CliFailure("--limit must be at least 1, got " + limit, CliFailure.USAGE, null);
        }
        ApiClient client = api.client();
        List<String> filters = new ArrayList<>();
        if (pipeline != null) {
            filters.add("pipeline=" + ApiClient.segment(pipeline));
        }
        if (kind != null) {
            filters.add("kind="
                    + ApiClient.segment(kind.trim().toUpperCase(Locale.ROOT).replace('-', '_')));
        }
        if (since != null) {
            filters.add("since=" + ApiClient.segment(since));
        }
        List<JsonNode> alerts = new ArrayList<>();
        String cursor = null;
        do {
            List<String> query = new ArrayList<>(filters);
            query.add("limit=" + Math.min(PAGE, limit - alerts.size()));
            if (cursor != null) {
                query.add("cursor=" + ApiClient.segment(cursor));
            }
            ApiClient.Answer a = client.get("/alerts?" + String.join("&", query));
            if (!a.ok()) {
                return QueryCommands.print(a, "reading alerts");
            }
            JsonNode page = Output.parse(a.body());
            page.path("items").forEach(alerts::add);
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null && alerts.size() < limit);
        if (format.json()) {
            Output.pretty(System.out, Output.items(alerts));
            return 0;
        }
        if (alerts.isEmpty()) {
            System.out.println("no alerts: none sent"
                    + (filters.isEmpty() ? "" : " matching " + String.join(" ", filters)) + " at " + client.endpoint());
            return 0;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"TIME", "KIND", "LEVEL", "PIPELINE", "DATE", "SCHEDULE", "MESSAGE"});
        PipelineZones zones = new PipelineZones(client);
        for (JsonNode alert : alerts) {
            rows.add(new String[] {
                Output.time(
                        alert,
                        "timestamp",
                        zones.of(
                                alert.path("pipelineId").asText(null),
                                alert.path("scheduleId").asText(null))),
                Output.text(alert, "kind"),
                Output.text(alert, "level"),
                Output.text(alert, "pipelineId"),
                Output.text(alert, "date"),
                Output.text(alert, "scheduleId"),
                alert.path("message").asText("")
            });
        }
        Output.table(System.out, rows);
        System.out.println(alerts.size() + " alert(s)" + (cursor == null ? "" : ", more with --limit"));
        return 0;
    }
}
