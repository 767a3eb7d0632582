package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every field statemachine/src/main/resources/asl/contract.json marks always-present is in every answer of every
 * action, with its type: the Choice, Wait and Parameters paths of the ASL can never hit a missing field.
 */
class ContractFieldsTest {

    private static final Path CONTRACT = Path.of("../../statemachine/src/main/resources/asl/contract.json");

    static JsonNode contract() {
        try {
            return InterlockJson.json().readTree(Files.readString(CONTRACT));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + CONTRACT.toAbsolutePath(), e);
        }
    }

    /** The actions the machine calls (the statemachine contract test checks contract.json lists exactly these). */
    static Stream<OrchestratorAction> actions() {
        return OrchestratorAction.calledBy(OrchestratorAction.Caller.STATE_MACHINE).stream();
    }

    /** Requests that reach each action's different results: the machine's own payloads, a missing pipeline, junk. */
    private static List<Map<String, Object>> payloads(OrchestratorAction action) {
        Map<String, Object> start =
                Map.of("executionStartTime", "2026-03-02T09:00:00Z", "executionTimeoutSeconds", 14400);
        return switch (action) {
            case ACQUIRE_LOCK ->
                List.of(Map.of("owner", Fixture.EXECUTION, "executionTimeoutSeconds", 14400), Map.of());
            case RELEASE_LOCK -> List.of(Map.of("owner", Fixture.EXECUTION), Map.of());
            case CHECK_RUN_LOG -> List.of(Map.of("replay", false, "markerSource", "manual"), Map.of("replay", true));
            case CHECK_VALIDATION_DEADLINE -> List.of(start, Map.of());
            case CHECK_READINESS ->
                List.of(
                        Map.of("traitResults", Fixture.allRequired("PASS")),
                        Map.of("traitResults", Fixture.allRequired("ERROR")),
                        Map.of());
            case LOG_RESULT ->
                List.of(
                        Map.of("status", "FAILED", "failureCategory", "TRANSIENT", "message", "x", "phase", "run"),
                        Map.of("status", "FAILED", "failureCategory", "VALIDATION_EXHAUSTED", "blocking", List.of("a")),
                        Map.of("status", "COMPLETED", "triggerMetadata", Map.of()),
                        Map.of());
            case CHECK_DRIFT ->
                List.of(
                        Map.of("baseline", Fixture.allRequired("PASS"), "current", Fixture.allRequired("FAIL")),
                        Map.of("baseline", Fixture.allRequired("PASS"), "current", Fixture.allRequired("PASS")),
                        Map.of());
            case HANDLE_LATE_ARRIVAL -> List.of(Map.of("drifted", List.of("source-freshness")), Map.of());
            case CHECK_MONITORING_EXPIRED ->
                List.of(
                        Map.of(
                                "state",
                                Map.of(
                                        "resolvePipeline",
                                        Map.of(
                                                "payload",
                                                Map.of(
                                                        "runId",
                                                        "run-1",
                                                        "traits",
                                                        List.of(),
                                                        "monitoring",
                                                        Map.of("enabled", true))),
                                        "traitResults",
                                        Fixture.allRequired("PASS"),
                                        "logCompleted",
                                        Map.of("payload", Map.of("loggedAt", "2026-03-02T09:50:00.000Z"))),
                                "executionStartTime",
                                "2026-03-02T09:00:00Z",
                                "executionTimeoutSeconds",
                                14400),
                        Map.of());
            case PLAN_RETRY ->
                List.of(
                        Map.of(
                                "retryable",
                                true,
                                "retryBackoffSeconds",
                                30,
                                "executionStartTime",
                                "2026-03-02T09:00:00Z",
                                "executionTimeoutSeconds",
                                14400,
                                "replay",
                                false),
                        Map.of(
                                "retryable",
                                true,
                                "retryBackoffSeconds",
                                36000,
                                "executionStartTime",
                                "2026-03-02T09:00:00Z",
                                "executionTimeoutSeconds",
                                14400,
                                "replay",
                                true),
                        Map.of("retryable", false),
                        Map.of());
            case ALERT_EXECUTION_ERROR ->
                List.of(Map.of("error", Map.of("Error", "Lambda.Unknown", "Cause", "crashed")), Map.of());
            case AWAIT_JOB_COMPLETION ->
                List.of(
                        Map.of(
                                "taskToken",
                                "token-1",
                                "triggerType",
                                "glue",
                                "metadata",
                                Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_1")),
                        Map.of());
            default -> List.of(Map.of());
        };
    }

    @ParameterizedTest
    @MethodSource("actions")
    void everyAnswerCarriesEveryAlwaysPresentField(OrchestratorAction action) {
        JsonNode spec = contract().get("orchestrator").get("actions").get(action.wireName());
        List<String> problems = new ArrayList<>();
        List<String> results = new ArrayList<>();
        for (boolean registered : new boolean[] {true, false}) {
            for (boolean withRun : new boolean[] {true, false}) {
                for (Map<String, Object> payload : payloads(action)) {
                    Fixture f = new Fixture();
                    String runId = "run-contract";
                    if (registered) {
                        f.register("monitoring: {enabled: true, duration: 1h}\nsla: {evaluationDeadline: '09:00', "
                                + "validationTimeout: '11:00'}\nschedules:\n  - {name: daily, deadline: '09:30'}\n");
                        runId = f.resolve();
                    }
                    Map<String, Object> request = new LinkedHashMap<>(f.request(action, payload));
                    if (withRun) {
                        request.put("runId", runId);
                    }
                    JsonNode response = f.call(request);
                    String where =
                            action + " (registered=" + registered + ", runId=" + withRun + ", payload=" + payload + ")";
                    checkEnvelope(response, spec, where, problems::add);
                    results.add(response.path("result").asText());
                    if (response.path("payload").isObject()) {
                        checkFields(response.get("payload"), spec.get("payload"), where + " payload", problems::add);
                        if ("proceed".equals(response.path("result").asText()) && spec.has("payloadOnProceed")) {
                            checkFields(
                                    response.get("payload"),
                                    spec.get("payloadOnProceed"),
                                    where + " payload",
                                    problems::add);
                        }
                    }
                }
            }
        }
        assertThat(problems).isEmpty();
        assertThat(results).as("results of " + action).contains("proceed");
    }

    private static void checkEnvelope(JsonNode response, JsonNode spec, String where, Consumer<String> problems) {
        JsonNode envelope = contract().get("orchestrator").get("envelope");
        checkFields(response, envelope, where, problems);
        String result = response.path("result").asText();
        List<String> allowed = new ArrayList<>();
        spec.get("results").forEach(r -> allowed.add(r.asText()));
        if (!allowed.contains(result)) {
            problems.accept(where + ": result '" + result + "' is not one of " + allowed);
        }
        if ("proceed".equals(result) && !response.path("reason").asText().isEmpty()) {
            problems.accept(where + ": reason must be \"\" on proceed, was " + response.get("reason"));
        }
        if (!response.path("action")
                .asText()
                .equals(response.path("action").asText().trim())) {
            problems.accept(where + ": action echo");
        }
    }

    private static void checkFields(JsonNode actual, JsonNode spec, String where, Consumer<String> problems) {
        spec.properties().forEach(field -> {
            String name = field.getKey();
            JsonNode value = actual.get(name);
            if (value == null || value.isNull() || value.isMissingNode()) {
                problems.accept(where + ": missing " + name);
                return;
            }
            checkType(value, field.getValue(), where + "." + name, problems);
        });
    }

    private static void checkType(JsonNode value, JsonNode type, String where, Consumer<String> problems) {
        if (type.isObject()) {
            if (!value.isObject()) {
                problems.accept(where + ": expected an object, got " + value);
            } else {
                checkFields(value, type, where, problems);
            }
            return;
        }
        String t = type.asText();
        boolean ok = switch (t) {
            case "string" -> value.isTextual();
            case "integer" -> value.isIntegralNumber();
            case "number" -> value.isNumber();
            case "boolean" -> value.isBoolean();
            case "object" -> value.isObject();
            default -> t.startsWith("array<") && value.isArray();
        };
        if (!ok) {
            problems.accept(where + ": expected " + t + ", got " + value);
            return;
        }
        if (t.equals("array<string>")) {
            value.forEach(e -> {
                if (!e.isTextual()) {
                    problems.accept(where + ": expected strings, got " + e);
                }
            });
        } else if (t.startsWith("array<") && contract().has(t.substring(6, t.length() - 1))) {
            JsonNode element = contract().get(t.substring(6, t.length() - 1));
            value.forEach(e -> checkFields(e, element, where + "[]", problems));
        }
    }
}
