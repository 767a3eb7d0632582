package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Readiness rules beyond "every required trait passes", registered and run through the public API: {@code at-least}
 * k of a pool of traits, optional traits ({@code required: false}) that are evaluated but never block, and the
 * registration refusals that name the field.
 */
class ReadinessRulesEndToEndTest extends EndToEnd {

    private String twoOfThree(String name) {
        return """
                name: %1$s
                archetype: batch-ingestion
                readinessRule: {type: at-least, count: 2, traits: [source-freshness, upstream-dependency, schema-contract]}
                traits:
                  source-freshness: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-a, field: count, op: gte, value: 1}}
                  upstream-dependency: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-b, field: count, op: gte, value: 1}}
                  schema-contract: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-c, field: count, op: gte, value: 1}}
                  resource-availability: {evaluator: "builtin:always-pass"}
                  data-quality-sample: {evaluator: "builtin:always-fail", required: false}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                """.formatted(name, jobs.endpoint());
    }

    @Test
    void atLeastTwoOfThreeSourcesWaitsForTheSecondAndAFailingOptionalTraitNeverBlocks() {
        LocalDate date = today();
        putPipeline(twoOfThree("rl-two"));
        sensor("rl-two-a", "{\"count\":5}");

        // The sensor writes start evaluations too: whichever execution holds the day does the work.
        evaluate("rl-two", date);

        // One source of three: not ready, and the round says what it needs and which traits could make it up.
        JsonNode notReady = await(
                        "a NOT_READY round",
                        () -> eventsOf("rl-two", "READINESS_CHECKED").stream()
                                .filter(e -> e.path("status").asText().equals("NOT_READY"))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
        assertThat(notReady.path("message").asText())
                .isEqualTo("blocking: upstream-dependency, schema-contract (needs at least 2 of [source-freshness, "
                        + "upstream-dependency, schema-contract])");
        assertThat(notReady.path("details")
                        .path("statuses")
                        .path("data-quality-sample")
                        .asText())
                .as("the optional trait is evaluated and shown")
                .isEqualTo("FAIL");
        JsonNode daily = expect(200, "GET", "/pipelines/rl-two/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
        assertThat(daily.path("blocking").findValuesAsText("traitType"))
                .containsExactlyInAnyOrder("upstream-dependency", "schema-contract");
        assertThat(jobs.triggersOf("rl-two")).isZero();

        // The second source arrives: the next round is ready although the optional trait still fails.
        sensor("rl-two-c", "{\"count\":3}");
        await("rl-two's day COMPLETED", () -> runLogStatus("rl-two", date, "daily"), "COMPLETED"::equals);
        assertThat(awaitExecutionsDone("rl-two"))
                .allSatisfy(e -> assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
        assertThat(jobs.triggersOf("rl-two")).isEqualTo(1);
        List<JsonNode> ready = eventsOf("rl-two", "READINESS_CHECKED").stream()
                .filter(e -> e.path("status").asText().equals("READY"))
                .toList();
        assertThat(ready)
                .singleElement()
                .satisfies(e -> assertThat(e.path("message").asText())
                        .isEqualTo("every required trait and at least 2 of [source-freshness, upstream-dependency, "
                                + "schema-contract] passed"));
        assertThat(alertKinds("rl-two")).doesNotContain("TRAIT_ERROR");

        // The failing optional trait is a warning in status and why, never a blocker.
        JsonNode done = expect(200, "GET", "/pipelines/rl-two/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
        assertThat(done.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(done.path("blocking")).isEmpty();
        assertThat(done.path("warnings").findValuesAsText("traitType")).containsExactly("data-quality-sample");
        assertThat(why("rl-two", date)).contains("warning: optional trait data-quality-sample is FAIL");
    }

    @Test
    void aRuleThatCannotBeMetIsRefusedAtRegistrationWithItsPath() {
        Response tooMany = call(
                "PUT",
                "/pipelines/rl-bad",
                "application/yaml",
                twoOfThree("rl-bad").replace("count: 2", "count: 4"));
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().path("errors").findValuesAsText("path")).containsExactly("$.readinessRule.count");
        assertThat(tooMany.body().path("errors").findValuesAsText("message"))
                .singleElement()
                .asString()
                .contains("between 1 and the 3 listed traits, got 4");
        assertThat(call("GET", "/pipelines/rl-bad", null, null).status())
                .as("nothing half-written")
                .isEqualTo(404);
    }
}
