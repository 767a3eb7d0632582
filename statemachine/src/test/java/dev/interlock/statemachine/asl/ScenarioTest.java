package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every path scenario on aws-local-stepfunctions (an independent ASL engine) via
 * src/test/node/run-scenarios.mjs and compares the visited states, the Task invocations, the first requests and
 * the final status with the scenario's expectation.
 */
class ScenarioTest {

    private static final Path SCENARIOS = Path.of("src/test/resources/scenarios");
    private static Map<String, JsonNode> actual;

    @BeforeAll
    static void runAllScenariosOnce() throws Exception {
        NodeTool.Result result = NodeTool.run(List.of("node", "src/test/node/run-scenarios.mjs",
                "src/main/resources/asl/interlock.asl.json", SCENARIOS.toString()), 300);
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        actual = new TreeMap<>();
        for (JsonNode run : Asl.JSON.readTree(result.stdout())) {
            actual.put(run.get("name").asText(), run);
        }
    }

    @Test
    void coversEveryRequiredPathAndEveryTopLevelState() throws IOException {
        assertThat(actual.keySet()).hasSize(scenarioFiles().size()).hasSizeGreaterThanOrEqualTo(15);
        List<String> visited = new ArrayList<>();
        actual.values().forEach(run -> run.get("states").forEach(s -> visited.add(s.asText())));
        List<String> all = new ArrayList<>();
        Asl.definition().get("States").fieldNames().forEachRemaining(all::add);
        assertThat(visited).containsAll(all);
    }

    @TestFactory
    Stream<DynamicTest> eachScenarioFollowsItsExpectedPath() throws IOException {
        return scenarioFiles().stream().map(file -> DynamicTest.dynamicTest(file.getFileName().toString(), () -> {
            JsonNode scenario = Asl.JSON.readTree(file.toFile());
            JsonNode expect = scenario.get("expect");
            JsonNode run = actual.get(file.getFileName().toString().replace(".json", ""));
            assertThat(run).as("the runner reported this scenario").isNotNull();
            assertThat(run.get("problems")).as("scripting problems").isEmpty();
            assertThat(names(run.get("states"))).as("visited states").containsExactlyElementsOf(names(expect.get("states")));
            assertThat(run.get("invocations")).as("task invocations").isEqualTo(expect.get("invocations"));
            assertThat(run.get("status").asText()).isEqualTo(expect.get("status").asText());
            assertThat(run.get("error")).as("Fail state error").isEqualTo(expect.get("error"));
            expect.path("requests").properties().forEach(e -> {
                JsonNode sent = run.get("requests").get(e.getKey());
                assertThat(sent).as("request of " + e.getKey()).isNotNull();
                assertThat(sent).as("request of " + e.getKey()).isEqualTo(withAnyResolved(e.getValue(), sent));
            });
        }));
    }

    private static List<Path> scenarioFiles() throws IOException {
        try (Stream<Path> files = Files.list(Asl.moduleDir().resolve(SCENARIOS))) {
            return files.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    private static List<String> names(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** The scenario format's "$any" matches any present value (used for the engine's own execution start time). */
    private static JsonNode withAnyResolved(JsonNode expected, JsonNode actualValue) {
        if (expected.isTextual() && expected.asText().equals("$any") && actualValue != null && !actualValue.isMissingNode()) {
            return actualValue;
        }
        if (expected.isObject() && actualValue != null && actualValue.isObject()) {
            ObjectNode copy = expected.deepCopy();
            expected.properties().forEach(e -> copy.set(e.getKey(), withAnyResolved(e.getValue(), actualValue.get(e.getKey()))));
            return copy;
        }
        return expected;
    }
}
