package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.statemachine.model.StateMachineDefinition;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Executions on a durable store outlive their engine: a second engine on the same directory (a restarted process,
 * its clock later) reads every execution back and continues the running ones where they stood.
 */
class DurableExecutionsTest {

    private static final String FN = "arn:aws:lambda:us-east-1:123456789012:function:work";

    @TempDir
    Path dir;

    /** One engine process: its own clock and task resources, the shared store. */
    private final class Engine implements AutoCloseable {
        final VirtualClock clock;
        final StateMachine machine;

        Engine(Instant now, String asl, TaskResource work) {
            this.clock = new VirtualClock(now);
            this.machine = StateMachine.builder("durable", StateMachineDefinition.parse(asl))
                    .clock(clock)
                    .resources(TaskResources.builder().function(FN, work).build())
                    .store(ExecutionStore.inDirectory(dir))
                    .random(new Random(42))
                    .accountId("123456789012")
                    .validate(false)
                    .build();
        }

        @Override
        public void close() {
            machine.close();
        }
    }

    private static final String WAIT_AN_HOUR_THEN_WORK = """
            {"StartAt":"Begin","States":{
              "Begin":{"Type":"Pass","Result":{"step":1},"ResultPath":"$.begun","Next":"Hour"},
              "Hour":{"Type":"Wait","Seconds":3600,"Next":"Work"},
              "Work":{"Type":"Task","Resource":"%s","End":true}}}""".formatted(FN);

    @Test
    void aWaitResumesAtItsDeadlineAfterARestart() {
        List<Instant> calledAt = new CopyOnWriteArrayList<>();
        String arn;
        try (Engine first = new Engine(T0, WAIT_AN_HOUR_THEN_WORK, inv -> {
            throw new AssertionError("the first engine stops during the wait");
        })) {
            first.clock.freeze();
            Execution execution = first.machine.start("waits", "{\"k\":1}");
            arn = execution.executionArn();
            awaitHistory(execution, e -> e.type() == HistoryEventType.WaitStateEntered);
        }
        try (Engine second = new Engine(T0.plus(Duration.ofMinutes(10)), WAIT_AN_HOUR_THEN_WORK, inv -> {
            calledAt.add(inv.clock().now());
            return json("{\"done\":true}");
        })) {
            Execution resumed = second.machine.execution(arn);
            assertThat(resumed.status()).isEqualTo(ExecutionStatus.RUNNING);
            assertThat(second.machine.executionsToResume()).containsExactly("waits");
            second.machine.resumeExecutions();

            ExecutionDescription done = Harness.await(resumed);
            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output())).isEqualTo(json("{\"done\":true}"));
            assertThat(done.startDate()).isEqualTo(T0);
            assertThat(calledAt).containsExactly(T0.plusSeconds(3600));
            List<HistoryEvent> history = resumed.history();
            assertThat(Harness.types(history))
                    .containsExactly(
                            HistoryEventType.ExecutionStarted,
                            HistoryEventType.PassStateEntered,
                            HistoryEventType.PassStateExited,
                            HistoryEventType.WaitStateEntered,
                            HistoryEventType.WaitStateExited,
                            HistoryEventType.TaskStateEntered,
                            HistoryEventType.LambdaFunctionScheduled,
                            HistoryEventType.LambdaFunctionStarted,
                            HistoryEventType.LambdaFunctionSucceeded,
                            HistoryEventType.TaskStateExited,
                            HistoryEventType.ExecutionSucceeded);
            assertThat(history.get(4).timestamp()).isEqualTo(T0.plusSeconds(3600));
            assertThat(history.get(4).previousEventId()).isEqualTo(4);
            for (int i = 0; i < history.size(); i++) {
                assertThat(history.get(i).id()).isEqualTo(i + 1);
            }
        }
    }

    private static final String WORK_WITH_RETRIES = """
            {"StartAt":"Work","States":{
              "Work":{"Type":"Task","Resource":"%s","Parameters":{"attempt.$":"$$.State.RetryCount"},
                "Retry":[{"ErrorEquals":["Lambda.ServiceException"],"IntervalSeconds":60,"MaxAttempts":%d,"BackoffRate":1}],
                "Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":"$.error","Next":"Caught"}],"End":true},
              "Caught":{"Type":"Pass","End":true}}}""";

    @Test
    void aTaskInFlightWhenTheEngineStoppedIsReinvokedUnderItsRetryRules() {
        String asl = WORK_WITH_RETRIES.formatted(FN, 2);
        String arn;
        try (Engine first = new Engine(T0, asl, inv -> {
            inv.clock().sleep(Duration.ofDays(1)); // still working when the engine stops
            throw new AssertionError("unreachable");
        })) {
            first.clock.freeze();
            Execution execution = first.machine.start("in-flight", "{}");
            arn = execution.executionArn();
            awaitHistory(execution, e -> e.type() == HistoryEventType.LambdaFunctionScheduled);
        }
        List<TaskInvocation> calls = new CopyOnWriteArrayList<>();
        try (Engine second = new Engine(T0.plusSeconds(5), asl, inv -> {
            calls.add(inv);
            return json("{\"ok\":true}");
        })) {
            second.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(second.machine.execution(arn));

            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(calls).singleElement().satisfies(call -> {
                assertThat(call.retryCount()).isEqualTo(1);
                assertThat(call.payload()).isEqualTo(json("{\"attempt\":1}"));
                assertThat(call.clock().now()).isEqualTo(T0.plusSeconds(65));
            });
            List<HistoryEvent> history = second.machine.getExecutionHistory(arn);
            HistoryEvent lost = history.stream()
                    .filter(e -> e.type() == HistoryEventType.LambdaFunctionFailed)
                    .findFirst()
                    .orElseThrow();
            assertThat(((EventDetails.Failure) lost.details()).error()).isEqualTo("Lambda.ServiceException");
            assertThat(((EventDetails.Failure) lost.details()).cause())
                    .contains("engine stopped while this attempt was in flight");
            assertThat(Harness.types(history))
                    .containsSubsequence(
                            HistoryEventType.LambdaFunctionScheduled,
                            HistoryEventType.LambdaFunctionFailed,
                            HistoryEventType.LambdaFunctionScheduled,
                            HistoryEventType.LambdaFunctionSucceeded,
                            HistoryEventType.ExecutionSucceeded);
        }
    }

    @Test
    void retriesUsedBeforeARestartStayUsedAndAPlannedRetryKeepsItsTime() {
        String asl = WORK_WITH_RETRIES.formatted(FN, 1);
        String arn;
        try (Engine first = new Engine(T0, asl, inv -> {
            throw new TaskFailedException("Lambda.ServiceException", "first attempt");
        })) {
            first.clock.freeze();
            Execution execution = first.machine.start("retrying", "{}");
            arn = execution.executionArn();
            awaitHistory(execution, e -> e.type() == HistoryEventType.LambdaFunctionFailed);
            awaitJournal("retrying", "\"retry\"");
        }
        List<TaskInvocation> calls = new CopyOnWriteArrayList<>();
        try (Engine second = new Engine(T0.plusSeconds(20), asl, inv -> {
            calls.add(inv);
            throw new TaskFailedException("Lambda.ServiceException", "second attempt");
        })) {
            second.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(second.machine.execution(arn));

            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output()).at("/error/Cause").asText()).isEqualTo("second attempt");
            // The one retry the rule grants was planned before the restart, for T0 + 60 s: made then, and not again.
            assertThat(calls).singleElement().satisfies(call -> {
                assertThat(call.retryCount()).isEqualTo(1);
                assertThat(call.clock().now()).isEqualTo(T0.plusSeconds(60));
            });
        }
    }

    @Test
    void endedExecutionsKeepTheirHistoryAndNamesAcrossARestart() {
        String asl = WORK_WITH_RETRIES.formatted(FN, 0);
        ExecutionDescription before;
        List<HistoryEvent> historyBefore;
        try (Engine first = new Engine(T0, asl, inv -> json("{\"ok\":1}"))) {
            Execution execution = first.machine.start("ended", "{\"a\":1}");
            before = Harness.await(execution);
            historyBefore = execution.history();
        }
        try (Engine second = new Engine(T0.plusSeconds(3600), asl, inv -> json("{}"))) {
            assertThat(second.machine.executionsToResume()).isEmpty();
            assertThat(second.machine.describeExecution(before.executionArn())).isEqualTo(before);
            assertThat(second.machine.getExecutionHistory(before.executionArn()))
                    .isEqualTo(historyBefore);
            assertThat(second.machine.listExecutions(null))
                    .extracting(ExecutionSummary::name)
                    .containsExactly("ended");
            assertThatThrownBy(() -> second.machine.start("ended", "{\"a\":2}"))
                    .isInstanceOfSatisfying(
                            StepFunctionsException.class,
                            e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.ExecutionAlreadyExists));
        }
    }

    @Test
    void aJournalTornByAKillIsReadUpToItsLastWholeLineAndOldEndedExecutionsAreForgotten() throws IOException {
        String asl = WORK_WITH_RETRIES.formatted(FN, 0);
        try (Engine first = new Engine(T0, asl, inv -> json("{}"))) {
            Harness.await(first.machine.start("old", "{}"));
        }
        try (Engine first = new Engine(T0.plus(Duration.ofDays(80)), WAIT_AN_HOUR_THEN_WORK, inv -> json("{}"))) {
            first.clock.freeze();
            awaitHistory(first.machine.start("torn", "{}"), e -> e.type() == HistoryEventType.WaitStateEntered);
        }
        Files.writeString(
                dir.resolve("torn.jsonl"),
                "{\"event\":{\"id\":7,\"previousEv",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        try (Engine second = new Engine(T0.plus(Duration.ofDays(91)), WAIT_AN_HOUR_THEN_WORK, inv -> json("{}"))) {
            assertThat(second.machine.listExecutions(null))
                    .extracting(ExecutionSummary::name)
                    .containsExactly("torn");
            assertThat(dir.resolve("old.jsonl")).doesNotExist();
            second.machine.resumeExecutions();
            assertThat(Harness.await(second.machine.execution("torn")).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        }
    }

    private static final String WAIT_WORK_WAIT = """
            {"StartAt":"Hour","States":{
              "Hour":{"Type":"Wait","Seconds":3600,"Next":"Work"},
              "Work":{"Type":"Task","Resource":"%s","ResultPath":"$.work","Next":"Day"},
              "Day":{"Type":"Wait","Seconds":86400,"End":true}}}""".formatted(FN);

    /**
     * A kill in the middle of a line longer than the writer's buffer (several writes) leaves part of it in the file.
     * The next engine ignores that fragment and goes on appending: its lines must not be glued to the fragment, or
     * the engine after it would find an unreadable line in the middle of the journal and lose the execution.
     */
    @Test
    void aJournalTornByAKillStaysWholeForTheEngineAfterTheNextOne() throws IOException {
        try (Engine first = new Engine(T0, WAIT_WORK_WAIT, inv -> json("{}"))) {
            first.clock.freeze();
            awaitHistory(first.machine.start("torn-twice", "{}"), e -> e.type() == HistoryEventType.WaitStateEntered);
        }
        Files.writeString(
                dir.resolve("torn-twice.jsonl"),
                "{\"event\":{\"id\":4,\"previousEv",
                StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
        try (Engine second = new Engine(T0.plus(Duration.ofHours(2)), WAIT_WORK_WAIT, inv -> json("{\"n\":1}"))) {
            second.clock.freeze();
            second.machine.resumeExecutions();
            awaitHistory(
                    second.machine.execution("torn-twice"),
                    e -> e.details() instanceof EventDetails.StateEntered entered
                            && entered.name().equals("Day"));
        }
        try (Engine third = new Engine(T0.plus(Duration.ofDays(2)), WAIT_WORK_WAIT, inv -> {
            throw new AssertionError("the work was done before the restart");
        })) {
            assertThat(third.machine.executionsToResume()).containsExactly("torn-twice");
            third.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(third.machine.execution("torn-twice"));

            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output()).at("/work/n").asInt()).isEqualTo(1);
        }
        for (String line : Files.readAllLines(dir.resolve("torn-twice.jsonl"))) {
            assertThat(ExecutionStore.decode(json(line))).isNotNull();
        }
    }

    /**
     * A kill between creating an execution's journal and writing its first line (StartExecution had not answered)
     * leaves an empty file, or a fragment of that line: the next engine forgets it, so the start its caller retries
     * (the stream delivers the marker again) starts the execution instead of failing on the file.
     */
    @Test
    void aJournalAKillLeftWithoutItsFirstLineIsForgottenAndTheStartCanBeMadeAgain() throws IOException {
        Files.createFile(dir.resolve("never-started.jsonl"));
        Files.writeString(dir.resolve("half-started.jsonl"), "{\"started\":{\"name\":\"half-st");
        try (Engine engine = new Engine(T0, WORK_WITH_RETRIES.formatted(FN, 0), inv -> json("{\"ok\":1}"))) {
            assertThat(engine.machine.listExecutions(null)).isEmpty();
            assertThat(dir.resolve("never-started.jsonl")).doesNotExist();
            assertThat(dir.resolve("half-started.jsonl")).doesNotExist();

            assertThat(Harness.await(engine.machine.start("never-started", "{}"))
                            .status())
                    .isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(Harness.await(engine.machine.start("half-started", "{}")).status())
                    .isEqualTo(ExecutionStatus.SUCCEEDED);
        }
    }

    @Test
    void aTaskAnsweredJustBeforeTheStopIsNotCalledAgain() throws IOException {
        String asl = """
                {"StartAt":"Work","States":{"Work":{"Type":"Task","Resource":"%s","ResultPath":"$.work","End":true}}}""".formatted(FN);
        String input = "{\"k\":1}";
        Files.write(
                dir.resolve("answered.jsonl"),
                List.of(
                        ExecutionStore.encode(new JournalEntry.Started("answered", json(input), T0)),
                        event(
                                1,
                                0,
                                HistoryEventType.ExecutionStarted,
                                new EventDetails.ExecutionStarted(input, null, null)),
                        event(
                                2,
                                1,
                                HistoryEventType.TaskStateEntered,
                                new EventDetails.StateEntered("Work", input, null)),
                        event(
                                3,
                                2,
                                HistoryEventType.LambdaFunctionScheduled,
                                new EventDetails.LambdaFunctionScheduled(FN, input, null, null)),
                        event(4, 3, HistoryEventType.LambdaFunctionStarted, null),
                        event(
                                5,
                                4,
                                HistoryEventType.LambdaFunctionSucceeded,
                                new EventDetails.LambdaFunctionSucceeded("{\"r\":1}", null))));
        try (Engine second = new Engine(T0.plusSeconds(1), asl, inv -> {
            throw new AssertionError("answered before the stop: not called again");
        })) {
            second.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(second.machine.execution("answered"));
            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output())).isEqualTo(json("{\"k\":1,\"work\":{\"r\":1}}"));
            assertThat(Harness.types(second.machine.getExecutionHistory(done.executionArn()))
                            .subList(4, 7))
                    .containsExactly(
                            HistoryEventType.LambdaFunctionSucceeded,
                            HistoryEventType.TaskStateExited,
                            HistoryEventType.ExecutionSucceeded);
        }
    }

    private static final String CALLBACK = """
            {"StartAt":"Wait","States":{
              "Wait":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                "Parameters":{"FunctionName":"%s","Payload":{"token.$":"$$.Task.Token"}},
                "TimeoutSeconds":3600,"ResultPath":"$.result",
                "Retry":[{"ErrorEquals":["Lambda.ServiceException"],"IntervalSeconds":2,"MaxAttempts":3}],
                "Catch":[{"ErrorEquals":["States.Timeout","Job.Failed"],"ResultPath":"$.caught","Next":"Caught"}],
                "End":true},
              "Caught":{"Type":"Pass","End":true}}}""".formatted(FN);

    /** Starts a callback wait on a first engine and stops it while waiting; returns the task token handed over. */
    private String waitingWhenTheEngineStops(String name) {
        List<String> tokens = new CopyOnWriteArrayList<>();
        try (Engine first = new Engine(T0, CALLBACK, inv -> {
            tokens.add(inv.payload().get("token").asText());
            return json("{\"submitted\":true}");
        })) {
            first.clock.freeze();
            Execution execution = first.machine.start(name, "{\"k\":1}");
            awaitHistory(execution, e -> e.type() == HistoryEventType.TaskSubmitted);
        }
        assertThat(tokens).hasSize(1);
        return tokens.getFirst();
    }

    @Test
    void aCallbackWaitGoesOnUnderItsTokenAfterARestartAndItsResultIsTheCallback() {
        String token = waitingWhenTheEngineStops("callback");
        try (Engine second = new Engine(T0.plusSeconds(600), CALLBACK, inv -> {
            throw new AssertionError("the call that handed the token over is not made again");
        })) {
            second.clock.freeze();
            assertThat(second.machine.waitsFor(token)).isTrue();
            second.machine.resumeExecutions();
            second.machine.sendTaskSuccess(token, "{\"state\":\"succeeded\"}");
            ExecutionDescription done = Harness.await(second.machine.execution("callback"));

            assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output())).isEqualTo(json("{\"k\":1,\"result\":{\"state\":\"succeeded\"}}"));
            assertThat(second.machine.waitsFor(token)).isFalse();
            assertThat(Harness.types(second.machine.getExecutionHistory(done.executionArn())))
                    .endsWith(
                            HistoryEventType.TaskSubmitted,
                            HistoryEventType.TaskSucceeded,
                            HistoryEventType.TaskStateExited,
                            HistoryEventType.ExecutionSucceeded);
        }
    }

    @Test
    void aResumedCallbackWaitStillTimesOutWhereItWasOpened() {
        waitingWhenTheEngineStops("timeout");
        try (Engine second = new Engine(T0.plusSeconds(600), CALLBACK, inv -> {
            throw new AssertionError("not called again");
        })) {
            second.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(second.machine.execution("timeout"));

            assertThat(json(done.output()).path("caught").path("Error").asText())
                    .isEqualTo("States.Timeout");
            assertThat(done.stopDate()).isEqualTo(T0.plusSeconds(3600));
        }
    }

    @Test
    void aJournalWithTaskSubmittedButNoTokenRetriesTheCallOnceInsteadOfTakingItsAnswerAsTheResult() throws IOException {
        String input = "{\"k\":1}";
        String scheduled = "{\"FunctionName\":\"%s\",\"Payload\":{\"token\":\"old\"}}".formatted(FN);
        Files.write(
                dir.resolve("old.jsonl"),
                List.of(
                        ExecutionStore.encode(new JournalEntry.Started("old", json(input), T0)),
                        event(
                                1,
                                0,
                                HistoryEventType.ExecutionStarted,
                                new EventDetails.ExecutionStarted(input, null, null)),
                        event(
                                2,
                                1,
                                HistoryEventType.TaskStateEntered,
                                new EventDetails.StateEntered("Wait", input, null)),
                        event(
                                3,
                                2,
                                HistoryEventType.TaskScheduled,
                                new EventDetails.TaskScheduled(
                                        "lambda", "invoke.waitForTaskToken", "us-east-1", scheduled, 3600L, null)),
                        event(
                                4,
                                3,
                                HistoryEventType.TaskStarted,
                                new EventDetails.TaskStarted("lambda", "invoke.waitForTaskToken")),
                        event(
                                5,
                                4,
                                HistoryEventType.TaskSubmitted,
                                new EventDetails.TaskSucceeded(
                                        "lambda", "invoke.waitForTaskToken", "{\"StatusCode\":200}", null))));
        List<String> tokens = new CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicReference<StateMachine> machine =
                new java.util.concurrent.atomic.AtomicReference<>();
        try (Engine second = new Engine(T0.plusSeconds(1), CALLBACK, inv -> {
            String token = inv.payload().get("token").asText();
            tokens.add(token);
            machine.get().sendTaskSuccess(token, "{\"state\":\"succeeded\"}");
            return json("{}");
        })) {
            machine.set(second.machine);
            second.machine.resumeExecutions();
            ExecutionDescription done = Harness.await(second.machine.execution("old"));

            assertThat(done.status()).as(done.toString()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(json(done.output()).get("result")).isEqualTo(json("{\"state\":\"succeeded\"}"));
            assertThat(tokens).hasSize(1).doesNotContain("old");
        }
    }

    private static String event(long id, long previous, HistoryEventType type, EventDetails details) {
        return ExecutionStore.encode(
                new JournalEntry.Event(new HistoryEvent(id, previous, T0, type, details), true, null, false));
    }

    @Test
    void inMemoryExecutionsDoNotOutliveTheirEngine() {
        Harness first = new Harness();
        first.clock.freeze();
        StateMachine machine = first.machine(WAIT_AN_HOUR_THEN_WORK);
        machine.start("gone", "{}");
        machine.close();
        assertThatThrownBy(() -> machine.start("later", "{}")).isInstanceOf(IllegalStateException.class);
        assertThat(new Harness().machine(WAIT_AN_HOUR_THEN_WORK).listExecutions(null))
                .isEmpty();
    }

    private static void awaitHistory(Execution execution, Predicate<HistoryEvent> reached) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (execution.history().stream().noneMatch(reached)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the execution did not get there: " + execution.history());
            }
            LockSupport.parkNanos(1_000_000);
        }
    }

    private void awaitJournal(String execution, String text) {
        Instant deadline = Instant.now().plusSeconds(20);
        while (true) {
            try {
                if (Files.readString(dir.resolve(execution + ".jsonl")).contains(text)) {
                    return;
                }
            } catch (IOException notYet) {
                // written by the engine's thread
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(text + " never journaled for " + execution);
            }
            LockSupport.parkNanos(1_000_000);
        }
    }
}
