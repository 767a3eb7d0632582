package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.sfn.InterlockStateMachine;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.statemachine.AslDefinition;
import dev.interlock.testing.ExternalTools;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The local Step Functions and Lambda endpoints answer real AWS clients as AWS does. {@code
 * src/test/python/endpoint_conformance.py} makes every operation they support — with the arguments a client gets
 * wrong: unknown and malformed ARNs, a reused execution name, bad names, inputs, filters, page sizes and tokens — with
 * boto3 and with the AWS CLI, once against this runtime and once against moto, and reports each answer's shape (keys
 * and value types) or its error code and HTTP status. This test proves:
 * <ul>
 *   <li>every answer has moto's shape or error code, except where moto itself is not AWS: those calls are listed
 *       in {@code src/test/python/README.md} with the reason and AWS's answer, and the local endpoint must give AWS's
 *       answer (and the listed deviation must still be moto's, so the list cannot go stale); and except the calls on
 *       a state machine or function that is not Interlock's, which the local runtime answers with a job fake by
 *       design (listed there too);</li>
 *   <li>no error message shows one of our class names;</li>
 *   <li>value-level behaviour moto cannot judge: ListExecutions pages neither repeat nor skip an execution when one
 *       starts between pages, a token is refused by a listing with another filter, reversed history pages walk back
 *       without gaps, {@code includeExecutionData=false} drops inputs and outputs, DescribeStateMachine returns the
 *       deployed ASL, ListFunctions pages list every function once, every function can be invoked, and
 *       {@code LogType=Tail} returns the invocation's log.</li>
 * </ul>
 * Skipped on a developer machine without python3, moto, boto3 or the AWS CLI; failed in CI ({@code CI=true}).
 */
class LocalEndpointsConformanceTest extends EndToEnd {

    private static final Path SCRIPT = Path.of("src/test/python/endpoint_conformance.py");
    /** Importing moto and starting two dozen AWS CLI processes takes tens of seconds on a loaded machine. */
    private static final long SCRIPT_LIMIT_SECONDS = 240;
    /** How many waiting executions the script starts on each target. */
    private static final int RUNNING_EXECUTIONS = 10;

    private JsonNode report;

    /** Real time: the "running" executions must still be waiting while the clients look at them. */
    @Override
    double timeScale() {
        return 1.0;
    }

    @BeforeAll
    void runTheClients() throws Exception {
        ExternalTools.require(
                ExternalTools.output(List.of("python3", "-c", "import moto.server, boto3"))
                        .isPresent(),
                "python3 with moto and boto3 is not installed (pinned in integration-tests/src/test/python/requirements.txt)");
        ExternalTools.require(
                ExternalTools.output(List.of("aws", "--version")).isPresent(),
                "the AWS CLI (aws) is not installed (pinned in integration-tests/src/test/python/requirements.txt)");
        LocalDate date = today();
        // Executions that keep waiting for their source: one pipeline each, since a pipeline-day runs once at a time.
        List<JsonNode> running = new ArrayList<>();
        for (int i = 0; i < RUNNING_EXECUTIONS; i++) {
            putPipeline("""
                    name: conformance-waits-%d
                    archetype: batch-ingestion
                    traits:
                      source-freshness: {evaluator: "builtin:always-fail"}
                      upstream-dependency: {evaluator: "builtin:always-pass"}
                      resource-availability: {evaluator: "builtin:always-pass"}
                    trigger: {type: http, url: "%s/jobs/never"}
                    """.formatted(i, jobs.endpoint()));
            running.add(day("conformance-waits-" + i, date));
        }
        ObjectNode spec = JSON.createObjectNode();
        spec.put("sfn", rt.stepFunctionsEndpoint().toString());
        spec.put("lambda", rt.lambdaEndpoint().toString());
        spec.put("stateMachineArn", rt.stateMachineArn());
        spec.set("runningInputs", JSON.valueToTree(running));
        spec.set("endedInput", day("conformance-unregistered", date));
        spec.set("functions", JSON.valueToTree(functionNames()));
        ObjectNode invocations = spec.putObject("invocations");
        invocations.set(
                "orchestrator", JSON.readTree("""
                {"action":"%s","pipelineId":"conformance-waits-0","scheduleId":"daily","date":"%s"}""".formatted(OrchestratorAction.CHECK_EXCLUSION.wireName(), date)));
        invocations.set("api", JSON.readTree("""
                {"httpMethod":"GET","path":"/health","resource":"/health","headers":{},
                 "requestContext":{"httpMethod":"GET","path":"/v1/health"}}"""));
        invocations.set("stream-router", JSON.readTree("{\"Records\":[]}"));
        invocations.set("no-such-function", JSON.readTree("{\"--fake-duration-seconds\":0}"));

        Path out = Path.of("target/endpoint-conformance.json").toAbsolutePath();
        Process p = new ProcessBuilder("python3", SCRIPT.toString(), out.toString())
                .redirectErrorStream(true)
                .start();
        try (var stdin = p.getOutputStream()) {
            stdin.write(spec.toString().getBytes(StandardCharsets.UTF_8));
        }
        StringBuilder output = new StringBuilder();
        Thread reader = Thread.ofVirtual().start(() -> {
            try {
                output.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                output.append(e);
            }
        });
        if (!p.waitFor(SCRIPT_LIMIT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("endpoint_conformance.py did not finish within " + SCRIPT_LIMIT_SECONDS + " s");
        }
        reader.join();
        assertThat(p.exitValue())
                .as("endpoint_conformance.py failed:%n%s", output)
                .isZero();
        report = JSON.readTree(out.toFile());
    }

    @TestFactory
    Stream<DynamicTest> everyCallAnswersLikeAws() {
        return calls().map(c -> DynamicTest.dynamicTest(
                c.get("client").asText() + " " + c.get("call").asText(), () -> {
                    if (c.hasNonNull("localByDesign")) {
                        assertThat(c.get("local"))
                                .as(
                                        "local answer to %s, which differs from AWS by design: %s",
                                        c.get("call"), c.get("reason").asText())
                                .isEqualTo(c.get("localByDesign"));
                    } else if (c.hasNonNull("aws")) {
                        assertThat(c.get("moto"))
                                .as(
                                        "moto still deviates from AWS on %s (else drop it from the README's list)",
                                        c.get("call"))
                                .isNotEqualTo(c.get("aws"));
                        assertThat(c.get("local"))
                                .as(
                                        "local answer to %s vs AWS's (moto deviates: %s)",
                                        c.get("call"), c.get("deviation").asText())
                                .isEqualTo(c.get("aws"));
                    } else {
                        assertThat(c.get("local"))
                                .as("local answer to %s vs moto's", c.get("call"))
                                .isEqualTo(c.get("moto"));
                    }
                }));
    }

    @Test
    void everyLocalObservationWasMade() {
        assertThat(texts(report.get("local").get("failures")))
                .as("calls that failed while observing the local endpoints")
                .isEmpty();
    }

    @Test
    void errorMessagesNameNoClassOfOurs() {
        List<String> messages = calls().filter(c -> c.hasNonNull("localMessage"))
                .map(c -> c.get("localMessage").asText())
                .toList();
        assertThat(messages)
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m)
                        .doesNotContainPattern(
                                "\\b(java|javax|dev\\.interlock|com\\.fasterxml|software\\.amazon)\\.[a-z]")
                        .doesNotContain("Exception:"));
    }

    @Test
    void listExecutionsPagesNeitherRepeatNorSkipWhenExecutionsStartBetweenPages() {
        JsonNode local = report.get("local");
        List<String> seen = new ArrayList<>();
        local.get("listExecutionsPages").forEach(page -> page.forEach(name -> seen.add(name.asText())));
        assertThat(seen)
                .doesNotHaveDuplicates()
                .containsAll(texts(local.get("pagedNames")))
                .doesNotContain(local.get("startedBetweenPages").asText());
        assertThat(local.get("tokenOfOtherFilter").path("error").asText()).isEqualTo("InvalidToken");
    }

    @Test
    void reversedHistoryPagesWalkBackWithoutGaps() {
        JsonNode local = report.get("local");
        assertThat(local.get("endedStatus").asText()).isIn("SUCCEEDED", "FAILED");
        List<Long> ids = new ArrayList<>();
        local.get("historyPagesNewestFirst").forEach(page -> page.forEach(id -> ids.add(id.asLong())));
        assertThat(local.get("historyPagesNewestFirst")).hasSizeGreaterThan(1);
        assertThat(ids).isNotEmpty().last().isEqualTo(1L);
        for (int i = 1; i < ids.size(); i++) {
            assertThat(ids.get(i)).as("event after %s", ids.get(i - 1)).isEqualTo(ids.get(i - 1) - 1);
        }
    }

    @Test
    void historyWithoutExecutionDataHasNoInputsOrOutputs() {
        JsonNode local = report.get("local");
        assertThat(texts(local.get("historyWithDataKeys"))).contains("input", "output");
        assertThat(texts(local.get("historyWithoutDataKeys"))).isNotEmpty().doesNotContain("input", "output");
    }

    @Test
    void describeStateMachineReturnsTheDeployedDefinition() throws Exception {
        assertThat(JSON.readTree(report.get("local").get("definition").asText()))
                .isEqualTo(JSON.readTree(AslDefinition.substitute(InterlockStateMachine.substitutions())));
    }

    @Test
    void listFunctionsPagesListEveryFunctionOnce() {
        List<String> listed = new ArrayList<>();
        report.get("local").get("listFunctionsPages").forEach(page -> {
            assertThat(page.size()).isLessThanOrEqualTo(2);
            page.forEach(n -> listed.add(n.asText()));
        });
        assertThat(listed)
                .containsExactlyElementsOf(functionNames().stream().sorted().toList());
    }

    @Test
    void everyFunctionCanBeInvokedAndTailsItsLog() {
        JsonNode invoked = report.get("local").get("invocations");
        assertThat(invoked.get("no-such-function").get("payload").asText())
                .as("any other function is a job fake")
                .contains("\"outcome\":\"SUCCEEDED\"");
        JsonNode health = invoked.get("api");
        assertThat(health.get("functionError").isNull()).as("api: %s", health).isTrue();
        assertThat(health.get("payload").asText()).contains("\"statusCode\":200");
        assertThat(invoked.get("stream-router").get("payload").asText()).contains("batchItemFailures");
        assertThat(invoked.get("orchestrator").get("functionError").isNull())
                .as("orchestrator: %s", invoked.get("orchestrator"))
                .isTrue();
        for (String name : List.of("orchestrator", "api", "stream-router")) {
            JsonNode r = invoked.get(name);
            assertThat(r.get("executedVersion").asText()).isEqualTo("$LATEST");
            assertThat(r.get("log").asText())
                    .as("%s's log tail", name)
                    .startsWith("START RequestId: ")
                    .contains("\nEND RequestId: ")
                    .contains("\nREPORT RequestId: ");
            assertThat(r.get("logBytes").asInt()).isLessThanOrEqualTo(4096);
        }
        assertThat(invoked.get("orchestrator").get("log").asText())
                .as("the function's own log lines are in its tail")
                .contains("\"logger\":\"orchestrator\"");
    }

    private Stream<JsonNode> calls() {
        return StreamSupport.stream(report.get("calls").spliterator(), false);
    }

    private static List<String> functionNames() {
        return Arrays.stream(InterlockFunction.values())
                .map(InterlockStateMachine::functionName)
                .toList();
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode day(String pipeline, LocalDate date) {
        ObjectNode n = JSON.createObjectNode();
        n.put("pipelineId", pipeline);
        n.put("scheduleId", "daily");
        n.put("date", date.toString());
        return n;
    }
}
