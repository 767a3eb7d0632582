package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code backfill}, {@code backfills}, {@code backfill-status} and {@code backfill-cancel}: run a range of a pipeline's
 * days again, each through its own gate, a few at a time, and follow or stop it (docs/operations.md, "Backfills").
 */
final class BackfillCommands {

    private BackfillCommands() {}

    @Command(
            name = "backfill",
            description = {
                "Run a range of a pipeline's days again (POST /pipelines/{id}/backfills): each day passes its own gate",
                "(readiness, exclusions, locks), at most --max-concurrency at a time, without spending the rerun",
                "budget. --dry-run lists the days it would run and why. Audited (BACKFILL_REQUESTED); it ends with",
                "one BACKFILL_FINISHED event and alert. Follow it with 'interlock backfill-status <id>'."
            })
    static final class Start implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--from", required = true, description = "The first day, YYYY-MM-DD.")
        String from;

        @Option(names = "--to", required = true, description = "The last day, YYYY-MM-DD (today at the latest).")
        String to;

        @Option(
                names = "--schedule",
                description = "A schedule to run (repeatable); default: all of the pipeline's schedules.")
        List<String> schedules;

        @Option(
                names = "--mode",
                description = "missing (days never completed; the default), failed (days whose last run failed), all.")
        String mode;

        @Option(names = "--max-concurrency", description = "How many days run at once (1 to 10; default 1).")
        Integer maxConcurrency;

        @Option(names = "--order", description = "oldest (the default) or newest day first.")
        String order;

        @Option(names = "--cascade", description = "Let each day's completion wake the downstream pipelines.")
        boolean cascade;

        @Option(names = "--dry-run", description = "Only list the days it would run and why; start nothing.")
        boolean dryRun;

        @Option(names = "--reason", required = true, description = "Why, for the audit trail.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            body.put("from", from);
            body.put("to", to);
            if (schedules != null && !schedules.isEmpty()) {
                ArrayNode list = body.putArray("schedules");
                schedules.forEach(list::add);
            }
            if (mode != null) {
                body.put("mode", mode);
            }
            if (maxConcurrency != null) {
                body.put("maxConcurrency", maxConcurrency);
            }
            if (order != null) {
                body.put("order", order);
            }
            body.put("cascade", cascade);
            body.put("dryRun", dryRun);
            body.put("reason", reason);
            ApiClient.Answer a =
                    api.client().post("/pipelines/" + ApiClient.segment(pipeline) + "/backfills", body.toString());
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, (dryRun ? "planning" : "starting") + " a backfill of " + pipeline);
            }
            JsonNode b = Output.parse(a.body());
            if (dryRun) {
                System.out.println("dry run: a backfill of " + pipeline + " from " + from + " to " + to + " would run "
                        + b.path("counts").path("pending").asInt() + " day(s) and skip "
                        + b.path("counts").path("skipped").asInt() + "; nothing was started");
            } else {
                System.out.println(
                        "backfill " + b.path("backfillId").asText() + " of " + pipeline + " started: " + summary(b));
                System.out.println("  follow it: interlock backfill-status "
                        + b.path("backfillId").asText());
            }
            printDays(b, new PipelineZones(api.client()).of(pipeline, null));
            return 0;
        }
    }

    @Command(
            name = "backfill-status",
            description =
                    "Show a backfill's progress (GET /backfills/{id}): each day's status with its reason, and counts.")
    static final class Status implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The backfill id.")
        String backfillId;

        @Override
        public Integer call() {
            ApiClient.Answer a = api.client().get("/backfills/" + ApiClient.segment(backfillId));
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "reading backfill " + backfillId);
            }
            JsonNode b = Output.parse(a.body());
            String pipeline = b.path("pipelineId").asText();
            ZoneId zone = new PipelineZones(api.client()).of(pipeline, null);
            System.out.println("backfill " + backfillId + " of " + pipeline + " ("
                    + b.path("from").asText() + " to "
                    + b.path("to").asText() + ", mode " + b.path("mode").asText() + ", "
                    + b.path("maxConcurrency").asInt()
                    + " at a time" + (b.path("cascade").asBoolean() ? ", cascading" : ", no cascade") + ") "
                    + b.path("status").asText() + ": " + summary(b));
            System.out.println(
                    "  asked for by " + b.path("requestedBy").asText() + " at " + Output.time(b, "requestedAt", zone)
                            + ": " + b.path("reason").asText());
            if (!b.path("cancelledBy").isMissingNode() && !b.path("cancelledBy").isNull()) {
                System.out.println("  cancelled by " + b.path("cancelledBy").asText()
                        + (b.path("cancelReason").isTextual()
                                ? ": " + b.path("cancelReason").asText()
                                : ""));
            }
            printDays(b, zone);
            return 0;
        }
    }

    @Command(
            name = "backfills",
            description = "List backfills, newest first (GET /backfills), optionally one pipeline's.")
    static final class ListAll implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Option(names = "--pipeline", description = "Only this pipeline's backfills.")
        String pipeline;

        @Override
        public Integer call() {
            ApiClient.Answer a = api.client()
                    .get(pipeline == null ? "/backfills" : "/pipelines/" + ApiClient.segment(pipeline) + "/backfills");
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "listing backfills");
            }
            JsonNode items = Output.parse(a.body()).path("items");
            if (items.isEmpty()) {
                System.out.println("no backfill" + (pipeline == null ? "" : " of " + pipeline));
                return 0;
            }
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"ID", "PIPELINE", "FROM", "TO", "STATUS", "PROGRESS", "BY"});
            for (JsonNode b : items) {
                rows.add(new String[] {
                    Output.text(b, "backfillId"),
                    Output.text(b, "pipelineId"),
                    Output.text(b, "from"),
                    Output.text(b, "to"),
                    Output.text(b, "status"),
                    summary(b),
                    Output.text(b, "requestedBy")
                });
            }
            Output.table(System.out, rows);
            return 0;
        }
    }

    @Command(
            name = "backfill-cancel",
            description = {
                "Cancel a backfill (POST /backfills/{id}/cancel): its pending days are skipped, its running days",
                "finish. Audited (BACKFILL_CANCELLED)."
            })
    static final class Cancel implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The backfill id.")
        String backfillId;

        @Option(names = "--reason", description = "Why, for the audit trail.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            if (reason != null) {
                body.put("reason", reason);
            }
            ApiClient.Answer a =
                    api.client().post("/backfills/" + ApiClient.segment(backfillId) + "/cancel", body.toString());
            if (!a.ok() || format.json()) {
                return QueryCommands.print(a, "cancelling backfill " + backfillId);
            }
            JsonNode b = Output.parse(a.body());
            System.out.println("backfill " + backfillId + " " + b.path("status").asText() + ": " + summary(b));
            int running = b.path("counts").path("running").asInt();
            if (running > 0) {
                System.out.println("  " + running + " running day(s) finish; no pending day starts");
            }
            return 0;
        }
    }

    /** {@code 3 completed, 1 failed, 2 skipped, 2 running, 4 pending of 12}. */
    static String summary(JsonNode b) {
        JsonNode c = b.path("counts");
        return c.path("completed").asInt() + " completed, " + c.path("failed").asInt() + " failed, "
                + c.path("skipped").asInt() + " skipped, " + c.path("running").asInt() + " running, "
                + c.path("pending").asInt() + " pending of " + c.path("total").asInt();
    }

    private static void printDays(JsonNode b, ZoneId zone) {
        JsonNode days = b.path("days");
        if (!days.isArray() || days.isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"DATE", "SCHEDULE", "STATUS", "RUN", "REASON"});
        for (JsonNode d : days) {
            rows.add(new String[] {
                Output.text(d, "date"),
                Output.text(d, "scheduleId"),
                Output.text(d, "status"),
                Output.text(d, "runId"),
                d.path("reason").isTextual() ? d.path("reason").asText() : ""
            });
        }
        Output.table(System.out, rows);
    }
}
