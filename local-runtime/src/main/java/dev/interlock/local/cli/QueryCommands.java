package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.run.JobMetadata;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.validation.ClosestName;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands that read from or act on a running Interlock through its API. */
final class QueryCommands {

    private QueryCommands() {}

    static int print(ApiClient.Answer a, String what) {
        if (a.ok()) {
            Output.pretty(System.out, a.body());
            return 0;
        }
        Output.problem(System.err, what, a);
        return CliFailure.FAILED;
    }

    /** Every registered pipeline document, from every page of {@code GET /pipelines}; a refused page stops the command. */
    static List<JsonNode> registeredPipelines(ApiClient client) {
        return pipelinePages(client, Integer.MAX_VALUE, true);
    }

    /** How many registered names a "did you mean" looks through at most. */
    private static final int SUGGESTION_PAGES = 10;

    /** Registered pipeline names (the first pages, as far as the API answers), to suggest one for a mistyped id. */
    static List<String> pipelineNames(ApiClient client) {
        return pipelinePages(client, SUGGESTION_PAGES, false).stream()
                .map(p -> p.path("name").asText())
                .toList();
    }

    /** Pipeline documents of up to {@code maxPages} pages of {@code GET /pipelines}; a refused page stops or ends it. */
    private static List<JsonNode> pipelinePages(ApiClient client, int maxPages, boolean refusalStops) {
        List<JsonNode> pipelines = new ArrayList<>();
        String cursor = null;
        for (int page = 0; page < maxPages; page++) {
            ApiClient.Answer a =
                    client.get("/pipelines?limit=100" + (cursor == null ? "" : "&cursor=" + ApiClient.segment(cursor)));
            if (!a.ok()) {
                if (!refusalStops) {
                    break;
                }
                Output.problem(System.err, "listing pipelines", a);
                throw new CliFailure("could not list the registered pipelines");
            }
            JsonNode body = Output.parse(a.body());
            body.path("items").forEach(pipelines::add);
            cursor = body.hasNonNull("nextCursor") ? body.get("nextCursor").asText() : null;
            if (cursor == null) {
                break;
            }
        }
        return pipelines;
    }

    @Command(name = "pipelines", description = "List registered pipelines (every page).")
    static final class Pipelines implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Override
        public Integer call() {
            List<JsonNode> all = registeredPipelines(api.client());
            if (format.json()) {
                Output.pretty(System.out, Output.items(all));
                return 0;
            }
            for (JsonNode p : all) {
                System.out.printf(
                        "%-40s %-22s %s%n",
                        p.path("name").asText(),
                        p.path("archetype").asText(),
                        p.path("trigger").path("type").asText());
            }
            System.out.println(all.size() + " pipeline(s)");
            return 0;
        }
    }

    @Command(
            name = "runs",
            description = "Show a pipeline's run logs (one per day and schedule) and runs (one per job started), "
                    + "with their start and end times and the job system's ids.")
    static final class Runs implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Override
        public Integer call() {
            ApiClient client = api.client();
            ApiClient.Answer config = client.get("/pipelines/" + ApiClient.segment(pipeline));
            ApiClient.Answer logs = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/runlogs");
            if (!logs.ok()) {
                return print(logs, "reading run logs of " + pipeline);
            }
            ApiClient.Answer runs = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/runs");
            if (!runs.ok()) {
                return print(runs, "reading runs of " + pipeline);
            }
            boolean noHistory = Output.parse(logs.body()).path("items").isEmpty()
                    && Output.parse(runs.body()).path("items").isEmpty();
            if (config.status() == 404 && noHistory) {
                // An unknown id has no history either: say so instead of printing two empty lists.
                throw new CliFailure("no pipeline '" + pipeline + "' is registered at " + client.endpoint()
                        + ClosestName.hint(pipeline, pipelineNames(client)));
            }
            if (config.status() == 404) {
                System.out.println(
                        "(pipeline " + pipeline + " is no longer registered; its history is kept until it expires)");
            }
            JsonNode runLogs = Output.parse(logs.body()).path("items");
            JsonNode runList = Output.parse(runs.body()).path("items");
            if (format.json()) {
                ObjectNode both = Output.json().createObjectNode();
                both.set("runLogs", runLogs);
                both.set("runs", runList);
                Output.pretty(System.out, both);
                return 0;
            }
            System.out.println("run logs (one per day and schedule; FAILED: how many of its attempts failed):");
            List<String[]> logRows = new ArrayList<>();
            // A run log's startedAt is when the log was first written (often at the end), not when the job started:
            // the runs below say when each job started.
            logRows.add(new String[] {"DATE", "SCHEDULE", "STATUS", "FAILED", "ENDED", "RUN", "FAILURE"});
            PipelineZones zones = new PipelineZones(client).read(pipeline, config);
            for (JsonNode l : runLogs) {
                logRows.add(new String[] {
                    Output.text(l, "date"),
                    Output.text(l, "scheduleId"),
                    Output.text(l, "status"),
                    String.valueOf(l.path("attemptNumber").asInt()),
                    Output.time(
                            l,
                            "completedAt",
                            zones.of(pipeline, l.path("scheduleId").asText(null))),
                    Output.text(l, "runId"),
                    l.hasNonNull("failureMessage") ? l.get("failureMessage").asText() : ""
                });
            }
            Output.table(System.out, logRows);
            System.out.println();
            System.out.println("runs (one per job started):");
            List<String[]> runRows = new ArrayList<>();
            runRows.add(new String[] {"RUN", "DATE", "SCHEDULE", "STATUS", "STARTED", "ENDED", "JOB", "FAILURE"});
            for (JsonNode r : runList) {
                runRows.add(new String[] {
                    Output.text(r, "runId"),
                    Output.text(r, "date"),
                    Output.text(r, "scheduleId"),
                    Output.text(r, "status"),
                    Output.time(
                            r,
                            "createdAt",
                            zones.of(pipeline, r.path("scheduleId").asText(null))),
                    ended(r, zones.of(pipeline, r.path("scheduleId").asText(null))),
                    job(r),
                    r.hasNonNull("failureMessage") ? r.get("failureMessage").asText() : ""
                });
            }
            Output.table(System.out, runRows);
            return 0;
        }
    }

    /** When a run ended: its last update once its status is terminal; {@code -} while it is still going. */
    static String ended(JsonNode run, java.time.ZoneId zone) {
        for (RunStatus s : RunStatus.values()) {
            if (s.isTerminal() && s.name().equals(run.path("status").asText())) {
                return Output.time(run, "updatedAt", zone);
            }
        }
        return "-";
    }

    /**
     * A run's job as its job system names it ({@code glue jr_…}, {@code airflow manual__…}), with a link to the job's
     * page when the run's metadata names one; {@code -} when the job system gives no id (HTTP).
     */
    static String job(JsonNode run) {
        String wire = run.path("triggerType").asText();
        TriggerType type = null;
        for (TriggerType t : TriggerType.values()) {
            if (t.wireName().equals(wire)) {
                type = t;
            }
        }
        Map<String, String> metadata = new TreeMap<>();
        run.path("metadata")
                .fields()
                .forEachRemaining(f -> metadata.put(f.getKey(), f.getValue().asText()));
        String id = JobMetadata.jobId(type, metadata);
        if (id == null) {
            return "-";
        }
        String link = JobMetadata.link(type, metadata);
        return wire + " " + id + (link == null ? "" : " " + link);
    }

    @Command(name = "evaluate", description = "Ask for an evaluation now (writes a manual marker).")
    static final class Evaluate implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--schedule", description = "Schedule id (default: daily).")
        String schedule;

        @Option(
                names = "--date",
                description = "Execution date YYYY-MM-DD (default: today in the schedule's time zone).")
        String date;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            if (schedule != null) {
                body.put("scheduleId", schedule);
            }
            if (date != null) {
                body.put("date", date);
            }
            ApiClient.Answer a =
                    api.client().post("/pipelines/" + ApiClient.segment(pipeline) + "/evaluations", body.toString());
            if (!a.ok() || format.json()) {
                return print(a, "requesting an evaluation of " + pipeline);
            }
            JsonNode started = Output.parse(a.body());
            JsonNode marker = started.path("marker");
            System.out.println("evaluation requested:");
            Output.table(System.out, List.of(new String[] {"PIPELINE", "DATE", "SCHEDULE", "EXECUTION"}, new String[] {
                Output.text(marker, "pipelineId"),
                Output.text(marker, "date"),
                Output.text(marker, "scheduleId"),
                Output.text(started, "executionName")
            }));
            System.out.println("Follow it with: interlock why " + pipeline + " --date " + Output.text(marker, "date"));
            return 0;
        }
    }

    @Command(name = "rerun", description = "Re-run a completed (pipeline, date, schedule).")
    static final class Rerun implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(
                names = "--date",
                description = "Execution date YYYY-MM-DD (default: today in the schedule's time zone).")
        String date;

        @Option(names = "--schedule", description = "Schedule id (default: daily).")
        String schedule;

        @Option(names = "--reason", required = true, description = "Why, for the rerun record.")
        String reason;

        @Override
        public Integer call() {
            ObjectNode body = Output.json().createObjectNode();
            if (date != null) {
                body.put("date", date);
            }
            body.put("reason", reason);
            if (schedule != null) {
                body.put("scheduleId", schedule);
            }
            ApiClient.Answer a =
                    api.client().post("/pipelines/" + ApiClient.segment(pipeline) + "/reruns", body.toString());
            if (!a.ok() || format.json()) {
                return print(a, "requesting a rerun of " + pipeline);
            }
            JsonNode accepted = Output.parse(a.body());
            JsonNode rerun = accepted.path("rerun");
            System.out.println("rerun requested:");
            Output.table(
                    System.out,
                    List.of(
                            new String[] {"PIPELINE", "DATE", "SCHEDULE", "RERUN", "STATUS", "EXECUTION"},
                            new String[] {
                                Output.text(rerun, "pipelineId"),
                                Output.text(rerun, "date"),
                                Output.text(rerun, "scheduleId"),
                                Output.text(rerun, "rerunId"),
                                Output.text(rerun, "status"),
                                Output.text(accepted, "executionName")
                            }));
            System.out.println("Follow it with: interlock reruns " + pipeline);
            return 0;
        }
    }

    @Command(name = "reruns", description = "List a pipeline's reruns, newest first, with their status (every page).")
    static final class Reruns implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Override
        public Integer call() throws Exception {
            ApiClient client = api.client();
            String cursor = null;
            int count = 0;
            List<JsonNode> all = new ArrayList<>();
            PipelineZones zones = new PipelineZones(client);
            do {
                ApiClient.Answer a = client.get("/pipelines/" + ApiClient.segment(pipeline) + "/reruns?limit=100"
                        + (cursor == null ? "" : "&cursor=" + ApiClient.segment(cursor)));
                if (!a.ok()) {
                    return print(a, "listing reruns of " + pipeline);
                }
                JsonNode page = Output.parse(a.body());
                for (JsonNode r : page.path("items")) {
                    count++;
                    if (format.json()) {
                        all.add(r);
                        continue;
                    }
                    System.out.printf(
                            "%s  %s %-8s %-9s %-12s %s  (%s)%s%n",
                            Output.time(
                                    r,
                                    "requestedAt",
                                    zones.of(pipeline, r.path("scheduleId").asText(null))),
                            r.path("date").asText(),
                            r.path("scheduleId").asText(),
                            r.path("status").asText(),
                            r.path("source").asText(),
                            r.path("rerunId").asText(),
                            r.path("reason").asText(),
                            r.hasNonNull("statusReason")
                                    ? "  " + r.path("statusReason").asText()
                                    : "");
                }
                cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
            } while (cursor != null);
            if (format.json()) {
                Output.pretty(System.out, Output.items(all));
                return 0;
            }
            System.out.println(count + " rerun(s)");
            return 0;
        }
    }

    @Command(
            name = "unlock",
            description = "Release the evaluation lock of a (pipeline, schedule, date) whose execution "
                    + "died or was aborted (audited; absorbed work is handed on). A holder whose execution is "
                    + "still RUNNING is refused (409, naming it) unless --force, which stops that execution first.")
    static final class Unlock implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Mixin
        Output.Format format;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--date", required = true, description = "Execution date YYYY-MM-DD of the locked day.")
        String date;

        @Option(names = "--schedule", description = "Schedule id (default: daily).")
        String schedule;

        @Option(names = "--reason", description = "Why, for the LOCK_RELEASED audit event.")
        String reason;

        @Option(
                names = "--force",
                description = "Also when the holder's execution is still RUNNING: stop it (StopExecution), then "
                        + "release its lock, so the day's job still runs once.")
        boolean force;

        @Override
        public Integer call() throws Exception {
            List<String> query = new ArrayList<>();
            if (reason != null) {
                query.add("reason=" + ApiClient.segment(reason));
            }
            if (force) {
                query.add("force=true");
            }
            String path = "/pipelines/" + ApiClient.segment(pipeline) + "/locks/"
                    + ApiClient.segment(schedule == null ? "daily" : schedule) + "/" + ApiClient.segment(date)
                    + (query.isEmpty() ? "" : "?" + String.join("&", query));
            ApiClient.Answer a = api.client().delete(path);
            if (!a.ok() || format.json()) {
                return print(a, "releasing the lock of " + pipeline);
            }
            System.out.print(released(Output.parse(a.body())));
            return 0;
        }

        /** The release in words: whose lock it was, what was stopped, and what was handed on. */
        static String released(JsonNode r) {
            StringBuilder text = new StringBuilder("released the lock of " + Output.text(r, "pipelineId") + " schedule "
                    + Output.text(r, "scheduleId") + " on " + Output.text(r, "date") + "\n");
            text.append("  held by    ")
                    .append(Output.text(r, "previousHolder"))
                    .append(" since ")
                    .append(Output.text(r, "heldSince"))
                    .append(" (would have expired ")
                    .append(Output.text(r, "expiresAt"))
                    .append(")\n");
            if (r.hasNonNull("stoppedExecution")) {
                text.append("  stopped    ")
                        .append(Output.text(r, "stoppedExecution"))
                        .append(" (it was still RUNNING)\n");
            }
            text.append("  audited    LOCK_RELEASED by ")
                    .append(Output.text(r, "releasedBy"))
                    .append(r.hasNonNull("reason") ? ": " + Output.text(r, "reason") : " (no reason given)")
                    .append("\n");
            int absorbed = r.path("absorbed").asInt();
            if (r.hasNonNull("reEmittedExecution")) {
                text.append("  handed on  ")
                        .append(absorbed)
                        .append(" marker(s) that arrived while it was held: execution ")
                        .append(Output.text(r, "reEmittedExecution"))
                        .append("\n");
            } else if (absorbed > 0) {
                text.append("  handed on  ").append(absorbed).append(" marker(s) that arrived while it was held\n");
            }
            return text.toString();
        }
    }
}
