package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.statemachine.model.StateMachineDefinition;
import org.junit.jupiter.api.Test;

class ExecutionsTest {

    private static final String WAIT_A_DAY = """
            {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":86400,"End":true}}}""";

    private final Harness h = new Harness();

    /** A machine whose executions stay RUNNING: they wait a day on a frozen clock. */
    private StateMachine blocked() {
        h.clock.freeze();
        return h.machine(WAIT_A_DAY);
    }

    @Test
    void startDescribeAndAwait() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        StartExecutionResult started = machine.startExecution("day", "{\"k\":1}");
        assertThat(started.executionArn()).isEqualTo("arn:aws:states:us-east-1:123456789012:execution:test:day");
        assertThat(started.startDate()).isEqualTo(T0);
        ExecutionDescription done = Harness.await(machine.execution(started.executionArn()));
        assertThat(done).isEqualTo(machine.describeExecution(started.executionArn()));
        assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(done.stateMachineArn()).isEqualTo("arn:aws:states:us-east-1:123456789012:stateMachine:test");
        assertThat(done.name()).isEqualTo("day");
        assertThat(done.input()).isEqualTo("{\"k\":1}");
        assertThat(done.output()).isEqualTo("{\"k\":1}");
        assertThat(done.startDate()).isEqualTo(T0);
        assertThat(done.stopDate()).isEqualTo(T0.plusSeconds(86400));
        assertThat(done.error()).isNull();
    }

    @Test
    void sameNameAndInputWhileRunningReturnsTheSameExecution() {
        StateMachine machine = blocked();
        Execution first = machine.start("once", "{\"a\":1}");
        Execution again = machine.start("once", "{ \"a\" : 1 }");
        assertThat(again).isSameAs(first);
        assertThat(machine.listExecutions(null)).hasSize(1);
        machine.stopExecution(first.executionArn(), null, null);
    }

    @Test
    void sameNameWithDifferentInputIsExecutionAlreadyExists() {
        StateMachine machine = blocked();
        machine.start("once", "{\"a\":1}");
        assertThatThrownBy(() -> machine.start("once", "{\"a\":2}"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.ExecutionAlreadyExists));
    }

    @Test
    void sameNameAndInputAfterTheExecutionEndedIsExecutionAlreadyExists() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        Harness.await(machine.start("done", "{}"));
        assertThatThrownBy(() -> machine.start("done", "{}"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.ExecutionAlreadyExists));
    }

    @Test
    void stopAbortsARunningExecution() {
        StateMachine machine = blocked();
        Execution execution = machine.start("to-stop", "{}");
        StopExecutionResult stopped = machine.stopExecution(execution.executionArn(), "Manual", "operator said so");
        ExecutionDescription d = Harness.await(execution);
        assertThat(d.status()).isEqualTo(ExecutionStatus.ABORTED);
        assertThat(d.error()).isEqualTo("Manual");
        assertThat(d.cause()).isEqualTo("operator said so");
        assertThat(d.stopDate()).isEqualTo(stopped.stopDate());
        assertThat(Harness.types(execution.history())).last().isEqualTo(HistoryEventType.ExecutionAborted);
    }

    @Test
    void everyEndIsReportedOnceToTheEndListenerAsAwsPublishesItsStatusChange() throws Exception {
        java.util.concurrent.BlockingQueue<ExecutionDescription> ended =
                new java.util.concurrent.LinkedBlockingQueue<>();
        h.clock.freeze();
        StateMachine machine = StateMachine.builder("test", StateMachineDefinition.parse(WAIT_A_DAY))
                .clock(h.clock)
                .resources(h.resources.build())
                .accountId("123456789012")
                .onEnded(ended::add)
                .build();
        Execution stopped = machine.start("to-stop", "{\"pipelineId\":\"p\"}");
        machine.stopExecution(stopped.executionArn(), "Manual", "operator said so");
        machine.stopExecution(stopped.executionArn(), "Manual", "again");

        ExecutionDescription first = ended.poll(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(first).isNotNull();
        assertThat(first.name()).isEqualTo("to-stop");
        assertThat(first.status()).isEqualTo(ExecutionStatus.ABORTED);
        assertThat(first.input()).isEqualTo("{\"pipelineId\":\"p\"}");
        assertThat(first.cause()).isEqualTo("operator said so");
        Harness.await(stopped);
        assertThat(ended)
                .as("a second stop of an ended execution reports nothing")
                .isEmpty();
    }

    @Test
    void listFiltersByStatusNewestFirst() {
        StateMachine machine = blocked();
        Execution running = machine.start("running", "{}");
        machine.stopExecution(running.executionArn(), null, null);
        Execution aborted = running;
        Execution runningNow = machine.start("running-2", "{}");
        assertThat(machine.listExecutions(ExecutionStatus.ABORTED))
                .extracting(ExecutionSummary::name)
                .containsExactly("running");
        assertThat(machine.listExecutions(ExecutionStatus.RUNNING))
                .extracting(ExecutionSummary::name)
                .containsExactly("running-2");
        assertThat(machine.listExecutions(null))
                .extracting(ExecutionSummary::name)
                .containsExactlyInAnyOrder("running", "running-2");
        assertThat(aborted.describe().summary().status()).isEqualTo(ExecutionStatus.ABORTED);
        machine.stopExecution(runningNow.executionArn(), null, null);
    }

    @Test
    void listAndHistoryArePaged() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        for (int i = 0; i < 3; i++) {
            Harness.await(machine.start("e" + i, "{}"));
        }
        Page<ExecutionSummary> first = machine.listExecutions(null, 2, null);
        assertThat(first.items()).hasSize(2);
        Harness.await(machine.start("started-between-pages", "{}"));
        Page<ExecutionSummary> second = machine.listExecutions(null, 2, first.nextToken());
        assertThat(second.items())
                .extracting(ExecutionSummary::name)
                .as("an execution started between two pages neither repeats an item nor pushes one out")
                .doesNotContainAnyElementsOf(
                        first.items().stream().map(ExecutionSummary::name).toList())
                .hasSize(1);
        assertThat(second.nextToken()).isNull();
        assertThat(java.util.stream.Stream.concat(first.items().stream(), second.items().stream()))
                .extracting(ExecutionSummary::name)
                .containsExactlyInAnyOrder("e0", "e1", "e2");

        String arn = machine.execution("e0").executionArn();
        Page<HistoryEvent> reversed = machine.getExecutionHistory(arn, 1, true, null);
        assertThat(reversed.items())
                .extracting(HistoryEvent::type)
                .containsExactly(HistoryEventType.ExecutionSucceeded);
        Page<HistoryEvent> older = machine.getExecutionHistory(arn, 1, true, reversed.nextToken());
        assertThat(older.items().getFirst().id())
                .isEqualTo(reversed.items().getFirst().id() - 1);
        for (String foreign : new String[] {"not-a-token", first.nextToken(), reversed.nextToken()}) {
            assertThatThrownBy(() -> machine.listExecutions(ExecutionStatus.RUNNING, 2, foreign))
                    .as("token %s", foreign)
                    .isInstanceOfSatisfying(
                            StepFunctionsException.class,
                            e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.InvalidToken));
        }
        assertThatThrownBy(() -> machine.getExecutionHistory(arn, 1, false, reversed.nextToken()))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.InvalidToken));
    }

    @Test
    void generatedNameWhenNoneIsGiven() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        Execution execution = machine.start(null, null);
        assertThat(execution.name()).matches("[0-9a-f-]{36}");
        assertThat(Harness.await(execution).input()).isEqualTo("{}");
    }

    @Test
    void invalidNamesInputsAndArnsAreRejectedWithAwsCodes() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        assertThatThrownBy(() -> machine.start("has space", "{}"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.InvalidName));
        assertThatThrownBy(() -> machine.start("x".repeat(81), "{}"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.InvalidName));
        assertThatThrownBy(() -> machine.start("ok", "{not json"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.InvalidExecutionInput));
        assertThatThrownBy(() -> machine.describeExecution("arn:aws:states:us-east-1:123456789012:execution:test:nope"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.ExecutionDoesNotExist));
        assertThatThrownBy(() -> machine.describeExecution("arn:aws:states:eu-west-1:1:execution:other:x"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.ExecutionDoesNotExist));
    }

    @Test
    void executionNameFromTheStreamRouterFormatIsAccepted() {
        StateMachine machine = h.machine(WAIT_A_DAY);
        Execution execution = machine.start("silver_2026-03-01_daily_1a2b3c4d", "{}");
        assertThat(Harness.await(execution).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
    }

    @Test
    void buildingAMachineFromAnInvalidDefinitionListsEveryProblem() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> StateMachine.builder(
                                "bad", dev.interlock.statemachine.model.StateMachineDefinition.parse("""
                                {"StartAt":"A","States":{"A":{"Type":"Pass","Next":"B"},"C":{"Type":"Succeed"}}}"""))
                        .build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("States.A: transitions to a state that does not exist here: B")
                .hasMessageContaining("States.C: is not reachable from StartAt");
    }

    @Test
    void definitionsAreLoadedWithPlaceholderSubstitution() {
        var definition = dev.interlock.statemachine.model.StateMachineDefinition.parse(
                """
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"${Fn}","End":true}}}""", java.util.Map.of("Fn", "arn:aws:lambda:us-east-1:123456789012:function:f"));
        h.resources.function("f", inv -> json("\"called\""));
        StateMachine machine = StateMachine.builder("sub", definition)
                .clock(h.clock)
                .resources(h.resources.build())
                .build();
        assertThat(json(Harness.await(machine.start("x", "{}")).output()).asText())
                .isEqualTo("called");
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> dev.interlock.statemachine.model.StateMachineDefinition.parse(
                                "{\"a\":\"${Nope}\"}", java.util.Map.of()))
                .hasMessageContaining("Nope");
    }
}
