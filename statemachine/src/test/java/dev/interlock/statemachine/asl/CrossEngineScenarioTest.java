package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.HistoryEvent;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestReporter;

/**
 * Cross-checks our Java ASL engine against aws-local-stepfunctions, an engine written independently of ours: every
 * path scenario, run on both with the same scripted task results, must visit the same top-level states, make the same
 * Task invocations (retried attempts included), send the same first request to every Task, and end with the same
 * status and Fail error. A mismatch is shown as a side-by-side listing from the first step where the engines part.
 *
 * <p>Requests are compared after three documented normalisations, each of which only accepts a difference whose
 * cause is known and checks both sides before accepting it:
 * <ol>
 *   <li>{@code executionStartTime} fields carry {@code $$.Execution.StartTime}: the Java engine's must be its own
 *       start time (the history's ExecutionStarted event), the node engine's any millisecond UTC timestamp (it takes
 *       the wall clock and cannot be given one). Likewise {@code executionId} ({@code $$.Execution.Id}): the Java
 *       engine's must be an execution ARN, the node engine's the id its runner gives it.</li>
 *   <li>In strings built by intrinsic functions, {@code $$.State.EnteredTime} is the state's entry time in the Java
 *       engine's history and the fixed context time in the node runner.</li>
 *   <li>aws-local-stepfunctions 3.0.0 deletes every backslash from an intrinsic function's string result, where AWS
 *       (and the Java engine) keep the escapes that States.JsonToString produces. Such a string is accepted when it
 *       equals the Java engine's with its backslashes removed, and only where the scenario file declares it under
 *       {@code knownDivergences} (so the test also fails when the quirk disappears or shows up elsewhere); each
 *       acceptance is published as a report entry.</li>
 * </ol>
 */
class CrossEngineScenarioTest {

    private static final String JAVA = "Java engine";
    private static final String NODE = "aws-local-stepfunctions";
    private static final String NODE_ENTERED_TIME = "2026-01-15T06:00:00.000Z";
    private static final DateTimeFormatter CONTEXT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern CONTEXT_TIMESTAMP =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final String START_TIME_TOKEN = "<$$.Execution.StartTime>";
    /** The node runner's {@code $$.Execution.Id} (its context is given, not minted). */
    private static final String NODE_EXECUTION_ID = "node-scenario-execution-id";

    private static final String EXECUTION_ID_TOKEN = "<$$.Execution.Id>";
    private static final String ENTERED_TIME_TOKEN = "<$$.State.EnteredTime>";

    @Test
    void bothEnginesRanTheSameScenarios() throws Exception {
        assertThat(NodeScenarioRunner.runs().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        Scenarios.all().stream().map(Scenarios.Scenario::name).toList());
    }

    @TestFactory
    Stream<DynamicTest> bothEnginesTakeTheSamePath(TestReporter reporter) {
        Map<String, List<String>> intrinsicFields = intrinsicFieldsByState(Asl.definition());
        return Scenarios.all().stream()
                .map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
                    Scenarios.Run node = NodeScenarioRunner.runs().get(scenario.name());
                    assertThat(node)
                            .as("%s reported scenario %s", NODE, scenario.name())
                            .isNotNull();
                    JavaScenarioRunner.Outcome outcome = JavaScenarioRunner.run(scenario);
                    Scenarios.Run java = outcome.run();

                    SoftAssertions soft = new SoftAssertions();
                    soft.assertThat(java.problems())
                            .as("%s scripting problems", JAVA)
                            .isEmpty();
                    soft.assertThat(node.problems())
                            .as("%s scripting problems", NODE)
                            .isEmpty();
                    soft.assertThat(java.states())
                            .withFailMessage(() -> sideBySide("visited top-level states", java.states(), node.states()))
                            .isEqualTo(node.states());
                    List<String> javaCalls = java.invocations().stream()
                            .map(Scenarios.Invocation::toString)
                            .toList();
                    List<String> nodeCalls = node.invocations().stream()
                            .map(Scenarios.Invocation::toString)
                            .toList();
                    soft.assertThat(javaCalls)
                            .withFailMessage(() -> sideBySide("Task invocations", javaCalls, nodeCalls))
                            .isEqualTo(nodeCalls);
                    soft.assertThat(java.status() + " " + java.error())
                            .as("final status and Fail error (%s vs %s)", JAVA, NODE)
                            .isEqualTo(node.status() + " " + node.error());
                    soft.assertThat(java.requests().keySet())
                            .as("Task states that received a request")
                            .containsExactlyElementsOf(node.requests().keySet());
                    List<String> acceptedDivergences = new ArrayList<>();
                    java.requests().forEach((state, javaRequest) -> {
                        JsonNode nodeRequest = node.requests().get(state);
                        if (nodeRequest == null) {
                            return;
                        }
                        JsonNode javaNormalised = javaRequest.deepCopy();
                        JsonNode nodeNormalised = nodeRequest.deepCopy();
                        normaliseStartTime(
                                javaNormalised,
                                nodeNormalised,
                                outcome.description().startDate());
                        for (String field : intrinsicFields.getOrDefault(state, List.of())) {
                            String accepted = normaliseIntrinsicString(
                                    javaNormalised, nodeNormalised, field, enteredTime(outcome.history(), state));
                            if (accepted != null) {
                                acceptedDivergences.add(state + " " + field);
                                reporter.publishEntry(
                                        "known divergence accepted", scenario.name() + " " + state + ": " + accepted);
                            }
                        }
                        soft.assertThat(numbersByValue(javaNormalised))
                                .as("first request of %s (%s, then %s)", state, JAVA, NODE)
                                .isEqualTo(numbersByValue(nodeNormalised));
                    });
                    soft.assertThat(acceptedDivergences)
                            .as("normalisation 3 applies exactly where the scenario declares knownDivergences")
                            .containsExactlyElementsOf(declaredDivergences(scenario));
                    soft.assertAll();
                }));
    }

    /** The scenario's {@code knownDivergences} of the node engine, as "state field" strings. */
    private static List<String> declaredDivergences(Scenarios.Scenario scenario) {
        List<String> out = new ArrayList<>();
        for (JsonNode divergence : scenario.json().path("knownDivergences")) {
            assertThat(divergence.path("engine").asText()).isEqualTo(NODE);
            assertThat(divergence.path("reason").asText())
                    .as("a known divergence says why")
                    .isNotBlank();
            out.add(divergence.get("state").asText() + " "
                    + divergence.get("field").asText());
        }
        return out;
    }

    /** Normalisation 1: both engines' {@code $$.Execution.StartTime}, each checked against what it must be. */
    /**
     * The tree with every number written by its value ({@code 2.0} and {@code 2} are one JSON number): JavaScript, and
     * so aws-local-stepfunctions, keeps no difference between them where a request passes a document through.
     */
    static JsonNode numbersByValue(JsonNode tree) {
        if (tree.isNumber()) {
            return com.fasterxml.jackson.databind.node.DecimalNode.valueOf(
                    tree.decimalValue().stripTrailingZeros());
        }
        if (tree.isObject()) {
            ObjectNode copy = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            tree.properties().forEach(e -> copy.set(e.getKey(), numbersByValue(e.getValue())));
            return copy;
        }
        if (tree.isArray()) {
            com.fasterxml.jackson.databind.node.ArrayNode copy =
                    com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            tree.forEach(element -> copy.add(numbersByValue(element)));
            return copy;
        }
        return tree;
    }

    static void normaliseStartTime(JsonNode java, JsonNode node, Instant javaStart) {
        if (java instanceof ObjectNode javaObject && node instanceof ObjectNode nodeObject) {
            JsonNode javaValue = javaObject.get("executionStartTime");
            JsonNode nodeValue = nodeObject.get("executionStartTime");
            if (javaValue != null
                    && nodeValue != null
                    && javaValue.asText().equals(CONTEXT_TIME.format(javaStart))
                    && CONTEXT_TIMESTAMP.matcher(nodeValue.asText()).matches()) {
                javaObject.put("executionStartTime", START_TIME_TOKEN);
                nodeObject.put("executionStartTime", START_TIME_TOKEN);
            }
            JsonNode javaId = javaObject.get("executionId");
            JsonNode nodeId = nodeObject.get("executionId");
            if (javaId != null
                    && nodeId != null
                    && javaId.asText().matches("arn:aws:states:[^:]+:\\d{12}:execution:[^:]+:[^:]+")
                    && NODE_EXECUTION_ID.equals(nodeId.asText())) {
                javaObject.put("executionId", EXECUTION_ID_TOKEN);
                nodeObject.put("executionId", EXECUTION_ID_TOKEN);
            }
            javaObject.properties().forEach(e -> {
                JsonNode other = nodeObject.get(e.getKey());
                if (other != null) {
                    normaliseStartTime(e.getValue(), other, javaStart);
                }
            });
        }
    }

    /**
     * Normalisations 2 and 3 on one intrinsic-built string field (a JSON pointer into the request); returns a note
     * when normalisation 3 accepted a difference, null otherwise.
     */
    private static String normaliseIntrinsicString(
            JsonNode java, JsonNode node, String pointer, String javaEnteredTime) {
        JsonNode javaValue = java.at(pointer);
        JsonNode nodeValue = node.at(pointer);
        if (!javaValue.isTextual() || !nodeValue.isTextual()) {
            return null;
        }
        String javaText = javaValue.asText();
        String nodeText = nodeValue.asText();
        if (javaEnteredTime != null && javaText.contains(javaEnteredTime) && nodeText.contains(NODE_ENTERED_TIME)) {
            javaText = javaText.replace(javaEnteredTime, ENTERED_TIME_TOKEN);
            nodeText = nodeText.replace(NODE_ENTERED_TIME, ENTERED_TIME_TOKEN);
        }
        String note = null;
        if (!javaText.equals(nodeText) && javaText.replace("\\", "").equals(nodeText)) {
            note = pointer + " differs only by the backslashes aws-local-stepfunctions 3.0.0 deletes from intrinsic"
                    + " results; " + JAVA + ": " + javaValue.asText() + " | " + NODE + ": " + nodeValue.asText();
            nodeText = javaText;
        }
        set(java, pointer, javaText);
        set(node, pointer, nodeText);
        return note;
    }

    private static void set(JsonNode root, String pointer, String value) {
        int slash = pointer.lastIndexOf('/');
        ((ObjectNode) root.at(pointer.substring(0, slash))).set(pointer.substring(slash + 1), TextNode.valueOf(value));
    }

    /** The Java engine's {@code $$.State.EnteredTime} of a state's first entry, from the history. */
    private static String enteredTime(List<HistoryEvent> history, String state) {
        return history.stream()
                .filter(e -> e.details() instanceof EventDetails.StateEntered entered
                        && entered.name().equals(state))
                .findFirst()
                .map(e -> CONTEXT_TIME.format(e.timestamp()))
                .orElse(null);
    }

    /**
     * Per top-level Task, the JSON pointers of its Parameters fields computed by an intrinsic function (a {@code .$}
     * key whose value starts with {@code States.}), read from the ASL file so a new one is covered without edits here.
     */
    static Map<String, List<String>> intrinsicFieldsByState(JsonNode definition) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        definition.get("States").properties().forEach(e -> {
            List<String> fields = new ArrayList<>();
            collectIntrinsicFields(e.getValue().path("Parameters"), "", fields);
            if (e.getValue().path("Type").asText().equals("Task") && !fields.isEmpty()) {
                out.put(e.getKey(), fields);
            }
        });
        return out;
    }

    private static void collectIntrinsicFields(JsonNode template, String prefix, List<String> out) {
        template.properties().forEach(e -> {
            if (e.getKey().endsWith(".$")
                    && e.getValue().isTextual()
                    && e.getValue().asText().startsWith("States.")) {
                out.add(prefix + "/" + e.getKey().substring(0, e.getKey().length() - 2));
            } else if (e.getValue().isObject()) {
                collectIntrinsicFields(e.getValue(), prefix + "/" + e.getKey(), out);
            }
        });
    }

    /** Both sequences side by side around the first step where they differ. */
    static String sideBySide(String what, List<String> java, List<String> node) {
        return sideBySide(what, java, node, NODE);
    }

    /** The Java engine's and {@code other}'s sequences side by side around the first step where they differ. */
    static String sideBySide(String what, List<String> java, List<String> node, String other) {
        int first = 0;
        while (first < java.size() && first < node.size() && Objects.equals(java.get(first), node.get(first))) {
            first++;
        }
        int width = Math.max(
                        JAVA.length(),
                        java.stream().mapToInt(String::length).max().orElse(0))
                + 2;
        StringBuilder out = new StringBuilder();
        out.append(what)
                .append(" differ at step ")
                .append(first + 1)
                .append(" (")
                .append(JAVA)
                .append(": ")
                .append(java.size())
                .append(" steps, ")
                .append(other)
                .append(": ")
                .append(node.size())
                .append(" steps)\n");
        out.append(String.format("    %4s  %-" + width + "s%s%n", "#", JAVA, other));
        int from = Math.max(0, first - 3);
        int to = Math.min(Math.max(java.size(), node.size()), first + 8);
        for (int i = from; i < to; i++) {
            String left = i < java.size() ? java.get(i) : "-";
            String right = i < node.size() ? node.get(i) : "-";
            out.append(String.format(
                    "%s %4d  %-" + width + "s%s%n", Objects.equals(left, right) ? "   " : " >>", i + 1, left, right));
        }
        return out.toString();
    }
}
