package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AlertExecutionErrorTest {

    private final Fixture f = new Fixture();

    private Map<String, Object> request(String execution) {
        Map<String, Object> request = f.request(
                OrchestratorAction.ALERT_EXECUTION_ERROR,
                Map.of(
                        "error",
                        Map.of("Error", "Lambda.Unknown", "Cause", "{\"errorMessage\":\"boom \\\"quoted\\\"\"}")));
        request.put("executionName", execution);
        return request;
    }

    @Test
    void executionErrorsOfOneDayAreAlertedOnceButEachIsAnEvent() {
        JsonNode first = f.call(request("exec-a"));
        f.clock.advance(java.time.Duration.ofSeconds(1));
        JsonNode second = f.call(request("exec-b"));

        assertThat(first.get("result").asText()).isEqualTo("proceed");
        assertThat(first.get("payload").get("alerted").asBoolean()).isTrue();
        assertThat(second.get("payload").get("alerted").asBoolean()).isFalse();
        assertThat(f.alerts.of(AlertKind.EXECUTION_ERROR)).singleElement().satisfies(a -> {
            assertThat(a.message()).isEqualTo("A task failed and no state handled the error");
            assertThat(a.details()).containsEntry("executionName", "exec-a");
            assertThat(a.details().get("error").toString()).contains("Lambda.Unknown", "quoted");
        });
        assertThat(f.events(EventKind.EXECUTION_ERROR))
                .extracting(e -> e.details().get("executionName"))
                .containsExactly("exec-a", "exec-b");
    }

    @Test
    void anAlertThatCannotBePublishedIsThrownSoTheMachinePublishesItDirectly() {
        f.alerts.failNext(1);

        assertThatThrownBy(() -> f.call(request("exec-a"))).hasMessageContaining("could not be published");
        assertThat(f.call(request("exec-b")).get("payload").get("alerted").asBoolean())
                .as("the claim was given back")
                .isTrue();
    }

    @Test
    void anExecutionWithoutAPipelineCannotBeDeduplicatedSoItIsThrown() {
        Map<String, Object> request = request("exec-a");
        request.put("pipelineId", "");

        assertThatThrownBy(() -> f.call(request)).hasMessageContaining("names no pipeline");
        assertThat(f.alerts.sent).isEmpty();
    }
}
