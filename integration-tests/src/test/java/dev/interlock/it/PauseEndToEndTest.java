package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Through the real runtime: an operator pauses a pipeline whose source is in maintenance. Its sensor
 * arrivals and the markers written for it start nothing and each leaves its reason; evaluating it is refused; status,
 * the CLI and the web UI say it is paused, by whom and why; resuming it is audited, lists the windows it missed, and the
 * next arrival runs the day.
 */
class PauseEndToEndTest extends BrowserEndToEnd {

    /** A pipeline its sensor's data starts: ready once the sensor counts at least one row. */
    private String sensorDriven(String name) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-src, field: count, op: gte, value: 1}}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                """.formatted(name, jobs.endpoint());
    }

    /** A producer writing a marker item itself (docs/table-design.md). */
    private void writeExternalMarker(String pipeline, String suffix, LocalDate date) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", AttributeValue.fromS("PIPELINE#" + pipeline));
        item.put("SK", AttributeValue.fromS("MARKER#external#" + suffix));
        item.put("pipelineId", AttributeValue.fromS(pipeline));
        item.put("date", AttributeValue.fromS(date.toString()));
        item.put("source", AttributeValue.fromS("external"));
        try (DynamoDbClient db = dynamoDb()) {
            db.putItem(b -> b.tableName(dev.interlock.local.runtime.LocalRuntime.TABLE_NAME)
                    .item(item));
        }
    }

    @Test
    void aPausedPipelineStartsNothingSaysWhyEverywhereAndRunsAgainAfterResume() {
        String id = "pz-orders";
        putPipeline(sensorDriven(id));

        String paused = printed("pause", id, "--reason", "orders DB maintenance");
        assertThat(paused).contains("paused pipeline " + id).contains("by local: orders DB maintenance");
        Cli twice = runCli("pause", id, "--reason", "again");
        assertThat(twice.code()).isEqualTo(1);
        assertThat(twice.err()).contains("HTTP 409").contains("already paused");
        assertThat(eventsOf(id, "PAUSED"))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.path("details").path("reason").asText()).isEqualTo("orders DB maintenance"));

        // The status says so, with who and why; the fleet table and `why` too.
        JsonNode status = expect(200, "GET", "/pipelines/" + id + "/status", null, null);
        assertThat(status.at("/paused/reason").asText()).isEqualTo("orders DB maintenance");
        assertThat(status.at("/paused/pausedBy").asText()).isEqualTo("local");
        assertThat(status.at("/schedules/0/state").asText()).isEqualTo("PAUSED");
        assertThat(status.at("/schedules/0/reason").asText())
                .contains("paused since")
                .contains("orders DB maintenance");
        assertThat(printed("status")).containsPattern(id + "\\s+\\S+\\s+PAUSED");
        assertThat(printed("why", id)).contains("PAUSED since").contains("orders DB maintenance");
        assertThat(printed("pauses")).containsPattern(id + "\\s+" + SHOWN_TIME + "\\s+local\\s+orders DB maintenance");

        // Data arriving starts nothing and says why; a producer's own marker is skipped by the router with a reason;
        // an operator's evaluation is refused.
        JsonNode written = expect(200, "PUT", "/sensors/" + id + "-src", "application/json", "{\"count\":5}");
        assertThat(written.path("evaluations")).isEmpty();
        assertThat(written.at("/skipped/0/reason").asText()).contains("paused").contains("orders DB maintenance");
        writeExternalMarker(id, "producer-1", today());
        JsonNode skip = await(
                        "the router's skip of the producer's marker",
                        () -> eventsOf(id, "MARKER_SKIPPED"),
                        skips -> !skips.isEmpty())
                .getFirst();
        assertThat(skip.path("status").asText()).isEqualTo("PAUSED");
        assertThat(skip.path("message").asText())
                .contains("MARKER#external#producer-1")
                .contains("paused since");
        // The trail keeps the UTC instant; `events` shows it on the pipeline's wall clock with the offset.
        assertThat(skip.path("message").asText()).containsPattern("paused since \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z");
        assertThat(printed("events", id, "--kind", "MARKER_SKIPPED"))
                .containsPattern("paused since " + SHOWN_TIME + " by local")
                .doesNotContainPattern("paused since \\d{4}-\\d\\d-\\d\\dT");
        Cli evaluate = runCli("evaluate", id);
        assertThat(evaluate.code()).isEqualTo(1);
        assertThat(evaluate.err()).contains("HTTP 409").contains("is paused");
        assertThat(executions(id)).as("no execution while paused").isEmpty();
        assertThat(jobs.triggersOf(id)).isZero();

        // The web UI marks the pipeline in the fleet and explains on its page.
        if (browser != null) {
            browser.get(rt.apiEndpoint() + "/ui/#/");
            waits.until(
                    "the paused badge in the overview",
                    () -> !browser.findElements(By.cssSelector("tr[data-pipeline='" + id + "'] .pause-badge"))
                            .isEmpty());
            browser.get(rt.apiEndpoint() + "/ui/#/p/" + id);
            waits.until(
                    "the pause banner on the pipeline page",
                    () -> !browser.findElements(By.id("pause")).isEmpty());
            assertThat(waits.steady(() -> browser.findElement(By.id("pause")).getText()))
                    .contains("Paused")
                    .contains("by local: orders DB maintenance");
            assertThat(waits.steady(() -> browser.findElement(By.cssSelector("[data-state-badge]"))
                            .getText()))
                    .isEqualTo("PAUSED");
        }

        // Resuming is audited and forward-only; the next arrival runs the day.
        String resumed = printed("resume", id, "--reason", "maintenance over");
        assertThat(resumed).contains("resumed pipeline " + id).contains("orders DB maintenance");
        // Forward-only: the day its data and the producer's marker were turned away for is listed, not run.
        assertThat(resumed)
                .contains("1 window(s) opened, or had their markers turned away, while it was paused")
                .containsPattern("daily\\s+" + today());
        assertThat(eventsOf(id, "RESUMED")).singleElement().satisfies(e -> {
            assertThat(e.path("details").path("resumedBy").asText()).isEqualTo("local");
            assertThat(e.path("details").path("resumeReason").asText()).isEqualTo("maintenance over");
        });
        assertThat(printed("pauses")).contains("no pipeline is paused");
        Cli again = runCli("resume", id);
        assertThat(again.code()).isEqualTo(1);
        assertThat(again.err()).contains("HTTP 409").contains("not paused");
        assertThat(expect(200, "GET", "/pipelines/" + id + "/status", null, null)
                        .has("paused"))
                .isFalse();

        expect(200, "PUT", "/sensors/" + id + "-src", "application/json", "{\"count\":6}");
        await("the day run after resume", () -> runLogStatus(id, today(), "daily"), s -> s.equals("COMPLETED"));
        assertThat(jobs.triggersOf(id)).isEqualTo(1);
    }

    @Test
    void pausingAPipelineThatDoesNotExistOrWithoutAReasonIsRefusedAndWritesNothing() {
        Response unknown = call("POST", "/pipelines/pz-nobody/pause", "application/json", "{\"reason\":\"x\"}");
        assertThat(unknown.status()).isEqualTo(404);
        putPipeline(sensorDriven("pz-bad"));
        Response noReason = call("POST", "/pipelines/pz-bad/pause", "application/json", "{\"reasn\":\"x\"}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.body().path("errors").findValuesAsText("path")).contains("$.reasn", "$.reason");
        assertThat(expect(200, "GET", "/pauses", null, null).path("items").findValuesAsText("pipelineId"))
                .doesNotContain("pz-bad");
        assertThat(eventsOf("pz-bad", "PAUSED")).isEmpty();
    }
}
