package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * The bundled priming events name actions of {@link OrchestratorAction}: a misspelt one would be answered
 * {@code error} without a failure, and the action's code would go into the SnapStart snapshot cold.
 */
class PrimingEventActionsTest {

    @Test
    void everyPrimingEventNamesAnOrchestratorAction() throws Exception {
        try (InputStream in = OrchestratorHandler.class.getResourceAsStream("priming-events.json")) {
            assertThat(in).as("priming-events.json beside OrchestratorHandler").isNotNull();
            JsonNode events = InterlockJson.json().readTree(in);
            assertThat(events.isArray() && !events.isEmpty()).isTrue();
            events.forEach(event -> assertThat(
                            OrchestratorAction.find(event.path("action").asText()))
                    .as("action of %s", event)
                    .isPresent());
        }
    }
}
