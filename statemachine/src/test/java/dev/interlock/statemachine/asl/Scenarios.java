package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;

/**
 * The engine-neutral path scenarios (src/test/resources/scenarios, format in its README), what an engine reports
 * for one, and the check of a report against the scenario's expectation. Both engines' runners produce the same
 * {@link Run} shape, so the node runner's output, the Java runner's result and the expectation compare field by field.
 */
final class Scenarios {

    static final Path DIR = Path.of("src/test/resources/scenarios");

    /** The fake account's ARNs both runners substitute for the ASL placeholders (the node runner has the same table). */
    static final Map<String, String> PLACEHOLDER_VALUES = Map.of(
            "OrchestratorFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:interlock-orchestrator",
            "EvaluatorFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:interlock-evaluator",
            "TriggerFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:interlock-trigger",
            "RunCheckerFunctionArn", "arn:aws:lambda:us-east-1:123456789012:function:interlock-run-checker",
            "AlertTopicArn", "arn:aws:sns:us-east-1:123456789012:interlock-alerts");

    private Scenarios() {}

    /** One scenario file. */
    record Scenario(String name, JsonNode json) {

        String executionName() {
            return json.path("executionName").isTextual()
                    ? json.get("executionName").asText()
                    : "scenario-" + name;
        }

        JsonNode input() {
            return json.get("input");
        }

        /** The scripted steps of a top-level Task state; null when the scenario scripts none. */
        JsonNode results(String state) {
            return json.path("results").get(state);
        }

        /** The scripted steps of the Map-internal evaluator Tasks for one trait type; null when none. */
        JsonNode evaluator(String traitType) {
            return traitType == null ? null : json.path("evaluator").get(traitType);
        }

        JsonNode expect() {
            return json.get("expect");
        }
    }

    /** One top-level Task invocation: the state and the orchestrator action (null for trigger, run-checker, SNS). */
    record Invocation(String state, String action) {

        @Override
        public String toString() {
            return action == null ? state : state + " (" + action + ")";
        }

        static Invocation of(JsonNode json) {
            return new Invocation(
                    json.get("state").asText(),
                    json.path("action").isTextual() ? json.get("action").asText() : null);
        }
    }

    /**
     * What an engine reported for one scenario: visited top-level states, Task invocations (retries included), the
     * first request of every top-level Task invoked, the final status, the Fail error, and scripting problems.
     */
    record Run(
            String name,
            List<String> states,
            List<Invocation> invocations,
            Map<String, JsonNode> requests,
            String status,
            String error,
            List<String> problems) {

        /** Reads one element of run-scenarios.mjs's output array. */
        static Run fromNodeJson(JsonNode json) {
            List<String> states = new ArrayList<>();
            json.get("states").forEach(s -> states.add(s.asText()));
            List<Invocation> invocations = new ArrayList<>();
            json.get("invocations").forEach(i -> invocations.add(Invocation.of(i)));
            Map<String, JsonNode> requests = new LinkedHashMap<>();
            json.get("requests").properties().forEach(e -> requests.put(e.getKey(), e.getValue()));
            List<String> problems = new ArrayList<>();
            json.get("problems").forEach(p -> problems.add(p.asText()));
            return new Run(
                    json.get("name").asText(),
                    states,
                    invocations,
                    requests,
                    json.get("status").asText(),
                    json.path("error").isTextual() ? json.get("error").asText() : null,
                    problems);
        }
    }

    static List<Scenario> all() {
        try (Stream<Path> files = Files.list(Asl.moduleDir().resolve(DIR))) {
            List<Scenario> out = new ArrayList<>();
            for (Path file :
                    files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.add(new Scenario(
                        file.getFileName().toString().replace(".json", ""), Asl.JSON.readTree(file.toFile())));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Asserts every field of the expectation at once, so one failing scenario shows all its differences. */
    static void assertMatchesExpectation(Scenario scenario, Run run) {
        JsonNode expect = scenario.expect();
        List<Invocation> expectedInvocations = new ArrayList<>();
        expect.get("invocations").forEach(i -> expectedInvocations.add(Invocation.of(i)));
        SoftAssertions soft = new SoftAssertions();
        soft.assertThat(run.problems()).as("scripting problems").isEmpty();
        soft.assertThat(run.states())
                .as("visited top-level states")
                .containsExactlyElementsOf(texts(expect.get("states")));
        soft.assertThat(run.invocations()).as("task invocations").containsExactlyElementsOf(expectedInvocations);
        soft.assertThat(run.status())
                .as("execution status")
                .isEqualTo(expect.get("status").asText());
        soft.assertThat(run.error())
                .as("Fail state error")
                .isEqualTo(
                        expect.path("error").isTextual() ? expect.get("error").asText() : null);
        expect.path("requests").properties().forEach(e -> {
            JsonNode sent = run.requests().get(e.getKey());
            soft.assertThat(sent).as("first request of " + e.getKey()).isNotNull();
            if (sent != null) {
                soft.assertThat(sent)
                        .as("first request of " + e.getKey())
                        .isEqualTo(withAnyResolved(e.getValue(), sent));
            }
        });
        soft.assertAll();
    }

    static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The scenario format's "$any" matches any present value (used for the engine's own execution start time). */
    static JsonNode withAnyResolved(JsonNode expected, JsonNode actualValue) {
        if (expected.isTextual()
                && expected.asText().equals("$any")
                && actualValue != null
                && !actualValue.isMissingNode()) {
            return actualValue;
        }
        if (expected.isObject() && actualValue != null && actualValue.isObject()) {
            ObjectNode copy = expected.deepCopy();
            expected.properties()
                    .forEach(e -> copy.set(e.getKey(), withAnyResolved(e.getValue(), actualValue.get(e.getKey()))));
            return copy;
        }
        return expected;
    }

    /**
     * What a Task sent its function, as both engines record it: the {@code Payload} of a {@code lambda:invoke}
     * (callback) Task, whose task token, different on every run, reads {@value #TASK_TOKEN}.
     */
    static JsonNode orchestratorRequest(JsonNode request) {
        if (request == null || !request.has("FunctionName") || !request.has("Payload")) {
            return request;
        }
        JsonNode payload = request.get("Payload").deepCopy();
        if (payload.path("payload").has("taskToken")) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) payload.get("payload")).put("taskToken", TASK_TOKEN);
        }
        return payload;
    }

    static final String TASK_TOKEN = "<task token>";
}
