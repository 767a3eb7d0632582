package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.local.aws.LocalArns;
import dev.interlock.model.trigger.JobStateRule;
import dev.interlock.statemachine.engine.EngineClock;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Amazon EMR Serverless's job-run API on the local runtime (REST-JSON under {@code /applications/…/jobruns}):
 * {@code StartJobRun} (idempotent on {@code clientToken}), {@code GetJobRun}, {@code ListJobRuns} and {@code CancelJobRun} run job fakes on
 * any application id, and each run's start and end are published as {@code EMR Serverless Job Run State Change}.
 */
public final class EmrServerlessJobs {

    private static final Pattern JOB_RUNS = Pattern.compile("^/applications/([^/]+)/jobruns/?$");
    private static final Pattern JOB_RUN = Pattern.compile("^/applications/([^/]+)/jobruns/([^/]+)$");
    private static final String ID_CHARACTERS = "0123456789abcdefghijklmnopqrstuvwxyz";
    private static final String RELEASE_LABEL = "emr-7.0.0";
    private static final String CREATED_BY = "arn:aws:iam::" + LocalArns.ACCOUNT + ":role/interlock-local";

    private record JobRun(
            String applicationId,
            String name,
            String executionRole,
            String clientToken,
            JsonNode jobDriver,
            FakeRun fake) {}

    private final EngineClock clock;
    private final JobEvents events;
    private final Map<String, JobRun> runs = new ConcurrentHashMap<>();
    private final Map<String, String> byClientToken = new ConcurrentHashMap<>();
    private final FakeRunJournal journal;
    private final StartHolds holds;
    private Runnable resumption;

    EmrServerlessJobs(EngineClock clock, JobEvents events, FakeRunJournal journal, StartHolds holds) {
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
                    JsonNode r = restored.record();
                    JobRun run = new JobRun(
                            r.path("applicationId").asText(),
                            r.hasNonNull("name") ? r.get("name").asText() : null,
                            r.path("executionRole").asText(),
                            r.hasNonNull("clientToken") ? r.get("clientToken").asText() : null,
                            r.path("jobDriver").deepCopy(),
                            fake);
                    runs.put(restored.id(), run);
                    if (run.clientToken() != null) {
                        byClientToken.put(run.applicationId() + "/" + run.clientToken(), restored.id());
                    }
                    return run;
                },
                JobRun::fake,
                run -> ended(run, run.fake().phase(clock.now()) == FakeRun.Phase.STOPPED ? "CANCELLING" : "RUNNING"));
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

    private void ended(JobRun run, String previousState) {
        publish(run, previousState);
        journal.endPublished(run.fake());
    }

    /** Whether {@code path} is one of this API's resources. */
    public boolean handles(String path) {
        return path.startsWith("/applications/");
    }

    public void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String method = exchange.getRequestMethod();
        try {
            Matcher list = JOB_RUNS.matcher(path);
            Matcher one = JOB_RUN.matcher(path);
            Object answer;
            if (list.matches() && method.equals("POST")) {
                answer = start(list.group(1), AwsJson.readBody(exchange));
            } else if (list.matches() && method.equals("GET")) {
                answer = Map.of("jobRuns", list(list.group(1)));
            } else if (one.matches() && method.equals("GET")) {
                answer = Map.of("jobRun", describe(find(one.group(1), one.group(2))));
            } else if (one.matches() && method.equals("DELETE")) {
                answer = cancel(find(one.group(1), one.group(2)));
            } else {
                throw new AwsJson.Failure(
                        404,
                        "ResourceNotFoundException",
                        "no local EMR Serverless operation at " + method + " " + path);
            }
            AwsJson.reply(exchange, 200, answer, "application/json");
        } catch (AwsJson.Failure f) {
            AwsJson.error(exchange, f.status(), f.code(), f.getMessage(), "application/json");
        }
    }

    private Map<String, Object> start(String applicationId, JsonNode request) {
        holds.beforeAccepting(applicationId);
        String token = AwsJson.text(request, "clientToken");
        if (token != null && byClientToken.containsKey(applicationId + "/" + token)) {
            // The same token starts nothing new: a retried StartJobRun gets its run back.
            return started(runs.get(byClientToken.get(applicationId + "/" + token)));
        }
        String role = AwsJson.required(request, "executionRoleArn");
        JsonNode driver = request.path("jobDriver");
        List<String> args = new ArrayList<>();
        driver.path("sparkSubmit").path("entryPointArguments").forEach(a -> args.add(a.asText()));
        FakeJob fake;
        try {
            fake = FakeJob.fromArgs(args);
        } catch (IllegalArgumentException e) {
            throw AwsJson.Failure.of(
                    "ValidationException", "jobDriver.sparkSubmit.entryPointArguments: " + e.getMessage());
        }
        String id = id();
        JobRun run = new JobRun(
                applicationId,
                AwsJson.text(request, "name"),
                role,
                token,
                driver.deepCopy(),
                FakeRun.create(clock, id, fake));
        ObjectNode record = AwsJson.JSON
                .createObjectNode()
                .put("applicationId", applicationId)
                .put("name", run.name())
                .put("executionRole", role)
                .put("clientToken", token);
        record.set("jobDriver", run.jobDriver());
        journal.started(run.fake(), record);
        runs.put(id, run);
        if (token != null) {
            byClientToken.put(applicationId + "/" + token, id);
        }
        publish(run, "SCHEDULED");
        run.fake().begin(clock, ended -> ended(run, "RUNNING"));
        holds.afterAccepting(applicationId);
        return started(run);
    }

    private static Map<String, Object> started(JobRun run) {
        return Map.of(
                "applicationId", run.applicationId(), "jobRunId", run.fake().id(), "arn", arn(run));
    }

    private JobRun find(String applicationId, String jobRunId) {
        JobRun run = runs.get(jobRunId);
        if (run == null || !run.applicationId().equals(applicationId)) {
            throw new AwsJson.Failure(
                    404,
                    "ResourceNotFoundException",
                    "Job run " + jobRunId + " does not exist in application " + applicationId);
        }
        return run;
    }

    /** ListJobRuns: the application's job runs, newest first (one page: the fakes hold few). */
    private List<Map<String, Object>> list(String applicationId) {
        Instant now = clock.now();
        return runs.values().stream()
                .filter(r -> r.applicationId().equals(applicationId))
                .sorted((a, b) -> b.fake().startedAt().compareTo(a.fake().startedAt()))
                .map(r -> {
                    Map<String, Object> summary = new LinkedHashMap<>();
                    summary.put("applicationId", r.applicationId());
                    summary.put("id", r.fake().id());
                    if (r.name() != null) {
                        summary.put("name", r.name());
                    }
                    summary.put("arn", arn(r));
                    summary.put("createdBy", CREATED_BY);
                    summary.put("createdAt", r.fake().startedAt());
                    summary.put(
                            "updatedAt",
                            r.fake().ended(now) ? r.fake().endsAt() : r.fake().startedAt());
                    summary.put("executionRole", r.executionRole());
                    summary.put("state", state(r.fake().phase(now)));
                    summary.put("stateDetails", "");
                    summary.put("releaseLabel", RELEASE_LABEL);
                    summary.put("type", "Spark");
                    return summary;
                })
                .toList();
    }

    private Map<String, Object> describe(JobRun run) {
        Instant now = clock.now();
        FakeRun.Phase phase = run.fake().phase(now);
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("applicationId", run.applicationId());
        out.put("jobRunId", run.fake().id());
        if (run.name() != null) {
            out.put("name", run.name());
        }
        out.put("arn", arn(run));
        out.put("createdBy", CREATED_BY);
        out.put("createdAt", run.fake().startedAt());
        out.put(
                "updatedAt",
                run.fake().ended(now) ? run.fake().endsAt() : run.fake().startedAt());
        out.put("executionRole", run.executionRole());
        out.put("state", state(phase));
        out.put("stateDetails", phase == FakeRun.Phase.FAILED ? run.fake().failureMessage() : "");
        out.put("releaseLabel", RELEASE_LABEL);
        out.put("jobDriver", run.jobDriver());
        out.put(
                "totalExecutionDurationSeconds",
                Duration.between(
                                run.fake().startedAt(),
                                run.fake().ended(now) ? run.fake().endsAt() : now)
                        .toSeconds());
        return out;
    }

    private Map<String, Object> cancel(JobRun run) {
        if (run.fake().stop(clock.now())) {
            journal.stopped(run.fake(), run.fake().endsAt());
            ended(run, "CANCELLING");
        }
        return Map.of(
                "applicationId", run.applicationId(), "jobRunId", run.fake().id());
    }

    /** EMR Serverless publishes every state change, with the state before it. */
    private void publish(JobRun run, String previousState) {
        Instant now = clock.now();
        FakeRun.Phase phase = run.fake().phase(now);
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("jobRunId", run.fake().id());
        detail.put("jobRunName", run.name() == null ? "" : run.name());
        detail.put("applicationId", run.applicationId());
        detail.put("arn", arn(run));
        detail.put("releaseLabel", RELEASE_LABEL);
        detail.put("state", state(phase));
        detail.put("previousState", previousState);
        detail.put("createdBy", CREATED_BY);
        detail.put(
                "updatedAt",
                (phase == FakeRun.Phase.RUNNING
                                ? run.fake().startedAt()
                                : run.fake().endsAt())
                        .toString());
        detail.put("createdAt", run.fake().startedAt().toString());
        events.publish(
                JobStateRule.EMR_SERVERLESS,
                List.of(arn(run)),
                detail,
                phase == FakeRun.Phase.RUNNING
                        ? run.fake().startedAt()
                        : run.fake().endsAt());
    }

    private static String state(FakeRun.Phase phase) {
        return switch (phase) {
            case RUNNING -> "RUNNING";
            case SUCCEEDED -> "SUCCESS";
            case FAILED -> "FAILED";
            case STOPPED -> "CANCELLED";
        };
    }

    private static String arn(JobRun run) {
        return "arn:aws:emr-serverless:" + LocalArns.REGION + ":" + LocalArns.ACCOUNT + ":/applications/"
                + run.applicationId() + "/jobruns/" + run.fake().id();
    }

    private static String id() {
        StringBuilder id = new StringBuilder(16);
        for (int i = 0; i < 16; i++) {
            id.append(ID_CHARACTERS.charAt(ThreadLocalRandom.current().nextInt(ID_CHARACTERS.length())));
        }
        return id.toString();
    }
}
