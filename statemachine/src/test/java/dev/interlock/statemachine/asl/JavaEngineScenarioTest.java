package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
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
        return Scenarios.all().stream().map(scenario -> DynamicTest.dynamicTest(scenario.name(), () -> {
            JavaScenarioRunner.Outcome outcome = JavaScenarioRunner.run(scenario);

            Scenarios.assertMatchesExpectation(scenario, outcome.run());
            // The status read from the history is the one DescribeExecution reports.
            assertThat(outcome.run().status()).isEqualTo(outcome.description().status().name());
            assertThat(outcome.run().error()).isEqualTo(outcome.description().error());
            assertEveryAlertWasPublishedAsJson(outcome);
        }));
    }

    /** The SNS resource saw exactly the AlertError calls the history records, each Message a valid JSON document. */
    private static void assertEveryAlertWasPublishedAsJson(JavaScenarioRunner.Outcome outcome) {
        List<Scenarios.Invocation> alerts = outcome.run().invocations().stream()
                .filter(i -> i.state().equals("AlertError")).toList();
        assertThat(outcome.published()).as("SNS publishes recorded by the resource").hasSameSizeAs(alerts);
        for (JsonNode publish : outcome.published()) {
            assertThat(publish.get("TopicArn").asText()).isEqualTo(Scenarios.PLACEHOLDER_VALUES.get("AlertTopicArn"));
            assertThatCode(() -> Asl.JSON.readTree(publish.get("Message").asText()))
                    .as("alert Message is JSON: %s", publish.get("Message"))
                    .doesNotThrowAnyException();
        }
    }
}
