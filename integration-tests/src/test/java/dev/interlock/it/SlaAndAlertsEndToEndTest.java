package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.schedule.ReadableTime;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A missed SLA is visible where on-call looks: the day is flagged AT_RISK as its deadline nears and MISSED once it
 * passed (with the deadline, the margin and the downstream days it holds back) in the API, {@code interlock status}
 * and {@code why}; the SLA_MISSED alert is an event of the day and is listed by {@code GET /alerts} (filters, paging)
 * and {@code interlock alerts}.
 */
class SlaAndAlertsEndToEndTest extends EndToEnd {

    /** Slow enough that a deadline 20 scaled minutes away is "at risk" for 10 real seconds. */
    @Override
    double timeScale() {
        return 120.0;
    }

    private String late(String name, LocalTime deadline) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-fail"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                schedules: [{name: daily, deadline: "%s"}]
                """.formatted(name, jobs.endpoint(), name, deadline.format(DateTimeFormatter.ofPattern("HH:mm")));
    }

    private String downstreamOf(String name, String upstream) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: %s}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                schedules: [{name: daily, deadline: "23:30"}]
                """.formatted(name, upstream, jobs.endpoint(), name);
    }

    private JsonNode sla(String pipeline, LocalDate date) {
        JsonNode status = expect(200, "GET", "/pipelines/" + pipeline + "/status?date=" + date, null, null);
        return status.path("schedules").get(0).path("sla");
    }

    private JsonNode overviewLine(String pipeline, LocalDate date) {
        return list("/status?date=" + date).stream()
                .filter(l -> l.path("pipelineId").asText().equals(pipeline))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void aDayNearingItsDeadlineIsAtRiskThenMissedAndTheAlertIsAnEventAndListed() {
        Instant start = rt.clock().instant();
        LocalDate date = today();
        LocalTime now = LocalTime.ofInstant(start, ZoneOffset.UTC);
        LocalTime deadlineTime = now.plusMinutes(21).truncatedTo(ChronoUnit.MINUTES);
        Instant deadline = date.atTime(deadlineTime).toInstant(ZoneOffset.UTC);
        putPipeline(late("sla-up", deadlineTime));
        putPipeline(late("sla-other", deadlineTime));
        putPipeline(downstreamOf("sla-down", "sla-up"));

        // At risk: not done, and its deadline is less than 30 minutes away.
        JsonNode atRisk = sla("sla-up", date);
        assertThat(atRisk.path("state").asText()).isEqualTo("AT_RISK");
        assertThat(Instant.parse(atRisk.path("deadline").asText())).isEqualTo(deadline);
        assertThat(atRisk.path("marginSeconds").asLong()).isBetween(1L, 30L * 60);
        assertThat(atRisk.path("delays"))
                .extracting(d ->
                        d.path("pipelineId").asText() + " " + d.path("date").asText())
                .containsExactly("sla-down " + date);
        assertThat(sla("sla-down", date).path("state").asText()).isEqualTo("ON_TRACK");
        assertThat(sla("sla-down", date).path("delays")).isEmpty();
        Cli status = cli("status", "sla-up", "--date", date.toString(), "--endpoint", endpoint(), "--no-sigv4");
        assertThat(status.out()).containsPattern("(?m)^daily +NOT_READY +AT_RISK \\d+m ");

        // Missed: the deadline passed and the watchdog alerted.
        await("the deadline passed", () -> rt.clock().instant(), deadline.plusSeconds(60)::isBefore);
        invokeWatchdog();
        invokeWatchdog();

        List<JsonNode> alerts = alerts("sla-up");
        assertThat(alerts).extracting(a -> a.path("kind").asText()).containsExactly("SLA_MISSED");
        assertThat(alerts.getFirst().path("date").asText()).isEqualTo(date.toString());
        assertThat(alerts.getFirst().path("level").asText()).isEqualTo("error");
        List<JsonNode> sent = eventsOf("sla-up", "ALERT_SENT");
        assertThat(sent)
                .as("the alert is an event of its day, once however often the watchdog ticks")
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.path("status").asText()).isEqualTo("SLA_MISSED");
                    assertThat(e.path("date").asText()).isEqualTo(date.toString());
                    assertThat(e.path("details").path("alertLevel").asText()).isEqualTo("error");
                    assertThat(e.path("message").asText())
                            .isEqualTo(alerts.getFirst().path("message").asText());
                });
        JsonNode timeline = expect(200, "GET", "/pipelines/sla-up/timeline?date=" + date, null, null);
        assertThat(timeline.path("alerts"))
                .extracting(e -> e.path("kind").asText())
                .contains("ALERT_SENT");

        JsonNode missed = sla("sla-up", date);
        assertThat(missed.path("state").asText()).isEqualTo("MISSED");
        assertThat(missed.path("marginSeconds").asLong()).isNegative();
        assertThat(missed.path("delays"))
                .extracting(d -> d.path("pipelineId").asText())
                .containsExactly("sla-down");
        assertThat(overviewLine("sla-up", date).path("sla").path("state").asText())
                .isEqualTo("MISSED");
        assertThat(overviewLine("sla-down", date).path("sla").path("state").asText())
                .isEqualTo("ON_TRACK");
        assertThat(why("sla-up", date))
                .containsPattern("SLA: MISSED: \\d+m past the completion deadline "
                        + ReadableTime.of(deadline, ZoneOffset.UTC).replace("+", "\\+") + "; delays sla-down " + date);
        assertThat(cli("status", "--date", date.toString(), "--endpoint", endpoint(), "--no-sigv4")
                        .out())
                .containsPattern("(?m)^sla-up +" + date + " +NOT_READY +MISSED -\\d+m ");

        // GET /alerts: filters, paging, and a bad filter named.
        List<String> pagedPipelines = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            JsonNode page = expect(
                    200,
                    "GET",
                    "/alerts?kind=SLA_MISSED&limit=1&since=" + start
                            + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8)),
                    null,
                    null);
            assertThat(page.path("items")).hasSize(1);
            pagedPipelines.add(page.path("items").get(0).path("pipelineId").asText());
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
            pages++;
        } while (cursor != null && pages < 5);
        assertThat(pagedPipelines).containsExactlyInAnyOrder("sla-up", "sla-other");
        assertThat(list("/alerts?kind=RUN_FAILED")).isEmpty();
        assertThat(list("/alerts?since=" + rt.clock().instant().plusSeconds(3600)))
                .isEmpty();
        assertThat(call("GET", "/alerts?kind=LATE", null, null).body().toString())
                .contains("query.kind");
        assertThat(call("GET", "/alerts?since=yesterday", null, null).body().toString())
                .contains("query.since");
        assertThat(call("GET", "/alerts?pipeline=Bad%23Id", null, null).status())
                .isEqualTo(400);

        Cli table = cli("alerts", "--pipeline", "sla-up", "--endpoint", endpoint(), "--no-sigv4");
        assertThat(table.out())
                .containsPattern("(?m)^TIME +KIND +LEVEL +PIPELINE +DATE +SCHEDULE +MESSAGE$")
                .containsPattern("(?m)^" + SHOWN_TIME + " +SLA_MISSED +error +sla-up +" + date + " +daily +\\S")
                .contains("1 alert(s)");
        assertThat(cli("alerts", "--pipeline", "sla-down", "--endpoint", endpoint(), "--no-sigv4")
                        .out())
                .startsWith("no alerts");
    }

    private String endpoint() {
        return rt.apiEndpoint().toString();
    }
}
