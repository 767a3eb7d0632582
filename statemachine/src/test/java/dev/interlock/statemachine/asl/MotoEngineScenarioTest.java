package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.HistoryEvent;
import java.io.IOException;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestReporter;

/**
 * The third engine: every path scenario, run on LocalStack's ASL interpreter as shipped in moto with the same scripted
 * Task results ({@link MotoScenarioRunner}), must visit the same top-level states, make the same Task invocations
 * (retried attempts included), end with the same status and Fail error, and send the same first request to every Task
 * as on our Java engine. The scenarios are picked up from their directory, so a new one runs here unchanged.
 *
 * <p>The harness corrects moto where it departs from AWS on this ASL (src/test/python/moto_asl_engine.py; the
 * scenarios README lists each). Requests are then compared after three normalisations, each accepting only a
 * difference whose cause is known and checking both sides before it does:
 * <ol>
 *   <li>{@code executionStartTime} carries {@code $$.Execution.StartTime}: the Java engine's virtual start, moto's wall
 *       clock (the same rule as the node cross-check).</li>
 *   <li>A value carrying {@code $$.State.EnteredTime} (inside the alert body built by intrinsic functions; the start
 *       of following a job, passed on to the poll) is a state's entry in the Java engine's history and any millisecond
 *       UTC timestamp in moto's.</li>
 *   <li>A caught function error's {@code Cause}: a scripted failure reaches moto as a real Lambda function error, whose
 *       Cause is the error payload {@code {"errorType","errorMessage","trace"}} as on AWS; the Java engine's task
 *       resources fail with the cause text itself. Accepted where moto's payload carries exactly the Java cause and
 *       error, and published as a report entry.</li>
 * </ol>
 */
class MotoEngineScenarioTest {

    private static final String MOTO = "moto (LocalStack ASL)";
    private static final DateTimeFormatter CONTEXT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
    private static final Pattern CONTEXT_TIMESTAMP =
            Pattern.compile("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z");
    private static final String ENTERED_TIME_TOKEN = "<$$.State.EnteredTime>";

    @Test
    void motoRanEveryScenario() {
        assertThat(MotoScenarioRunner.runs().keySet())
                .containsExactlyInAnyOrderElementsOf(
                        Scenarios.all().stream().map(Scenarios.Scenario::name).toList());
    }

    @TestFactory
    Stream<DynamicTest> motoTakesTheJavaEnginesPath(TestReporter reporter) {
        // Not yet on moto: the callback scenarios (WaitForJobCallback, .waitForTaskToken). Moto's engine would wait for
        // a SendTaskSuccess sent to moto itself, which the scripted Lambda endpoint does not send; the Java engine and
        // aws-local-stepfunctions run them.
        return Scenarios.all().stream()
                .filter(scenario -> scenario.results("WaitForJobCallback") == null)
                .map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
                    Scenarios.Run moto = MotoScenarioRunner.runs().get(scenario.name());
                    assertThat(moto)
                            .as("moto reported scenario %s", scenario.name())
                            .isNotNull();
                    JavaScenarioRunner.Outcome outcome = JavaScenarioRunner.run(scenario);
                    Scenarios.Run java = outcome.run();

                    SoftAssertions soft = new SoftAssertions();
                    soft.assertThat(java.problems())
                            .as("Java engine scripting problems")
                            .isEmpty();
                    soft.assertThat(moto.problems())
                            .as("%s scripting problems", MOTO)
                            .isEmpty();
                    soft.assertThat(java.states())
                            .withFailMessage(() -> CrossEngineScenarioTest.sideBySide(
                                    "visited top-level states", java.states(), moto.states(), MOTO))
                            .isEqualTo(moto.states());
                    List<String> javaCalls = java.invocations().stream()
                            .map(Scenarios.Invocation::toString)
                            .toList();
                    List<String> motoCalls = moto.invocations().stream()
                            .map(Scenarios.Invocation::toString)
                            .toList();
                    soft.assertThat(javaCalls)
                            .withFailMessage(() ->
                                    CrossEngineScenarioTest.sideBySide("Task invocations", javaCalls, motoCalls, MOTO))
                            .isEqualTo(motoCalls);
                    soft.assertThat(java.status() + " " + java.error())
                            .as("final status and Fail error (Java engine vs %s)", MOTO)
                            .isEqualTo(moto.status() + " " + moto.error());
                    soft.assertThat(java.requests().keySet())
                            .as("Task states that received a request")
                            .containsExactlyElementsOf(moto.requests().keySet());
                    java.requests().forEach((state, javaRequest) -> {
                        JsonNode motoRequest = moto.requests().get(state);
                        if (motoRequest == null) {
                            return;
                        }
                        JsonNode javaNormalised = javaRequest.deepCopy();
                        JsonNode motoNormalised = motoRequest.deepCopy();
                        CrossEngineScenarioTest.normaliseStartTime(
                                javaNormalised,
                                motoNormalised,
                                outcome.description().startDate());
                        Normalisation n = new Normalisation(enteredTimes(outcome.history()));
                        JsonNode javaSide = n.apply(javaNormalised, motoNormalised, true);
                        JsonNode motoSide = n.apply(javaNormalised, motoNormalised, false);
                        n.accepted.forEach(note -> reporter.publishEntry(
                                "function error cause accepted", scenario.name() + " " + state + ": " + note));
                        soft.assertThat(motoSide)
                                .as("first request of %s (Java engine, then %s)", state, MOTO)
                                .isEqualTo(javaSide);
                    });
                    soft.assertAll();
                }));
    }

    /** Normalisations 2 and 3, walking both requests side by side (into strings that hold JSON documents too). */
    private static final class Normalisation {
        private final java.util.Set<String> javaEnteredTimes;
        private final List<String> accepted = new java.util.ArrayList<>();

        Normalisation(java.util.Set<String> javaEnteredTimes) {
            this.javaEnteredTimes = javaEnteredTimes;
        }

        /** The Java side ({@code javaSide}) or the moto side of the pair, normalised. */
        JsonNode apply(JsonNode java, JsonNode moto, boolean javaSide) {
            if (java.isObject() && moto.isObject()) {
                ObjectNode out = (ObjectNode) (javaSide ? java : moto).deepCopy();
                java.properties().forEach(e -> {
                    if (moto.has(e.getKey())) {
                        out.set(e.getKey(), apply(e.getValue(), moto.get(e.getKey()), javaSide));
                    }
                });
                return out;
            }
            if (java.isArray() && moto.isArray() && java.size() == moto.size()) {
                ArrayNode out = Asl.JSON.createArrayNode();
                for (int i = 0; i < java.size(); i++) {
                    out.add(apply(java.get(i), moto.get(i), javaSide));
                }
                return out;
            }
            if (java.isTextual() && moto.isTextual()) {
                return text(java.asText(), moto.asText(), javaSide);
            }
            return javaSide ? java : moto;
        }

        private JsonNode text(String java, String moto, boolean javaSide) {
            if (javaEnteredTimes.contains(java)
                    && CONTEXT_TIMESTAMP.matcher(moto).matches()) {
                return TextNode.valueOf(ENTERED_TIME_TOKEN);
            }
            JsonNode javaJson = json(java);
            JsonNode motoJson = json(moto);
            if (motoJson != null
                    && motoJson.isObject()
                    && motoJson.path("errorMessage").asText("\0").equals(java)
                    && motoJson.has("errorType")
                    && (javaJson == null || !javaJson.isObject())) {
                if (javaSide) {
                    accepted.add(moto + " carries the Java engine's cause " + java);
                }
                return TextNode.valueOf(java);
            }
            if (javaJson != null && motoJson != null && javaJson.isContainerNode() && motoJson.isContainerNode()) {
                return TextNode.valueOf(apply(javaJson, motoJson, javaSide).toString());
            }
            return TextNode.valueOf(javaSide ? java : moto);
        }

        private static JsonNode json(String text) {
            if (!text.startsWith("{") && !text.startsWith("[")) {
                return null;
            }
            try {
                return Asl.JSON.readTree(text);
            } catch (IOException notJson) {
                return null;
            }
        }
    }

    /** Every {@code $$.State.EnteredTime} the Java engine handed out: each state entry of its history. */
    private static java.util.Set<String> enteredTimes(List<HistoryEvent> history) {
        return history.stream()
                .filter(e -> e.details() instanceof EventDetails.StateEntered)
                .map(e -> CONTEXT_TIME.format(e.timestamp()))
                .collect(java.util.stream.Collectors.toSet());
    }
}
