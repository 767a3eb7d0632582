package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every path scenario on aws-local-stepfunctions (an independent ASL engine) via
 * src/test/node/run-scenarios.mjs and compares the visited states, the Task invocations, the first requests and
 * the final status with the scenario's expectation.
 */
class ScenarioTest {

    @Test
    void coversEveryRequiredPathAndEveryTopLevelState() throws Exception {
        Map<String, Scenarios.Run> actual = NodeScenarioRunner.runs();
        assertThat(actual.keySet()).hasSize(Scenarios.all().size()).hasSizeGreaterThanOrEqualTo(15);
        List<String> visited = new ArrayList<>();
        actual.values().forEach(run -> visited.addAll(run.states()));
        List<String> all = new ArrayList<>();
        Asl.definition().get("States").fieldNames().forEachRemaining(all::add);
        assertThat(visited).containsAll(all);
    }

    @TestFactory
    Stream<DynamicTest> eachScenarioFollowsItsExpectedPath() {
        return Scenarios.all().stream().map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
            Scenarios.Run run = NodeScenarioRunner.runs().get(scenario.name());
            assertThat(run).as("the runner reported this scenario").isNotNull();
            Scenarios.assertMatchesExpectation(scenario, run);
        }));
    }
}
