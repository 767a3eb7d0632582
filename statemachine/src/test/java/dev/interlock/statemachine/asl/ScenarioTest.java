package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
    void coversEveryTopLevelState() {
        Map<String, Scenarios.Run> actual = NodeScenarioRunner.runs();
        assertThat(actual.keySet()).hasSize(Scenarios.all().size()).hasSizeGreaterThanOrEqualTo(15);
        List<String> visited = new ArrayList<>();
        actual.values().forEach(run -> visited.addAll(run.states()));
        List<String> all = new ArrayList<>();
        Asl.definition().get("States").fieldNames().forEachRemaining(all::add);
        assertThat(visited).containsAll(all);
    }

    /** The paths every change must keep; each has its scenario (the file name without .json). */
    @Test
    void everyPathTheIssueNamesHasAScenario() {
        Map<String, String> required = new LinkedHashMap<>();
        required.put("happy path, sync trigger", "01-happy-path-sync-trigger");
        required.put("happy path, async trigger", "02-happy-path-async-trigger-polling");
        required.put("excluded", "03-excluded");
        required.put("lock held by a holder waiting on NOT READY: absorbed", "04-lock-held-marker-absorbed");
        required.put("lock held by a holder past evaluation: wait, then run", "22-lock-held-replay-waits-then-runs");
        required.put("already completed", "05-already-completed");
        required.put("replay of a completed run", "06-replay-of-completed-run");
        required.put("not ready -> ready", "07-not-ready-then-ready");
        required.put("validation exhausted", "08-validation-exhausted");
        required.put("trigger failure retried then succeeded", "09-trigger-failure-retried");
        required.put("retries exhausted", "10-retries-exhausted");
        required.put(
                "job past its poll window followed, cancelled past its maximum; retry beyond the budget handed over",
                "12-job-followed-then-cancelled-retry-handed-over");
        required.put("monitoring without drift", "13-monitoring-without-drift");
        required.put("monitoring with drift", "14-monitoring-with-drift-late-arrival");
        required.put("a Task throwing -> alert -> lock released", "15-task-throws-alert-released-fail");
        List<String> names =
                Scenarios.all().stream().map(Scenarios.Scenario::name).toList();
        assertThat(names).containsAll(required.values());
    }

    @TestFactory
    Stream<DynamicTest> eachScenarioFollowsItsExpectedPath() {
        return Scenarios.all().stream()
                .map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
                    Scenarios.Run run = NodeScenarioRunner.runs().get(scenario.name());
                    assertThat(run).as("the runner reported this scenario").isNotNull();
                    Scenarios.assertMatchesExpectation(scenario, run);
                }));
    }
}
