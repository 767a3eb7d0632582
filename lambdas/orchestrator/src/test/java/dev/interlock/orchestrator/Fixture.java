package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.LockHolder;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.Documents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One orchestrator on the in-memory Provider with a hand-moved clock and a recording alert publisher; requests go
 * through the Lambda handler as bytes, exactly as the local runtime and Lambda deliver them.
 */
final class Fixture {

    /** A Monday. */
    static final LocalDate DATE = LocalDate.of(2026, 3, 2);

    static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
    /** When {@link #register} registers: the start of {@link #DATE} in UTC. */
    static final Instant REGISTERED = Instant.parse("2026-03-02T00:00:00Z");

    static final String PIPELINE = "orders";
    static final String EXECUTION = "orders_2026-03-02_daily_abcd1234";

    final ManualClock clock = new ManualClock(T0);
    final InMemoryProvider provider = new InMemoryProvider(clock);
    final RecordingAlerts alerts = new RecordingAlerts();
    final OrchestratorSettings settings = new OrchestratorSettings(14400, 2, 7);
    final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    final RecordingCallbacks callbacks = new RecordingCallbacks();
    final JobSystem jobSystem = new JobSystem();
    /** The post-run checks' evaluator: every check's verdict, as a test sets it; how many checks it judged. */
    PostRunEvaluation postRunAnswer = PostRunEvaluation.UNAVAILABLE;

    int postRunEvaluations;
    final OrchestratorHandler handler = new OrchestratorHandler(new Orchestrator(
            provider,
            clock,
            alerts,
            settings,
            new StructuredLog("orchestrator", new PrintStream(logs, true, StandardCharsets.UTF_8), clock),
            callbacks,
            jobSystem,
            check -> {
                postRunEvaluations++;
                return postRunAnswer.evaluate(check);
            }));

    /** What every action of {@link #handler} works with. */
    Collaborators collaborators() {
        return collaborators(provider);
    }

    /** The same collaborators over another provider (e.g. one that counts or fails calls). */
    Collaborators collaborators(dev.interlock.store.Provider over) {
        StructuredLog log =
                new StructuredLog("orchestrator", new PrintStream(logs, true, StandardCharsets.UTF_8), clock);
        return new Collaborators(
                over,
                clock,
                new dev.interlock.wiring.alert.DeduplicatedAlerts(over.alerts(), alerts, clock, log),
                settings,
                log,
                callbacks,
                jobSystem);
    }

    /** The job systems as the watchdog's run checks see them: each job's state as set, asked calls recorded. */
    static final class JobSystem implements dev.interlock.jobs.RunChecker {
        final java.util.Map<String, dev.interlock.jobs.RunCheck> states =
                new java.util.concurrent.ConcurrentHashMap<>();
        final java.util.List<dev.interlock.jobs.RunCheckRequest> asked =
                new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public dev.interlock.jobs.RunCheck check(dev.interlock.jobs.RunCheckRequest request) {
            asked.add(request);
            String jobId = dev.interlock.model.run.JobMetadata.jobId(request.triggerType(), request.metadata());
            return states.getOrDefault(jobId, dev.interlock.jobs.RunCheck.running("job " + jobId + " is running"));
        }
    }

    /** SendTaskSuccess/SendTaskFailure as recorded; a token answers once, like a task that stops waiting. */
    static final class RecordingCallbacks implements TaskCallbacks {
        record Sent(String token, String kind, String body) {}

        final java.util.List<Sent> sent = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final java.util.Set<String> ended = java.util.concurrent.ConcurrentHashMap.newKeySet();

        @Override
        public boolean succeed(String taskToken, String outputJson) {
            sent.add(new Sent(taskToken, "success", outputJson));
            return ended.add(taskToken);
        }

        @Override
        public boolean fail(String taskToken, String error, String cause) {
            sent.add(new Sent(taskToken, "failure", error + ": " + cause));
            return ended.add(taskToken);
        }

        /** DescribeExecution's answers by execution ARN (absent: no such execution); the ARNs asked about. */
        final java.util.Map<String, String> executions = new java.util.concurrent.ConcurrentHashMap<>();

        final java.util.List<String> described = new java.util.concurrent.CopyOnWriteArrayList<>();

        @Override
        public java.util.Optional<String> executionStatus(String executionArn) {
            described.add(executionArn);
            return java.util.Optional.ofNullable(executions.get(executionArn));
        }

        /** The wait of {@code taskToken} ended without a callback (its execution was aborted or timed out). */
        void endWithoutCallback(String taskToken) {
            ended.add(taskToken);
        }
    }

    /** The request the Glue job-state rule sends {@code jobStateChange} for a run of {@code jobName} ending {@code state}. */
    JsonNode glueEvent(String jobName, String jobRunId, String state) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("jobName", jobName);
        detail.put("state", state);
        detail.put("jobRunId", jobRunId);
        detail.put("message", "Job run " + state.toLowerCase(java.util.Locale.ROOT));
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("action", OrchestratorAction.JOB_STATE_CHANGE.wireName());
        request.put(
                "payload",
                Map.of(
                        "source",
                        "aws.glue",
                        "detailType",
                        "Glue Job State Change",
                        "time",
                        "2026-03-02T10:05:00Z",
                        "detail",
                        detail));
        return call(request);
    }

    /** The request EventBridge sends the watchdog. */
    ActionRequest watchdogRequest() {
        return new ActionRequest(
                OrchestratorAction.WATCHDOG,
                null,
                null,
                LocalDate.ofInstant(clock.instant(), java.time.ZoneOffset.UTC),
                null,
                null,
                null);
    }

    /**
     * A minimal valid pipeline: bundled archetype, an HTTP trigger; {@code extraYaml} adds top-level keys. It is
     * registered at {@link #REGISTERED} (midnight UTC of {@link #DATE}), before any window of that day opened, so the
     * watchdog watches the whole day; the clock is left where it was.
     */
    PipelineConfig register(String name, String extraYaml) {
        return registerAt(REGISTERED, name, extraYaml);
    }

    /** {@link #register} at {@code at}: windows that opened and deadlines that passed before it are not watched. */
    PipelineConfig registerAt(Instant at, String name, String extraYaml) {
        String yaml = "name: " + name + "\n"
                + "archetype: batch-ingestion\n"
                + "trigger:\n  type: http\n  url: https://jobs.example.com/run\n"
                + extraYaml;
        PipelineConfig config = Documents.read(yaml, PipelineConfig.class);
        Instant before = clock.instant();
        clock.set(at);
        provider.pipelines().put(config);
        clock.set(before);
        return config;
    }

    PipelineConfig register(String extraYaml) {
        return register(PIPELINE, extraYaml);
    }

    /** A request envelope with the defaults the state machine sends; callers add runId/payload. */
    Map<String, Object> request(OrchestratorAction action) {
        return request(action.wireName());
    }

    Map<String, Object> request(OrchestratorAction action, Map<String, ?> payload) {
        return request(action.wireName(), payload);
    }

    Map<String, Object> request(OrchestratorAction action, String runId, Map<String, ?> payload) {
        return request(action.wireName(), runId, payload);
    }

    /** A request naming {@code action} as given, for the tests of how the envelope is read. */
    Map<String, Object> request(String action) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("action", action);
        r.put("pipelineId", PIPELINE);
        r.put("scheduleId", "daily");
        r.put("date", DATE.toString());
        r.put("executionName", EXECUTION);
        r.put("payload", new LinkedHashMap<String, Object>());
        return r;
    }

    private Map<String, Object> request(String action, Map<String, ?> payload) {
        Map<String, Object> r = request(action);
        r.put("payload", payload);
        return r;
    }

    private Map<String, Object> request(String action, String runId, Map<String, ?> payload) {
        Map<String, Object> r = request(action, payload);
        r.put("runId", runId);
        return r;
    }

    JsonNode call(Map<String, Object> request) {
        return call(InterlockJson.write(request));
    }

    /** Calls an orchestrator over another provider (e.g. one that counts calls), with this fixture's clock and settings. */
    JsonNode callOver(dev.interlock.store.Provider over, Map<String, Object> request) {
        holdLockAsTheMachineWould(InterlockJson.write(request));
        OrchestratorHandler other = new OrchestratorHandler(new Orchestrator(
                over,
                clock,
                alerts,
                settings,
                new StructuredLog("orchestrator", new PrintStream(logs, true, StandardCharsets.UTF_8), clock),
                callbacks));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            other.handleRequest(
                    new ByteArrayInputStream(InterlockJson.write(request).getBytes(StandardCharsets.UTF_8)), out, null);
            return InterlockJson.json().readTree(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode call(String rawJson) {
        holdLockAsTheMachineWould(rawJson);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(new ByteArrayInputStream(rawJson.getBytes(StandardCharsets.UTF_8)), out, null);
            return InterlockJson.json().readTree(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * In the machine every action whose writes are fenced by the lock (run creation, run log) runs after
     * {@code acquireLock}: the requesting execution takes its day's lock first. An execution an earlier request of the
     * test stood for has finished and released it by then; a holder the test itself put there keeps it (the action is
     * fenced out, as it would be). The lock outlives any clock a test moves on.
     */
    private final Set<String> heldForRequests = new HashSet<>();

    private void holdLockAsTheMachineWould(String rawJson) {
        JsonNode request;
        try {
            request = InterlockJson.json().readTree(rawJson);
        } catch (IOException e) {
            return;
        }
        String action = request.path("action").asText();
        String owner = request.path("executionName").asText("");
        if (!(action.equals(OrchestratorAction.RESOLVE_PIPELINE.wireName())
                        || action.equals(OrchestratorAction.LOG_RESULT.wireName()))
                || owner.isBlank()) {
            return;
        }
        try {
            LockKey key = new LockKey(
                    request.path("pipelineId").asText(),
                    request.path("scheduleId").asText(),
                    LocalDate.parse(request.path("date").asText()));
            Optional<String> holder = provider.locks().holder(key).map(LockHolder::owner);
            if (holder.isPresent() && !holder.get().equals(owner) && heldForRequests.contains(holder.get())) {
                provider.locks().release(key, holder.get());
            }
            if (provider.locks().acquire(key, owner, Duration.ofDays(365))) {
                heldForRequests.add(owner);
            }
        } catch (RuntimeException e) {
            // A request the orchestrator itself must refuse (a bad id or date): nothing to hold.
        }
    }

    /** Resolves the pipeline for the default execution and returns the new run id. */
    String resolve() {
        JsonNode response = call(request(OrchestratorAction.RESOLVE_PIPELINE));
        if (!"proceed".equals(response.get("result").asText())) {
            throw new AssertionError("resolvePipeline did not proceed: " + response);
        }
        return response.get("payload").get("runId").asText();
    }

    /**
     * Resolves a run for the default execution and moves it as the job's success does (the run-checker or the
     * job-state event: PENDING → TRIGGERING → RUNNING → COMPLETED); returns its id.
     */
    String succeededRun() {
        String runId = resolve();
        RunState run = provider.runs().get(runId).orElseThrow();
        RunState triggering = run.moveTo(RunStatus.TRIGGERING, clock.instant());
        swap(run, triggering);
        RunState running = triggering.moveTo(RunStatus.RUNNING, clock.instant());
        swap(triggering, running);
        swap(running, running.moveTo(RunStatus.COMPLETED, clock.instant()));
        return runId;
    }

    private void swap(RunState from, RunState to) {
        if (!provider.runs().compareAndSwap(from.version(), to)) {
            throw new AssertionError("run " + from.runId() + " moved underneath");
        }
    }

    /** Writes the day's run log as {@code runId} at {@code status}, as a run of the machine would have left it. */
    void writeRunLog(String runId, RunLogStatus status) {
        provider.runLogs()
                .update(
                        new RunLogKey(PIPELINE, DATE, "daily"),
                        current -> new RunLog(
                                PIPELINE,
                                DATE,
                                "daily",
                                status,
                                1,
                                runId,
                                null,
                                null,
                                null,
                                List.of(),
                                false,
                                T0,
                                status == RunLogStatus.COMPLETED ? T0 : null,
                                T0));
    }

    Optional<RunLog> runLog() {
        return provider.runLogs().get(new RunLogKey(PIPELINE, DATE, "daily"));
    }

    List<Event> events(String pipelineId) {
        return provider.events().read(pipelineId, PageRequest.first(1000)).items();
    }

    List<Event> events(EventKind kind) {
        return events(PIPELINE).stream().filter(e -> e.kind() == kind).toList();
    }

    String logText() {
        return logs.toString(StandardCharsets.UTF_8);
    }

    static Map<String, Object> trait(String type, String status, boolean required) {
        Map<String, Object> t = new LinkedHashMap<>();
        t.put("traitType", type);
        t.put("status", status);
        t.put("required", required);
        return t;
    }

    static Map<String, Object> trait(String type, String status, boolean required, Map<String, Object> value) {
        Map<String, Object> t = trait(type, status, required);
        t.put("value", value);
        return t;
    }

    /** Evaluator outputs for the three required traits of batch-ingestion, all with {@code status}. */
    static List<Map<String, Object>> allRequired(String status) {
        return List.of(
                trait("source-freshness", status, true),
                trait("upstream-dependency", status, true),
                trait("resource-availability", status, true));
    }
}
