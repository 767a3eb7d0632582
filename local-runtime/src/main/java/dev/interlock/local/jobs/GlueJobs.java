package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.statemachine.engine.EngineClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * AWS Glue's job-run API on the local runtime (JSON 1.1, {@code AWSGlue.*}): {@code StartJobRun}, {@code GetJobRun},
 * {@code GetJobRuns} and {@code BatchStopJobRun} run job fakes for any job name, and each run's end is published as a
 * {@code Glue Job State Change} event. Runs are journaled ({@link FakeRunJournal}), so they outlive a restart.
 */
public final class GlueJobs implements AwsJson.Service {

    private record Run(String jobName, Map<String, String> arguments, FakeRun fake) {}

    private final EngineClock clock;
    private final JobEvents events;
    private final Map<String, Run> runs = new ConcurrentHashMap<>();
    private final FakeRunJournal journal;
    private final StartHolds holds;
    private Runnable resumption;

    GlueJobs(EngineClock clock, JobEvents events, FakeRunJournal journal, StartHolds holds) {
        this.clock = clock;
        this.events = events;
        this.journal = journal;
        this.holds = holds;
        this.resumption = restore();
    }

    /** Reads the journaled runs back (at construction: the API answers for them from its first call). */
    private Runnable restore() {
        return journal.restore(
                clock,
                (restored, fake) -> {
                    Map<String, String> arguments = new LinkedHashMap<>();
                    restored.record()
                            .path("arguments")
                            .properties()
                            .forEach(e -> arguments.put(e.getKey(), e.getValue().asText()));
                    Run run = new Run(restored.record().path("jobName").asText(), Map.copyOf(arguments), fake);
                    runs.put(restored.id(), run);
                    return run;
                },
                Run::fake,
                this::publish);
    }

    /**
     * Lets the restored runs go on once the event bus and the executions are up: a running one ends at its due time, an
     * unpublished end is published now.
     */
    void resume() {
        Runnable goOn = resumption;
        resumption = () -> {};
        goOn.run();
    }

    /** One line of a run's error log: when it was written and what. */
    record LogLine(String stream, java.time.Instant timestamp, String message) {}

    /**
     * The error-log lines of the runs started so far ({@code /aws-glue/jobs/error}): a run given {@link
     * FakeJob#LOG_ERRORS_KEY} wrote its start line and then those lines, each on its own stream named by its run id;
     * other runs wrote nothing there. Read from the journaled arguments, so they outlive a restart as the runs do.
     */
    List<LogLine> errorLog() {
        List<LogLine> lines = new ArrayList<>();
        runs.values().stream()
                .sorted((a, b) -> a.fake().startedAt().compareTo(b.fake().startedAt()))
                .forEach(run -> {
                    String errors = run.arguments().get(FakeJob.LOG_ERRORS_KEY);
                    if (errors == null) {
                        return;
                    }
                    var at = run.fake().startedAt();
                    lines.add(new LogLine(run.fake().id(), at, "INFO GlueContext: job " + run.jobName() + " started"));
                    for (String line : errors.split("\\R|\\\\n")) {
                        if (!line.isBlank()) {
                            at = at.plusMillis(1);
                            lines.add(new LogLine(run.fake().id(), at, line));
                        }
                    }
                });
        return lines;
    }

    /** How many runs of {@code jobName} were started (StartJobRun calls that started one). */
    public long started(String jobName) {
        return runs.values().stream().filter(r -> r.jobName().equals(jobName)).count();
    }

    @Override
    public String targetPrefix() {
        return "AWSGlue.";
    }

    @Override
    public String contentType() {
        return AwsJson.JSON_1_1;
    }

    @Override
    public Object call(String operation, JsonNode request) {
        return switch (operation) {
            case "StartJobRun" -> start(request);
            case "GetJobRun" ->
                Map.of(
                        "JobRun",
                        describe(find(AwsJson.required(request, "JobName"), AwsJson.required(request, "RunId"))));
            case "GetJobRuns" -> list(AwsJson.required(request, "JobName"));
            case "BatchStopJobRun" -> stop(request);
            default ->
                throw AwsJson.Failure.of(
                        "UnknownOperationException",
                        "operation " + operation + " is not supported by the local Glue job fakes");
        };
    }

    private Map<String, Object> start(JsonNode request) {
        String jobName = AwsJson.required(request, "JobName");
        holds.beforeAccepting(jobName);
        Map<String, String> arguments = new LinkedHashMap<>();
        request.path("Arguments")
                .properties()
                .forEach(e -> arguments.put(e.getKey(), e.getValue().asText()));
        FakeJob fake;
        try {
            fake = FakeJob.fromMap(arguments);
        } catch (IllegalArgumentException e) {
            throw AwsJson.Failure.of("InvalidInputException", "Arguments: " + e.getMessage());
        }
        String id = "jr_" + HexFormat.of().formatHex(randomBytes(32));
        Run run = new Run(jobName, Map.copyOf(arguments), FakeRun.create(clock, id, fake));
        ObjectNode record = AwsJson.JSON.createObjectNode().put("jobName", jobName);
        record.set("arguments", AwsJson.JSON.valueToTree(arguments));
        journal.started(run.fake(), record);
        runs.put(id, run);
        run.fake().begin(clock, ended -> publish(run));
        holds.afterAccepting(jobName);
        return Map.of("JobRunId", id);
    }

    private Run find(String jobName, String runId) {
        Run run = runs.get(runId);
        if (run == null || !run.jobName().equals(jobName)) {
            throw AwsJson.Failure.of(
                    "EntityNotFoundException", "Job run " + runId + " of job " + jobName + " not found");
        }
        return run;
    }

    /** GetJobRuns: the job's runs, newest first (one page: the fakes hold few). */
    private Map<String, Object> list(String jobName) {
        List<Map<String, Object>> out = runs.values().stream()
                .filter(r -> r.jobName().equals(jobName))
                .sorted((a, b) -> b.fake().startedAt().compareTo(a.fake().startedAt()))
                .map(this::describe)
                .toList();
        return Map.of("JobRuns", out);
    }

    private Map<String, Object> describe(Run run) {
        FakeRun fake = run.fake();
        var now = clock.now();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("Id", fake.id());
        out.put("Attempt", 0);
        out.put("JobName", run.jobName());
        out.put("StartedOn", fake.startedAt());
        out.put("LastModifiedOn", fake.ended(now) ? fake.endsAt() : fake.startedAt());
        if (fake.ended(now)) {
            out.put("CompletedOn", fake.endsAt());
        }
        out.put("JobRunState", state(fake.phase(now)));
        out.put("Arguments", run.arguments());
        if (fake.phase(now) == FakeRun.Phase.FAILED) {
            out.put("ErrorMessage", fake.failureMessage());
        } else if (fake.phase(now) == FakeRun.Phase.SUCCEEDED
                && run.arguments().containsKey(FakeJob.ERROR_MESSAGE_KEY)) {
            out.put("ErrorMessage", run.arguments().get(FakeJob.ERROR_MESSAGE_KEY));
        }
        out.put(
                "ExecutionTime",
                Duration.between(fake.startedAt(), fake.ended(now) ? fake.endsAt() : now)
                        .toSeconds());
        return out;
    }

    private Map<String, Object> stop(JsonNode request) {
        String jobName = AwsJson.required(request, "JobName");
        List<Map<String, Object>> stopped = new ArrayList<>();
        List<Map<String, Object>> errors = new ArrayList<>();
        for (JsonNode id : request.path("JobRunIds")) {
            Run run = runs.get(id.asText());
            if (run == null || !run.jobName().equals(jobName)) {
                errors.add(Map.of(
                        "JobName",
                        jobName,
                        "JobRunId",
                        id.asText(),
                        "ErrorDetail",
                        Map.of(
                                "ErrorCode",
                                "EntityNotFoundException",
                                "ErrorMessage",
                                "Job run " + id.asText() + " not found")));
            } else if (FakeJob.STOP_IGNORED.equals(run.arguments().get(FakeJob.STOP_KEY))
                    && !run.fake().ended(clock.now())) {
                // Accepted, yet the run goes on to its outcome: a job in its final commit when the stop came.
                stopped.add(Map.of("JobName", jobName, "JobRunId", id.asText()));
            } else if (run.fake().stop(clock.now())) {
                journal.stopped(run.fake(), run.fake().endsAt());
                stopped.add(Map.of("JobName", jobName, "JobRunId", id.asText()));
                publish(run);
            } else {
                errors.add(Map.of(
                        "JobName",
                        jobName,
                        "JobRunId",
                        id.asText(),
                        "ErrorDetail",
                        Map.of(
                                "ErrorCode",
                                "InvalidInputException",
                                "ErrorMessage",
                                "Job run " + id.asText() + " has ended")));
            }
        }
        return Map.of("SuccessfulSubmissions", stopped, "Errors", errors);
    }

    /** Glue publishes only terminal states, as {@code Glue Job State Change}. */
    private void publish(Run run) {
        FakeRun.Phase phase = run.fake().phase(clock.now());
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("jobName", run.jobName());
        detail.put("severity", phase == FakeRun.Phase.FAILED ? "ERROR" : "INFO");
        detail.put("state", state(phase));
        detail.put("jobRunId", run.fake().id());
        detail.put(
                "message",
                switch (phase) {
                    case SUCCEEDED -> "Job run succeeded";
                    case FAILED -> run.fake().failureMessage();
                    case STOPPED -> "Job run stopped";
                    case RUNNING -> "Job run running";
                });
        events.publish(JobStateRule.GLUE, List.of(), detail, run.fake().endsAt());
        journal.endPublished(run.fake());
    }

    private static String state(FakeRun.Phase phase) {
        return switch (phase) {
            case RUNNING -> "RUNNING";
            case SUCCEEDED -> "SUCCEEDED";
            case FAILED -> "FAILED";
            case STOPPED -> "STOPPED";
        };
    }

    static byte[] randomBytes(int n) {
        byte[] bytes = new byte[n];
        ThreadLocalRandom.current().nextBytes(bytes);
        return bytes;
    }
}
