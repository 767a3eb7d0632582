package dev.interlock.local.sfn;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.statemachine.engine.ExecutionDescription;
import dev.interlock.statemachine.engine.ExecutionStatus;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.VirtualClock;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class InterlockStateMachineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final List<String> actions = new CopyOnWriteArrayList<>();
    private final AlertSink sink = new AlertSink(Clock.systemUTC(), a -> {});

    private static byte[] answer(String action, String result) {
        return ("{\"action\":\"" + action + "\",\"result\":\"" + result + "\",\"reason\":\"\",\"payload\":{}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private StateMachine machine(FunctionRegistry functions) {
        return InterlockStateMachine.build(functions, sink, new VirtualClock(Instant.parse("2026-03-01T06:00:00Z")));
    }

    private static List<String> visited(ExecutionDescription d, StateMachine m) {
        return m.getExecutionHistory(d.executionArn()).stream()
                .filter(e -> e.type().name().endsWith("StateEntered"))
                .map(HistoryEvent::details)
                .map(details -> JSON.valueToTree(details).path("name").asText())
                .toList();
    }

    @Test
    void theRealAslRunsOnInProcessFunctionsAnExcludedDayEndsInSuccess() throws Exception {
        FunctionRegistry functions = new FunctionRegistry().register("orchestrator", (payload, ctx) -> {
            JsonNode req = JSON.readTree(payload);
            actions.add(req.path("action").asText() + " "
                    + req.path("pipelineId").asText() + " " + req.path("date").asText());
            return answer(req.path("action").asText(), "skip");
        });
        StateMachine m = machine(functions);

        ExecutionDescription d = m.start(
                        "silver_2026-03-01_daily_0000abcd",
                        "{\"pipelineId\":\"silver\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\",\"markerSource\":\"manual\",\"replay\":false}")
                .await(Duration.ofSeconds(20));

        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(actions).containsExactly(OrchestratorAction.CHECK_EXCLUSION.wireName() + " silver 2026-03-01");
        assertThat(visited(d, m)).containsExactly("InitDefaults", "CheckExclusion", "IsExcluded", "Done");
    }

    @Test
    void aThrowingFunctionIsRetriedThenAlertedThroughTheSinkAndTheExecutionFails() throws Exception {
        FunctionRegistry functions = new FunctionRegistry().register("orchestrator", (payload, ctx) -> {
            JsonNode req = JSON.readTree(payload);
            String action = req.path("action").asText();
            actions.add(action);
            if (action.equals(OrchestratorAction.CHECK_EXCLUSION.wireName())) {
                return answer(action, "proceed");
            }
            if (action.equals(OrchestratorAction.ACQUIRE_LOCK.wireName())
                    || action.equals(OrchestratorAction.ALERT_EXECUTION_ERROR.wireName())) {
                // The store is down: the orchestrator can neither lock nor claim the alert, so the machine publishes
                // EXECUTION_ERROR to the topic itself.
                throw new IllegalStateException("DynamoDB unavailable");
            }
            return answer(action, "proceed");
        });
        StateMachine m = machine(functions);

        ExecutionDescription d = m.start(
                        "gold_2026-03-01_daily_0000abcd",
                        "{\"pipelineId\":\"gold\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\"}")
                .await(Duration.ofSeconds(20));

        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(actions)
                .startsWith(OrchestratorAction.CHECK_EXCLUSION.wireName(), OrchestratorAction.ACQUIRE_LOCK.wireName())
                .contains(OrchestratorAction.ALERT_EXECUTION_ERROR.wireName())
                .endsWith(OrchestratorAction.RELEASE_LOCK.wireName());
        assertThat(sink.all()).singleElement().satisfies(a -> {
            assertThat(a.topicArn()).isEqualTo("arn:aws:sns:us-east-1:000000000000:interlock-alerts");
            assertThat(a.subject()).contains("EXECUTION_ERROR").contains("gold");
            assertThat(a.message().toString()).contains("java.lang.IllegalStateException");
        });
        assertThat(m.getExecutionHistory(d.executionArn()))
                .anySatisfy(e -> assertThat(e.type()).isEqualTo(HistoryEventType.LambdaFunctionFailed));
    }
}
