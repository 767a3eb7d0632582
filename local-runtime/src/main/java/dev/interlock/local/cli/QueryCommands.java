package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/** The commands that read from or act on a running Interlock through its API. */
final class QueryCommands {

    private QueryCommands() {
    }

    static int print(ApiClient.Answer a, String what) {
        if (a.ok()) {
            Output.pretty(System.out, a.body());
            return 0;
        }
        Output.problem(System.err, what, a);
        return 1;
    }

    @Command(name = "pipelines", description = "List registered pipelines (every page).")
    static final class Pipelines implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Override
        public Integer call() throws Exception {
            ApiClient client = api.client();
            String cursor = null;
            int count = 0;
            do {
                ApiClient.Answer a = client.get("/pipelines?limit=100" + (cursor == null ? "" : "&cursor=" + ApiClient.segment(cursor)));
                if (!a.ok()) {
                    return print(a, "listing pipelines");
                }
                JsonNode page = Output.parse(a.body());
                for (JsonNode p : page.path("items")) {
                    count++;
                    System.out.printf("%-40s %-22s %s%n", p.path("name").asText(), p.path("archetype").asText(),
                            p.path("trigger").path("type").asText());
                }
                cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
            } while (cursor != null);
            System.out.println(count + " pipeline(s)");
            return 0;
        }
    }

    @Command(name = "runs", description = "Show a pipeline's run logs and runs.")
    static final class Runs implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Override
        public Integer call() throws Exception {
            ApiClient client = api.client();
            ApiClient.Answer logs = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/runlogs");
            if (!logs.ok()) {
                return print(logs, "reading run logs of " + pipeline);
            }
            System.out.println("run logs:");
            for (JsonNode l : Output.parse(logs.body()).path("items")) {
                System.out.printf("  %s %-8s %-10s attempt %d  run %s%s%n", l.path("date").asText(), l.path("scheduleId").asText(),
                        l.path("status").asText(), l.path("attemptNumber").asInt(), l.path("runId").asText(),
                        l.hasNonNull("failureMessage") ? "  (" + l.get("failureMessage").asText() + ")" : "");
            }
            ApiClient.Answer runs = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/runs");
            if (!runs.ok()) {
                return print(runs, "reading runs of " + pipeline);
            }
            System.out.println("runs:");
            for (JsonNode r : Output.parse(runs.body()).path("items")) {
                System.out.printf("  %s %-10s v%d  %s%n", r.path("runId").asText(), r.path("status").asText(),
                        r.path("version").asInt(), r.path("updatedAt").asText());
            }
            return 0;
        }
    }

    @Command(name = "evaluate", description = "Ask for an evaluation now (writes a manual marker).")
    static final class Evaluate implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--schedule", description = "Schedule id (default: daily).")
        String schedule;

        @Option(names = "--date", description = "Execution date YYYY-MM-DD (default: today in the schedule's time zone).")
        String date;

        @Override
        public Integer call() throws Exception {
            ObjectNode body = Output.JSON.createObjectNode();
            if (schedule != null) {
                body.put("scheduleId", schedule);
            }
            if (date != null) {
                body.put("date", date);
            }
            return print(api.client().post("/pipelines/" + ApiClient.segment(pipeline) + "/evaluations", body.toString()),
                    "requesting an evaluation of " + pipeline);
        }
    }

    @Command(name = "rerun", description = "Re-run a completed (pipeline, date, schedule).")
    static final class Rerun implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--date", description = "Execution date YYYY-MM-DD (default: today in the schedule's time zone).")
        String date;

        @Option(names = "--schedule", description = "Schedule id (default: daily).")
        String schedule;

        @Option(names = "--reason", required = true, description = "Why, for the rerun record.")
        String reason;

        @Override
        public Integer call() throws Exception {
            ObjectNode body = Output.JSON.createObjectNode();
            if (date != null) {
                body.put("date", date);
            }
            body.put("reason", reason);
            if (schedule != null) {
                body.put("scheduleId", schedule);
            }
            return print(api.client().post("/pipelines/" + ApiClient.segment(pipeline) + "/reruns", body.toString()),
                    "requesting a rerun of " + pipeline);
        }
    }

    @Command(name = "alerts", description = "Show the alerts the local runtime received.")
    static final class Alerts implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Override
        public Integer call() throws Exception {
            ApiClient.Answer a = api.client().get("/alerts");
            if (!a.ok()) {
                return print(a, "reading alerts");
            }
            for (JsonNode alert : Output.parse(a.body()).path("items")) {
                System.out.printf("%s  %s  %s%n", alert.path("receivedAt").asText(), alert.path("subject").asText(),
                        alert.path("message").path("message").asText(alert.path("message").toString()));
            }
            return 0;
        }
    }
}
