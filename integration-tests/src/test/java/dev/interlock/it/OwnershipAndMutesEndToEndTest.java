package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.alerts.AlertSink;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Through the real runtime: a pipeline says whose it is ({@code owner}, {@code team}, {@code labels},
 * {@code runbook}); its alerts carry that in the body and as SNS message attributes a subscription filters on; and an
 * operator mutes a team for a maintenance window with a reason — audited, shown by {@code status} and {@code mutes},
 * and every alert it silences left as an {@code ALERT_MUTED} event of its day, not lost.
 */
class OwnershipAndMutesEndToEndTest extends EndToEnd {

    /** A pipeline whose data never comes: yesterday's validation window is over at its first evaluation. */
    private String exhausting(String name, String team) {
        return """
                name: %1$s
                archetype: batch-ingestion
                owner: ana@example.com
                team: %3$s
                labels: {domain: orders, tier: gold}
                runbook: https://wiki.example.com/runbooks/%1$s
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-src, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                retry: {maxAttempts: 1}
                sla: {validationTimeout: "1m"}
                schedules: [{name: daily, after: "23:59"}]
                """.formatted(name, jobs.endpoint(), team);
    }

    /** Evaluates yesterday, which fails at once for want of data (raising VALIDATION_EXHAUSTED). */
    private void exhaust(String pipeline) {
        assertThat(awaitDone(evaluate(pipeline, today().minusDays(1)))).isEqualTo(ExecutionStatus.FAILED);
    }

    /** What the topic (the local SNS endpoint's sink) received about a pipeline: subject, message and attributes. */
    private List<AlertSink.ReceivedAlert> published(String pipeline) {
        return rt.alerts().all().stream()
                .filter(a -> a.message().path("pipelineId").asText().equals(pipeline))
                .toList();
    }

    @Test
    void alertsCarryOwnershipAndTeamAttributesAndATeamMuteSilencesThemAuditedAndVisible() {
        putPipeline(exhausting("om-orders", "data-platform"));
        putPipeline(exhausting("om-billing", "data-platform"));
        putPipeline(exhausting("om-other", "marketing"));

        // Whose it is travels with the alert, and the team is a message attribute a subscription can filter on.
        exhaust("om-orders");
        AlertSink.ReceivedAlert sent = published("om-orders").getFirst();
        assertThat(sent.message().path("owner").asText()).isEqualTo("ana@example.com");
        assertThat(sent.message().path("runbook").asText()).isEqualTo("https://wiki.example.com/runbooks/om-orders");
        assertThat(sent.attributes())
                .containsEntry("team", "data-platform")
                .containsEntry("severity", "error")
                .containsEntry("kind", "VALIDATION_EXHAUSTED")
                .containsEntry("pipeline", "om-orders");
        // The alert history (GET /alerts) keeps whose it was, too.
        JsonNode listed = alerts("om-orders").getFirst();
        assertThat(listed.path("owner").asText()).isEqualTo("ana@example.com");
        assertThat(listed.path("team").asText()).isEqualTo("data-platform");
        assertThat(listed.path("labels").path("tier").asText()).isEqualTo("gold");
        assertThat(listed.path("runbook").asText()).isEqualTo("https://wiki.example.com/runbooks/om-orders");

        // The team goes into maintenance: muted for two hours, with a reason.
        String muted = printed("mute", "--team", "data-platform", "--for", "2h", "--reason", "warehouse maintenance");
        assertThat(muted)
                .contains("muted team data-platform active", ": warehouse maintenance")
                .contains("covers om-billing, om-orders");
        assertThat(eventsOf("om-billing", "MUTED"))
                .singleElement()
                .satisfies(e ->
                        assertThat(e.path("details").path("reason").asText()).isEqualTo("warehouse maintenance"));
        assertThat(eventsOf("om-other", "MUTED")).isEmpty();
        assertThat(printed("mutes"))
                .as("a team's pipelines may be in several zones: its mute reads in UTC, with the offset")
                .containsPattern("(?m)^team +data-platform +active +" + SHOWN_TIME + " +" + SHOWN_TIME + " ")
                .contains("+00:00");
        assertThat(printed("status", "om-billing"))
                .contains("ALERTS MUTED (team data-platform)", "warehouse maintenance");
        assertThat(printed("status", "--team", "data-platform"))
                .contains("om-billing", "om-orders")
                .doesNotContain("om-other");
        JsonNode line = expect(200, "GET", "/pipelines/om-billing/status", null, null);
        assertThat(line.path("muted").path("state").asText()).isEqualTo("active");
        assertThat(line.path("ownership").path("team").asText()).isEqualTo("data-platform");

        // A muted team's alert is not published but left on its day; another team still pages.
        exhaust("om-billing");
        exhaust("om-other");
        assertThat(published("om-billing")).isEmpty();
        assertThat(alerts("om-billing"))
                .as("not sent, so not in the alert history")
                .isEmpty();
        assertThat(eventsOf("om-billing", "ALERT_MUTED")).singleElement().satisfies(e -> {
            assertThat(e.path("status").asText()).isEqualTo("VALIDATION_EXHAUSTED");
            assertThat(e.path("message").asText()).contains("not sent", "warehouse maintenance");
        });
        assertThat(published("om-other"))
                .extracting(a -> a.message().path("kind").asText())
                .containsExactly("VALIDATION_EXHAUSTED");
        assertThat(published("om-other").getFirst().attributes()).containsEntry("team", "marketing");

        // Lifted early: audited, and the team's alerts page again.
        assertThat(printed("unmute", "--team", "data-platform", "--reason", "maintenance done"))
                .contains("unmuted team data-platform");
        assertThat(eventsOf("om-orders", "UNMUTED"))
                .singleElement()
                .satisfies(
                        e -> assertThat(e.path("details").path("unmuteReason").asText())
                                .isEqualTo("maintenance done"));
        assertThat(printed("mutes")).contains("no mutes");
        putPipeline(exhausting("om-after", "data-platform"));
        exhaust("om-after");
        assertThat(published("om-after")).hasSize(1);
    }

    @Test
    void badMutesAndBadOwnershipAreRefusedNamingTheFieldAndNothingIsWritten() {
        putPipeline(exhausting("om-bad", "data-platform"));

        JsonNode noEnd = expect(400, "PUT", "/mutes/teams/data-platform", "application/json", "{}");
        assertThat(paths(noEnd)).containsExactlyInAnyOrder("$.for", "$.reason");
        JsonNode tooLong = expect(
                400, "PUT", "/mutes/pipelines/om-bad", "application/json", "{\"for\":\"200h\",\"reason\":\"x\"}");
        assertThat(tooLong.at("/errors/0/message").asText()).contains("at most 7 days");
        JsonNode both = expect(
                400,
                "PUT",
                "/mutes/pipelines/om-bad",
                "application/json",
                "{\"for\":\"1h\",\"until\":\"2099-01-01T00:00:00Z\",\"reason\":\"x\"}");
        assertThat(paths(both)).containsExactly("$.until");
        assertThat(paths(expect(
                        400, "PUT", "/mutes/widgets/x", "application/json", "{\"for\":\"1h\",\"reason\":\"x\"}")))
                .containsExactly("path.scope");
        expect(404, "PUT", "/mutes/pipelines/om-nope", "application/json", "{\"for\":\"1h\",\"reason\":\"x\"}");
        expect(404, "DELETE", "/mutes/pipelines/om-bad", null, null);
        assertThat(expect(200, "GET", "/mutes", null, null).path("items")).isEmpty();
        assertThat(eventsOf("om-bad", "MUTED")).isEmpty();
        Cli cliRefused = runCli("mute", "om-bad", "--for", "1h");
        assertThat(cliRefused.code()).as("--reason is required").isNotZero();

        JsonNode refused = expect(
                400,
                "PUT",
                "/pipelines/om-worse",
                "application/yaml",
                exhausting("om-worse", "Data Platform")
                        .replace("https://wiki.example.com/runbooks/om-worse", "ftp://wiki/om-worse"));
        assertThat(paths(refused)).contains("$.team", "$.runbook");
        expect(404, "GET", "/pipelines/om-worse", null, null);
    }

    private static List<String> paths(JsonNode problem) {
        return StreamSupport.stream(problem.path("errors").spliterator(), false)
                .map(e -> e.path("path").asText())
                .toList();
    }
}
