package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The ASL sends exactly what contract.json and CONTRACT.md promise the Lambda engineers, and both documents agree. */
class ContractTest {

    private final JsonNode states = Asl.definition().get("States");
    private final JsonNode contract = Asl.contract();
    private final JsonNode actions = contract.get("orchestrator").get("actions");

    @Test
    void everyOrchestratorRequestCarriesTheEnvelopeAndOnlyDocumentedPayloadFields() {
        List<String> problems = new ArrayList<>();
        states.properties().forEach(e -> {
            JsonNode parameters = Asl.orchestratorRequest(e.getValue());
            if (parameters.isMissingNode()) {
                return;
            }
            Set<String> envelope = keys(parameters);
            for (String required : List.of("action", "pipelineId", "scheduleId", "date", "executionName", "payload")) {
                if (!envelope.contains(required)) {
                    problems.add(e.getKey() + " lacks " + required);
                }
            }
            JsonNode spec = actions.path(parameters.path("action").asText());
            Set<String> sent = keys(parameters.path("payload"));
            spec.path("request").properties().forEach(field -> {
                if (!field.getValue().asText().endsWith("?") && !sent.contains(field.getKey())) {
                    problems.add(e.getKey() + " does not send required payload field " + field.getKey());
                }
            });
            for (String field : sent) {
                if (!spec.path("request").has(field)) {
                    problems.add(e.getKey() + " sends undocumented payload field " + field);
                }
            }
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void theMachineCallsExactlyTheStateMachineActionsOfTheEnumAndContractJsonDocumentsExactlyThose() {
        Set<String> called = new TreeSet<>();
        states.properties().forEach(e -> {
            JsonNode request = Asl.orchestratorRequest(e.getValue());
            if (!request.isMissingNode()) {
                called.add(request.get("action").asText());
            }
        });
        Set<String> machineActions = new TreeSet<>();
        OrchestratorAction.calledBy(OrchestratorAction.Caller.STATE_MACHINE)
                .forEach(a -> machineActions.add(a.wireName()));
        assertThat(called).as("actions the ASL calls").isEqualTo(machineActions);
        assertThat(keys(actions)).as("actions contract.json documents").isEqualTo(machineActions);
    }

    @Test
    void theActionsOnlyRulesInvokeAreDocumentedAsSuchAndNoStateCallsThem() throws Exception {
        // The job-state rules and the watchdog schedule call these (the CDK stack's test checks its rules send them).
        String doc = Files.readString(Asl.moduleDir().resolve("CONTRACT.md"));
        for (OrchestratorAction action : OrchestratorAction.values()) {
            if (action.caller() != OrchestratorAction.Caller.STATE_MACHINE) {
                assertThat(doc).contains("### `" + action.wireName() + "` (not called by the machine)");
                assertThat(actions.has(action.wireName()))
                        .as(action.wireName() + " in contract.json")
                        .isFalse();
            }
        }
    }

    @Test
    void triggerAndRunCheckerReceiveTheirDocumentedInputs() {
        assertThat(keys(states.get("TriggerPipeline").get("Parameters")))
                .isEqualTo(keys(contract.get("trigger").get("input")));
        assertThat(keys(states.get("PollRunStatus").get("Parameters")))
                .isEqualTo(keys(contract.get("runChecker").get("input")))
                .contains("headers");
        assertThat(states.get("PollRunStatus")
                        .get("Parameters")
                        .get("headers.$")
                        .asText())
                .isEqualTo("$.resolvePipeline.payload.triggerHeaders");
    }

    @Test
    void contractMarkdownListsEveryStateAndEveryAction() throws Exception {
        String doc = Files.readString(Asl.moduleDir().resolve("CONTRACT.md"));
        List<String> missing = new ArrayList<>();
        states.fieldNames().forEachRemaining(name -> {
            if (!doc.contains("| `" + name + "` |")) {
                missing.add("state " + name);
            }
        });
        actions.fieldNames().forEachRemaining(action -> {
            if (!doc.contains("### `" + action + "`")) {
                missing.add("action " + action);
            }
            for (String part : List.of("payload", "payloadOnProceed")) {
                GuaranteedPaths.fields("$", actions.get(action).path(part))
                        .keySet()
                        .forEach(path -> {
                            String field = path.substring(path.lastIndexOf('.') + 1);
                            if (!doc.contains("`" + field + "`")) {
                                missing.add(action + " field " + path);
                            }
                        });
            }
        });
        contract.get("failureCategories").forEach(c -> {
            if (!doc.contains("`" + c.asText() + "`")) {
                missing.add("failure category " + c.asText());
            }
        });
        assertThat(missing).isEmpty();
    }

    private static Set<String> keys(JsonNode object) {
        Set<String> out = new TreeSet<>();
        object.fieldNames().forEachRemaining(k -> out.add(k.endsWith(".$") ? k.substring(0, k.length() - 2) : k));
        return out;
    }
}
