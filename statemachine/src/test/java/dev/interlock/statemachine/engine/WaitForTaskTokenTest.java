package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;
import org.junit.jupiter.api.Test;

/** The callback pattern: a {@code .waitForTaskToken} task hands {@code $$.Task.Token} over and waits for it. */
class WaitForTaskTokenTest {

    private final Harness h = new Harness();
    private final List<JsonNode> payloads = new CopyOnWriteArrayList<>();
    private StateMachine machine;

    private static final String ASL = """
            {"StartAt":"Wait","States":{
              "Wait":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke.waitForTaskToken",
                "Parameters":{"FunctionName":"job","Payload":{"job.$":"$.job","token.$":"$$.Task.Token"}},
                "HeartbeatSecondsPath":"$.heartbeat","TimeoutSeconds":3600,"ResultPath":"$.result",
                "Catch":[{"ErrorEquals":["States.HeartbeatTimeout","States.Timeout","Job.Failed"],
                          "ResultPath":"$.caught","Next":"Caught"}],
                "End":true},
              "Caught":{"Type":"Pass","End":true}}}""";

    /** Registers the function the task calls; {@code then} runs in it with (machine, token). */
    private StateMachine machineWhoseFunction(BiConsumer<StateMachine, String> then) {
        h.resources.function("job", invocation -> {
            payloads.add(invocation.payload());
            then.accept(machine, invocation.payload().get("token").asText());
            return json("{\"ignored\":true}");
        });
        machine = h.machine(ASL);
        return machine;
    }

    /** A job that ends {@code seconds} of engine time after the token was handed over. */
    private BiConsumer<StateMachine, String> laterOnTheClock(long seconds, BiConsumer<StateMachine, String> callback) {
        return (m, token) -> h.clock.start("job", () -> {
            try {
                h.clock.newGate().await(h.clock.now().plusSeconds(seconds));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            callback.accept(m, token);
        });
    }

    @Test
    void theTaskResultIsWhatSendTaskSuccessSends() {
        StateMachine m = machineWhoseFunction(
                laterOnTheClock(1200, (sm, token) -> sm.sendTaskSuccess(token, "{\"state\":\"succeeded\"}")));
        ExecutionDescription d = Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":1800}"));

        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(json(d.output()).get("result")).isEqualTo(json("{\"state\":\"succeeded\"}"));
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(1200));
        assertThat(payloads)
                .singleElement()
                .satisfies(p -> assertThat(p.get("token").asText()).isNotBlank());
        assertThat(Harness.types(m.getExecutionHistory(d.executionArn())))
                .containsSubsequence(
                        HistoryEventType.TaskScheduled,
                        HistoryEventType.TaskStarted,
                        HistoryEventType.TaskSubmitted,
                        HistoryEventType.TaskSucceeded);
    }

    @Test
    void aCallbackSentBeforeTheFunctionReturnedIsNotLost() {
        StateMachine m = machineWhoseFunction((sm, token) -> sm.sendTaskSuccess(token, "{\"early\":true}"));
        ExecutionDescription d = Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":60}"));

        assertThat(json(d.output()).get("result")).isEqualTo(json("{\"early\":true}"));
        assertThat(d.stopDate()).isEqualTo(T0);
    }

    @Test
    void sendTaskFailureFailsTheTaskWithItsErrorForCatch() {
        StateMachine m = machineWhoseFunction(
                laterOnTheClock(30, (sm, token) -> sm.sendTaskFailure(token, "Job.Failed", "the job failed")));
        ExecutionDescription d = Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":60}"));

        assertThat(json(d.output()).get("caught"))
                .isEqualTo(json("{\"Error\":\"Job.Failed\",\"Cause\":\"the job failed\"}"));
    }

    @Test
    void noCallbackWithinHeartbeatSecondsIsStatesHeartbeatTimeout() {
        StateMachine m = machineWhoseFunction((sm, token) -> {});
        ExecutionDescription d = Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":900}"));

        assertThat(json(d.output()).get("caught").get("Error").asText()).isEqualTo("States.HeartbeatTimeout");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(900));
        assertThat(Harness.types(m.getExecutionHistory(d.executionArn()))).contains(HistoryEventType.TaskTimedOut);
    }

    @Test
    void heartbeatsKeepTheTaskWaitingUntilTimeoutSeconds() {
        StateMachine m = machineWhoseFunction((sm, token) -> h.clock.start("beats", () -> {
            try {
                while (sm.waitsFor(token)) {
                    h.clock.newGate().await(h.clock.now().plusSeconds(500));
                    if (sm.waitsFor(token)) {
                        sm.sendTaskHeartbeat(token);
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }));
        ExecutionDescription d = Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":900}"));

        assertThat(json(d.output()).get("caught").get("Error").asText()).isEqualTo("States.Timeout");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(3600));
    }

    @Test
    void aTokenIsClosedOnceItsTaskEnded() {
        List<String> tokens = new CopyOnWriteArrayList<>();
        StateMachine m = machineWhoseFunction((sm, token) -> {
            tokens.add(token);
            sm.sendTaskSuccess(token, "{}");
        });
        Harness.await(m.start("run-1", "{\"job\":\"j-1\",\"heartbeat\":60}"));

        assertThat(m.waitsFor(tokens.get(0))).isFalse();
        assertThatThrownBy(() -> m.sendTaskSuccess(tokens.get(0), "{}"))
                .isInstanceOfSatisfying(
                        StepFunctionsException.class,
                        e -> assertThat(e.code()).isEqualTo(StepFunctionsException.Code.TaskDoesNotExist));
        assertThatThrownBy(() -> m.sendTaskSuccess("no-such-token", "{}")).isInstanceOf(StepFunctionsException.class);
    }
}
