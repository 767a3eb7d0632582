package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pause}, {@code resume} and {@code pauses}: stop and restart a pipeline's new executions (audited). */
final class PauseCommands {

    /** The most missed windows printed; the count is always whole. */
    private static final int MISSED_SHOWN = 20;

    private PauseCommands() {}

    private static String path(String pipeline, String action) {
        return "/pipelines/" + ApiClient.segment(pipeline) + "/" + action;
    }

    @Command(
            name = "pause",
            description = {
                "Pause a pipeline, with a reason: no new execution starts for it (its markers and sensor arrivals are",
                "recorded as MARKER_SKIPPED with the reason, its deadlines are not alerted); days already running",
                "finish. Audited (PAUSED). 'interlock resume' lets it run again, forward-only."
            })
    static final class Pause implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--reason", required = true, description = "Why, for everyone who wonders why nothing runs.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            body.put("reason", reason);
            ApiClient.Answer a = api.client().post(path(pipeline, "pause"), body.toString());
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "pausing pipeline " + pipeline);
            }
            JsonNode p = Output.parse(a.body());
            ZoneId zone = new PipelineZones(api.client()).of(pipeline, null);
            System.out.println("paused pipeline " + pipeline + " at "
                    + Output.time(p, "pausedAt", zone) + " by "
                    + p.path("pausedBy").asText() + ": "
                    + p.path("reason").asText());
            System.out.println(
                    "  no new execution starts until 'interlock resume " + pipeline + "'; days already running finish");
            return 0;
        }
    }

    @Command(
            name = "resume",
            description = {
                "Resume a paused pipeline (audited: RESUMED). Forward-only: the windows that opened while it was",
                "paused are listed, not run; run one with 'interlock evaluate <pipeline> --date <date>'."
            })
    static final class Resume implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--reason", description = "Why, for the RESUMED audit event.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            if (reason != null) {
                body.put("reason", reason);
            }
            ApiClient.Answer a = api.client().post(path(pipeline, "resume"), body.toString());
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "resuming pipeline " + pipeline);
            }
            JsonNode r = Output.parse(a.body());
            int missed = r.path("missedWindowCount").asInt();
            PipelineZones zones = new PipelineZones(api.client());
            System.out.println("resumed pipeline " + pipeline + " (paused since "
                    + Output.time(r, "pausedAt", zones.of(pipeline, null)) + " by "
                    + r.path("pausedBy").asText() + ": "
                    + r.path("reason").asText() + ")");
            if (missed == 0) {
                System.out.println("  no window opened while it was paused");
                return 0;
            }
            System.out.println("  " + missed
                    + " window(s) opened, or had their markers turned away, while it was paused and were not run"
                    + " (forward-only); to run one: interlock evaluate " + pipeline + " --date <date>"
                    + " [--schedule <schedule>], or all of them: interlock backfill " + pipeline
                    + " --from <first date> --to <last date> --reason <why>");
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"SCHEDULE", "DATE", "OPENED"});
            int shown = 0;
            for (JsonNode w : r.path("missedWindows")) {
                if (shown++ == MISSED_SHOWN) {
                    break;
                }
                rows.add(new String[] {
                    Output.text(w, "scheduleId"),
                    Output.text(w, "date"),
                    Output.time(
                            w,
                            "opensAt",
                            zones.of(pipeline, w.path("scheduleId").asText(null)))
                });
            }
            Output.table(System.out, rows);
            if (missed > MISSED_SHOWN) {
                System.out.println("  … and " + (missed - MISSED_SHOWN) + " more (--output json lists up to 100)");
            }
            return 0;
        }
    }

    @Command(name = "pauses", description = "List the paused pipelines: since when, by whom and why.")
    static final class Pauses implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Override
        public Integer call() {
            ApiClient.Answer a = api.client().get("/pauses");
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "listing paused pipelines");
            }
            JsonNode items = Output.parse(a.body()).path("items");
            if (items.isEmpty()) {
                System.out.println("no pipeline is paused");
                return 0;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"PIPELINE", "SINCE", "BY", "REASON"});
            PipelineZones zones = new PipelineZones(api.client());
            for (JsonNode p : items) {
                rows.add(new String[] {
                    Output.text(p, "pipelineId"),
                    Output.time(p, "pausedAt", zones.of(p.path("pipelineId").asText(null), null)),
                    Output.text(p, "pausedBy"),
                    Output.text(p, "reason")
                });
            }
            Output.table(System.out, rows);
            System.out.println(items.size() + " paused pipeline(s)");
            return 0;
        }
    }
}
