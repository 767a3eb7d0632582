package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.statemachine.AslDefinition;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.ExecutionDescription;
import dev.interlock.statemachine.engine.ExecutionStatus;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.TaskInvocation;
import dev.interlock.statemachine.engine.TaskResources;
import dev.interlock.statemachine.engine.VirtualClock;
import dev.interlock.statemachine.model.StateMachineDefinition;
import dev.interlock.store.PageRequest;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.Documents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The real ASL on the statemachine module's engine, in virtual time, calling this orchestrator through its Lambda
 * handler; the evaluator, trigger and run-checker are scripted stand-ins that change the run state as the real
 * trigger does. Proves the contract end to end: every path ends where CONTRACT.md says, with the store agreeing.
 */
class StateMachineFlowTest {

    private static final Instant START = Instant.parse("2026-03-02T10:00:00Z");
    private static final LocalDate DATE = LocalDate.of(2026, 3, 2);
    private static final String ARN = "arn:aws:lambda:us-east-1:123456789012:function:";

    private final VirtualClock engineClock = new VirtualClock(START);
    private final Clock clock = new Clock() {
        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return engineClock.now();
        }
    };
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final RecordingAlerts alerts = new RecordingAlerts();
    private final OrchestratorHandler orchestrator = new OrchestratorHandler(new Orchestrator(
            provider,
            clock,
            alerts,
            new OrchestratorSettings(14400, 2, 7),
            new StructuredLog("orchestrator", new PrintStream(OutputStream.nullOutputStream()), clock)));

    /** Trait status per evaluation round (1-based) and trait type. */
    private Function<Integer, String> evaluations = round -> "PASS";
    /** The {@code rows} each evaluation round reports in its value (what a {@code driftField} may watch). */
    private Function<Integer, Integer> rows = round -> 1000;

    private final AtomicInteger evaluationCalls = new AtomicInteger();
    private final Deque<String> triggerOutcomes = new ArrayDeque<>(List.of("completed"));
    private final Deque<String> pollStates = new ArrayDeque<>();
    private final List<String> triggered = new ArrayList<>();
    private final List<JsonNode> snsMessages = new ArrayList<>();
    private final List<JsonNode> followed = new ArrayList<>();

    private StateMachine machine() {
        String asl = AslDefinition.substitute(Map.of(
                "OrchestratorFunctionArn", ARN + "orchestrator",
                "EvaluatorFunctionArn", ARN + "evaluator",
                "TriggerFunctionArn", ARN + "trigger",
                "RunCheckerFunctionArn", ARN + "run-checker",
                "AlertTopicArn", "arn:aws:sns:us-east-1:123456789012:alerts"));
        TaskResources resources = TaskResources.builder()
                .function(ARN + "orchestrator", this::orchestrate)
                .function(ARN + "evaluator", this::evaluate)
                .function(ARN + "trigger", this::trigger)
                .function(ARN + "run-checker", this::check)
                .resource(TaskResources.SNS_PUBLISH, invocation -> {
                    snsMessages.add(invocation.payload());
                    return InterlockJson.tree(Map.of("MessageId", "m-1"));
                })
                .build();
        return StateMachine.builder("interlock", StateMachineDefinition.parse(asl))
                .clock(engineClock)
                .resources(resources)
                .random(new Random(7))
                .accountId("123456789012")
                .build();
    }

    private JsonNode orchestrate(TaskInvocation invocation) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            orchestrator.handleRequest(
                    new ByteArrayInputStream(InterlockJson.json().writeValueAsBytes(invocation.payload())), out, null);
            return InterlockJson.json().readTree(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private JsonNode evaluate(TaskInvocation invocation) {
        JsonNode trait = invocation.payload();
        int round = evaluationCalls.getAndIncrement() / 3 + 1;
        return InterlockJson.tree(Map.of(
                "traitType",
                trait.get("traitType").asText(),
                "status",
                evaluations.apply(round),
                "value",
                Map.of("rows", rows.apply(round)),
                "required",
                trait.get("required").asBoolean()));
    }

    /** Like the trigger Lambda: PENDING → TRIGGERING → RUNNING | COMPLETED | FAILED by CAS. */
    private JsonNode trigger(TaskInvocation invocation) {
        String runId = invocation.payload().get("runId").asText();
        triggered.add(runId);
        String outcome = triggerOutcomes.isEmpty() ? "completed" : triggerOutcomes.poll();
        RunState pending = provider.runs().get(runId).orElseThrow();
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, clock.instant());
        assertThat(provider.runs().compareAndSwap(pending.version(), triggering))
                .isTrue();
        RunStatus target = switch (outcome) {
            case "completed" -> RunStatus.COMPLETED;
            case "running" -> RunStatus.RUNNING;
            default -> RunStatus.FAILED;
        };
        assertThat(provider.runs().compareAndSwap(triggering.version(), triggering.moveTo(target, clock.instant())))
                .isTrue();
        boolean failed = target == RunStatus.FAILED;
        return InterlockJson.tree(Map.of(
                "runId",
                runId,
                "status",
                failed ? "failed" : outcome,
                "metadata",
                Map.of(),
                "error",
                failed ? "HTTP 503" : "",
                "failureCategory",
                failed ? outcome : "",
                "startedAt",
                InterlockJson.timestamp(clock.instant())));
    }

    /** Like the run-checker: a scripted state; "timeout" is a job it cancelled past its maximum duration. */
    private JsonNode check(TaskInvocation invocation) {
        followed.add(invocation.payload().get("follow"));
        String state = pollStates.isEmpty() ? "failed" : pollStates.poll();
        String category = state.equals("timeout") ? "TIMEOUT" : state.equals("failed") ? "PERMANENT" : "";
        return InterlockJson.tree(Map.of(
                "state", state.equals("timeout") ? "failed" : state, "message", state, "failureCategory", category));
    }

    private void register(String extraYaml) {
        provider.pipelines()
                .put(Documents.read(
                        "name: orders\narchetype: batch-ingestion\n"
                                + "trigger: {type: http, url: 'https://jobs.example.com/run'}\n" + extraYaml,
                        PipelineConfig.class));
    }

    private record Run(ExecutionDescription description, List<String> states) {
        JsonNode output() {
            return InterlockJson.tree(description.output());
        }
    }

    private Run run(String name, boolean replay) {
        StateMachine machine = machine();
        ObjectNode input = InterlockJson.json().createObjectNode();
        input.put("pipelineId", "orders")
                .put("scheduleId", "daily")
                .put("date", DATE.toString())
                .put("markerSource", "manual")
                .put("replay", replay);
        var execution = machine.start(name, input.toString());
        ExecutionDescription description;
        try {
            description = execution.await(Duration.ofSeconds(30));
        } catch (Exception e) {
            throw new AssertionError("execution did not finish: " + execution.describe(), e);
        }
        List<String> states = new ArrayList<>();
        for (HistoryEvent event : execution.history()) {
            if (event.details() instanceof EventDetails.StateEntered entered) {
                states.add(entered.name());
            }
        }
        return new Run(description, states);
    }

    private RunLog runLog() {
        return provider.runLogs().get(new RunLogKey("orders", DATE, "daily")).orElseThrow();
    }

    private void assertLockFree() {
        assertThat(provider.locks().holder(new LockKey("orders", "daily", DATE)))
                .isEmpty();
    }

    @Test
    void aReadyPipelineWithASynchronousTriggerCompletesAndCascades() {
        register("");
        provider.pipelines()
                .put(Documents.read(
                        "name: gold\narchetype: batch-ingestion\n"
                                + "trigger: {type: http, url: 'https://jobs.example.com/gold'}\n"
                                + "traits:\n  upstream-dependency:\n    config: {upstreamPipeline: orders}\n",
                        PipelineConfig.class));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states())
                .containsSubsequence(
                        "ResolvePipeline",
                        "EvaluateTraits",
                        "CheckReadiness",
                        "TriggerPipeline",
                        "CheckCompletionSLA",
                        "LogCompleted",
                        "NotifyDownstream",
                        "ReleaseLockAndSucceed",
                        "Done");
        assertThat(triggered).hasSize(1);
        assertThat(runLog().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(provider.runs().get(triggered.get(0)).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(provider.cascade().markers("gold", DATE))
                .extracting(m -> m.source())
                .containsExactly(MarkerSource.CASCADE);
        assertLockFree();
    }

    @Test
    void aSecondExecutionOfACompletedDayIsSkippedWithoutEvaluating() {
        register("");
        run("orders_2026-03-02_daily_00000001", false);
        int evaluationsBefore = evaluationCalls.get();

        Run second = run("orders_2026-03-02_daily_00000002", false);

        assertThat(second.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(second.output().get("checkRunLog").get("reason").asText()).isEqualTo("already completed");
        assertThat(evaluationCalls.get()).isEqualTo(evaluationsBefore);
        assertThat(triggered).hasSize(1);
        assertLockFree();
    }

    @Test
    void notReadyWaitsTheResolvedIntervalThenTriggers() {
        register("evaluationIntervalSeconds: 120\n");
        evaluations = round -> round < 3 ? "FAIL" : "PASS";

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states().stream().filter("WaitBeforeReevaluation"::equals))
                .hasSize(2);
        assertThat(runLog().status()).isEqualTo(RunLogStatus.COMPLETED);
        assertThat(runLog().attemptNumber()).isZero();
        assertThat(provider.runs().get(triggered.get(0)).orElseThrow().updatedAt())
                .isEqualTo(START.plusSeconds(240));
    }

    @Test
    void aValidationDeadlineThatPassesFailsTheExecutionAndAlerts() {
        register("sla: {validationTimeout: '10:30'}\n");
        evaluations = round -> "FAIL";

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.description().error()).isEqualTo("Interlock.PipelineFailed");
        assertThat(run.states()).containsSubsequence("LogValidationExhausted", "ReleaseLockAndFail", "PipelineFailed");
        assertThat(triggered).isEmpty();
        assertThat(runLog().status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(runLog().failureCategory()).isEqualTo(FailureCategory.VALIDATION_EXHAUSTED);
        assertThat(alerts.of(AlertKind.VALIDATION_EXHAUSTED)).hasSize(1);
        assertThat(provider.runs()
                        .listByPipeline("orders", PageRequest.first(10))
                        .items())
                .singleElement()
                .satisfies(r -> assertThat(r.status()).isEqualTo(RunStatus.FAILED));
        assertLockFree();
    }

    @Test
    void aTransientTriggerFailureIsRetriedInTheSameExecutionAfterItsBackoff() {
        register("");
        triggerOutcomes.clear();
        triggerOutcomes.addAll(List.of("TRANSIENT", "completed"));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        // The retry keeps the lock and waits out its backoff at the run-log gate.
        assertThat(run.states())
                .containsSubsequence(
                        "LogTriggerFailed",
                        "PlanRetry",
                        "ShouldRetry",
                        "CheckRunLog",
                        "ShouldProceedAfterRunLog",
                        "WaitForRetryWindow",
                        "CheckRunLog",
                        "ResolvePipeline",
                        "TriggerPipeline",
                        "LogCompleted");
        assertThat(run.states()).containsOnlyOnce("AcquireLock");
        assertThat(triggered).hasSize(2).doesNotHaveDuplicates();
        assertThat(runLog().retryHistory())
                .extracting(a -> a.status())
                .containsExactly(RunLogStatus.FAILED, RunLogStatus.COMPLETED);
        assertThat(runLog().attemptNumber()).isEqualTo(1);
        assertLockFree();
    }

    @Test
    void retriesExhaustedFailTheExecutionWithOneAlert() {
        register("retry: {maxAttempts: 2, backoffSeconds: 5}\n");
        triggerOutcomes.clear();
        triggerOutcomes.addAll(List.of("TIMEOUT", "TIMEOUT"));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(triggered).hasSize(2);
        assertThat(runLog().attemptNumber()).isEqualTo(2);
        assertThat(alerts.of(AlertKind.RETRY_EXHAUSTED)).hasSize(1);
        assertLockFree();
    }

    @Test
    void anAsynchronousRunIsPolledUntilItSucceeds() {
        register("pollIntervalSeconds: 45\n");
        triggerOutcomes.clear();
        triggerOutcomes.add("running");
        pollStates.addAll(List.of("running", "running", "succeeded"));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states().stream().filter("PollRunStatus"::equals)).hasSize(3);
        assertThat(provider.runs().get(triggered.get(0)).orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(runLog().completedAt()).isEqualTo(START.plusSeconds(135));
    }

    @Test
    void aDryRunRecordsWhatWouldHappenAndNeverTriggers() {
        register("dryRun: true\n");

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states()).doesNotContain("TriggerPipeline");
        assertThat(triggered).isEmpty();
        assertThat(provider.events().read("orders", PageRequest.first(100)).items())
                .extracting(e -> e.kind())
                .contains(EventKind.DRY_RUN_WOULD_TRIGGER);
        assertThat(provider.runLogs().get(new RunLogKey("orders", DATE, "daily")))
                .isEmpty();
        assertLockFree();
    }

    @Test
    void newerDataWhileMonitoringRequestsAReplayThatThenRuns() {
        register("monitoring: {enabled: true, duration: 1h, driftField: rows, driftThreshold: 100}\n");
        rows = round -> round == 1 ? 1000 : 2000;

        Run first = run("orders_2026-03-02_daily_00000001", false);
        Run replay = run("orders_2026-03-02_daily_00000002", true);

        assertThat(first.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(first.states())
                .containsSubsequence(
                        "LogCompleted",
                        "MonitoringWait",
                        "MonitoringEvaluate",
                        "MonitoringCheckDrift",
                        "HandleLateArrival",
                        "ReleaseLockAndSucceed");
        assertThat(provider.cascade().markers("orders", DATE))
                .singleElement()
                .satisfies(m -> assertThat(m.replay()).isTrue());
        assertThat(replay.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(replay.states()).contains("TriggerPipeline");
        assertThat(triggered).hasSize(2);
        assertThat(alerts.of(AlertKind.DRIFT_DETECTED)).hasSize(1);
        assertLockFree();
    }

    @Test
    void aCheckThatAgesWhileMonitoringRequestsNoReplay() {
        register("monitoring: {enabled: true, duration: 1h}\n");
        evaluations = round -> round == 1 ? "PASS" : "STALE";

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states())
                .contains("MonitoringCheckDrift", "CheckMonitoringExpired")
                .doesNotContain("HandleLateArrival");
        assertThat(provider.cascade().markers("orders", DATE)).isEmpty();
        assertThat(triggered).hasSize(1);
        assertThat(alerts.of(AlertKind.DRIFT_DETECTED)).isEmpty();
        assertLockFree();
    }

    @Test
    void monitoringWithoutDriftEndsWhenItsWindowIsOver() {
        register("monitoring: {enabled: true, duration: 10m}\n");

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states().stream().filter("MonitoringWait"::equals)).hasSize(2);
        assertThat(run.description().stopDate()).isEqualTo(START.plusSeconds(600));
        assertLockFree();
    }

    @Test
    void anExcludedDayEndsBeforeTheLock() {
        register("exclusions: {days: [monday]}\n");

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states()).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "Done");
    }

    @Test
    void aPipelineWithoutTriggerFailsTheExecutionWithoutAStatesRuntimeError() {
        provider.pipelines().put(Documents.read("name: orders\narchetype: batch-ingestion\n", PipelineConfig.class));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.description().error()).isEqualTo("Interlock.PipelineFailed");
        assertThat(runLog().failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(alerts.of(AlertKind.RUN_FAILED)).hasSize(1);
        assertLockFree();
    }

    @Test
    void aMarkerMeetingAHolderThatWaitsOnNotReadyIsAbsorbedAndLeavesTheLockAlone() {
        register("");
        LockKey key = new LockKey("orders", "daily", DATE);
        provider.locks().acquire(key, "orders_2026-03-02_daily_running1", Duration.ofHours(5));
        provider.locks()
                .recordEvaluating(
                        key, "orders_2026-03-02_daily_running1", START.plusSeconds(120), START.plusSeconds(3600));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states())
                .containsExactly(
                        "InitDefaults", "CheckExclusion", "IsExcluded", "AcquireLock", "IsLockAcquired", "Done");
        assertThat(provider.locks().holder(key).orElseThrow().owner()).isEqualTo("orders_2026-03-02_daily_running1");
        assertThat(provider.locks().holder(key).orElseThrow().absorbed()).isEqualTo(1);
    }

    @Test
    void aMarkerMeetingALockThatIsNeverReleasedWaitsWithBackoffThenHandsOverWithinItsBudget() {
        register("");
        LockKey key = new LockKey("orders", "daily", DATE);
        provider.locks().acquire(key, "orders_2026-03-02_daily_running1", Duration.ofHours(5));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(run.states())
                .startsWith(
                        "InitDefaults",
                        "CheckExclusion",
                        "IsExcluded",
                        "AcquireLock",
                        "IsLockAcquired",
                        "WaitForLock",
                        "AcquireLock")
                .endsWith("AcquireLock", "IsLockAcquired", "Done")
                .doesNotContain("CheckRunLog");
        // 30 s, 30 s, 60 s, 120 s, 240 s, then 300 s each, until 30 min are spent.
        assertThat(run.states().stream().filter("WaitForLock"::equals)).hasSize(9);
        assertThat(provider.cascade().markers("orders", DATE))
                .singleElement()
                .satisfies(m -> assertThat(m.source()).isEqualTo(MarkerSource.DEFERRED));
        assertThat(provider.locks().holder(key).orElseThrow().owner()).isEqualTo("orders_2026-03-02_daily_running1");
    }

    @Test
    void aRetryLoopWhoseBackoffsOutlastTheExecutionHandsOverInsteadOfTimingOut() {
        register("retry: {maxAttempts: 5, backoffSeconds: 3600, backoffMultiplier: 1}\n");
        triggerOutcomes.clear();
        triggerOutcomes.addAll(List.of("TRANSIENT", "TRANSIENT", "TRANSIENT", "TRANSIENT"));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        // Attempts at 0 h, 1 h, 2 h, 3 h: a fifth after another hour would end after the execution's 4 h less its
        // margin.
        assertThat(run.description().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(triggered).hasSize(4);
        assertThat(run.states())
                .endsWith("LogTriggerFailed", "PlanRetry", "ShouldRetry", "ReleaseLockAndSucceed", "Done");
        assertThat(runLog().status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(runLog().attemptNumber()).isEqualTo(4);
        assertThat(provider.cascade().markers("orders", DATE)).singleElement().satisfies(m -> {
            assertThat(m.source()).isEqualTo(MarkerSource.RETRY);
            assertThat(m.origin()).isEqualTo("orders_2026-03-02_daily_00000001");
        });
        assertLockFree();
    }

    @Test
    void aRunningJobIsFollowedPastItsPollWindowUntilTheRunCheckerEndsItAndIsNeverStartedAgainMeanwhile() {
        register("pollIntervalSeconds: 60\npollLimit: 3\nretry: {maxAttempts: 1}\n");
        triggerOutcomes.clear();
        triggerOutcomes.add("running");
        pollStates.addAll(List.of("running", "running", "running", "running", "running", "timeout"));

        Run run = run("orders_2026-03-02_daily_00000001", false);

        assertThat(run.description().status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(run.states().stream().filter("PollRunStatus"::equals))
                .as("twice the poll window")
                .hasSize(6);
        assertThat(run.states().stream().filter("TriggerPipeline"::equals)).hasSize(1);
        assertThat(run.states())
                .containsSubsequence(
                        "LogRunFailed", "PlanRetry", "ShouldRetry", "ReleaseLockAndFail", "PipelineFailed");
        assertThat(followed).allSatisfy(follow -> {
            assertThat(follow.get("since").asText()).isEqualTo("2026-03-02T10:00:00.000Z");
            assertThat(follow.get("pollLimit").asInt()).isEqualTo(3);
            assertThat(follow.get("maxJobDurationSeconds").asInt()).isEqualTo(7200);
            assertThat(follow.get("executionTimeoutSeconds").asInt()).isEqualTo(14400);
        });
        assertThat(runLog().failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(alerts.of(AlertKind.RETRY_EXHAUSTED)).hasSize(1);
        assertLockFree();
    }
}
