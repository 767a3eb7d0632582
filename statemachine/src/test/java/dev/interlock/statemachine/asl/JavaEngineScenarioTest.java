package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.HistoryEvent;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs every path scenario on our Java ASL engine (the real ASL file, virtual time, scripted task results) and checks
 * the path read from its execution history against the scenario's expectation.
 */
class JavaEngineScenarioTest {

    @TestFactory
    Stream<DynamicTest> eachScenarioFollowsItsExpectedPathOnTheJavaEngine() {
        return Scenarios.all().stream()
                .map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
                    JavaScenarioRunner.Outcome outcome = JavaScenarioRunner.run(scenario);

                    Scenarios.assertMatchesExpectation(scenario, outcome.run());
                    // The status read from the history is the one DescribeExecution reports.
                    assertThat(outcome.run().status())
                            .isEqualTo(outcome.description().status().name());
                    assertThat(outcome.run().error())
                            .isEqualTo(outcome.description().error());
                    assertEveryAlertWasPublishedAsJson(outcome);
                }));
    }

    /**
     * The SNS resource saw exactly the AlertErrorViaTopic calls the history records, and each Message is a JSON document
     * whose details.error is the caught error unchanged, whatever quotes or backslashes its cause holds (AWS
     * semantics of States.JsonToString inside States.Format; aws-local-stepfunctions differs here, see the README).
     */
    private static void assertEveryAlertWasPublishedAsJson(JavaScenarioRunner.Outcome outcome) throws Exception {
        List<Scenarios.Invocation> alerts = outcome.run().invocations().stream()
                .filter(i -> i.state().equals("AlertErrorViaTopic"))
                .toList();
        assertThat(outcome.published())
                .as("SNS publishes recorded by the resource")
                .hasSameSizeAs(alerts);
        for (JsonNode publish : outcome.published()) {
            assertThat(publish.get("TopicArn").asText()).isEqualTo(Scenarios.PLACEHOLDER_VALUES.get("AlertTopicArn"));
            assertThatCode(() -> Asl.JSON.readTree(publish.get("Message").asText()))
                    .as("alert Message is JSON: %s", publish.get("Message"))
                    .doesNotThrowAnyException();
            JsonNode message = Asl.JSON.readTree(publish.get("Message").asText());
            assertThat(message.at("/details/error"))
                    .as("the caught error in the alert body")
                    .isEqualTo(alertStateInput(outcome.history()).get("errorInfo"));
        }
    }

    private static JsonNode alertStateInput(List<HistoryEvent> history) throws Exception {
        for (HistoryEvent event : history) {
            if (event.details() instanceof EventDetails.StateEntered entered
                    && entered.name().equals("AlertErrorViaTopic")) {
                return Asl.JSON.readTree(entered.input());
            }
        }
        throw new AssertionError("an alert was published but the history has no AlertErrorViaTopic StateEntered event");
    }
}
