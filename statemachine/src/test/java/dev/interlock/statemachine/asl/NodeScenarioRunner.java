package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The scenarios' results on aws-local-stepfunctions (src/test/node/run-scenarios.mjs). The node run takes most of
 * the module's test time, so it runs once per test JVM and every test that needs it shares the result.
 */
final class NodeScenarioRunner {

    private static final long TIMEOUT_SECONDS = 300;
    private static Map<String, Scenarios.Run> runs;
    private static IllegalStateException failure;

    private NodeScenarioRunner() {}

    /**
     * Every scenario's run by scenario name; fails (never skips) when node or the npm packages are missing. A failed
     * node run is remembered, so the tests that need it fail at once instead of each waiting for another run.
     */
    static synchronized Map<String, Scenarios.Run> runs() {
        if (failure != null) {
            throw failure;
        }
        if (runs == null) {
            try {
                runs = runOnce();
            } catch (Exception e) {
                failure = e instanceof IllegalStateException ise
                        ? ise
                        : new IllegalStateException("running the scenarios on aws-local-stepfunctions failed: " + e, e);
                throw failure;
            }
        }
        return runs;
    }

    private static Map<String, Scenarios.Run> runOnce() throws Exception {
        NodeTool.Result result = NodeTool.run(
                List.of(
                        "node",
                        "src/test/node/run-scenarios.mjs",
                        "src/main/resources/asl/interlock.asl.json",
                        Scenarios.DIR.toString()),
                TIMEOUT_SECONDS);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(
                    "run-scenarios.mjs exited with " + result.exitCode() + ":\n" + result.stderr());
        }
        Map<String, Scenarios.Run> parsed = new LinkedHashMap<>();
        for (JsonNode run : Asl.JSON.readTree(result.stdout())) {
            parsed.put(run.get("name").asText(), Scenarios.Run.fromNodeJson(run));
        }
        return Map.copyOf(parsed);
    }
}
