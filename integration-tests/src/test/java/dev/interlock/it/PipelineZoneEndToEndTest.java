package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * The pipeline's own time: a Los Angeles pipeline with a 17:45 deadline, at 17:40 PST when the UTC
 * date is already the next day. The API keeps UTC instants and says the LA date; {@code status}, {@code why} and
 * {@code alerts} show 17:45 with its offset; a request without a date means the LA date; and the web UI, in a
 * browser whose own zone is Tokyo's, shows the deadline as 17:45 -08:00 with the UTC instant on hover.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineZoneEndToEndTest extends BrowserEndToEnd {

    /** 17:15 PST on 19 November, 01:15 UTC on the 20th: the runtime starts in under 30 real seconds. */
    private static final Instant START = Instant.parse("2026-11-20T01:15:00Z");

    private static final LocalDate LA_DATE = LocalDate.parse("2026-11-19");
    private static final String DEADLINE_UTC = "2026-11-20T01:45:00.000Z";

    /** The half hour to the deadline takes half a real minute; the LA date lasts six real minutes more. */
    @Override
    double timeScale() {
        return 60.0;
    }

    @Override
    Instant clockStart() {
        return rt != null ? rt.clock().instant() : START;
    }

    /** The browser's own zone is neither UTC nor the pipeline's: what the page shows must come from the pipeline. */
    @Override
    void browserOpened() {
        ((ChromeDriver) browser).executeCdpCommand("Emulation.setTimezoneOverride", Map.of("timezoneId", "Asia/Tokyo"));
    }

    private String pipeline(String name, String readiness) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:%3$s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                evaluationIntervalSeconds: 3600
                schedules: [{name: daily, timezone: America/Los_Angeles, deadline: "17:45"}]
                """.formatted(name, jobs.endpoint(), readiness);
    }

    /** First: its pipeline is registered before the 17:45 deadline, so missing it is alerted. */
    @Test
    @Order(1)
    void theApiKeepsUtcWhileTheCliSaysTheDeadlineAndTheDayInLosAngeles() {
        putPipeline(pipeline("la-held", "always-fail"));
        assertThat(rt.clock().instant())
                .as("registered before its deadline (or missing it is not alerted)")
                .isBefore(Instant.parse(DEADLINE_UTC));

        // The API: the LA date, the zone, and UTC instants.
        JsonNode status = expect(200, "GET", "/pipelines/la-held/status", null, null);
        assertThat(status.path("date").asText()).isEqualTo(LA_DATE.toString());
        assertThat(status.path("zone").asText()).isEqualTo("America/Los_Angeles");
        JsonNode daily = status.path("schedules").get(0);
        assertThat(daily.path("deadline").path("at").asText()).isEqualTo(DEADLINE_UTC);
        assertThat(daily.path("window").path("opensAt").asText()).isEqualTo("2026-11-19T08:00:00.000Z");

        // A request without a date means the LA date.
        JsonNode evaluation = expect(202, "POST", "/pipelines/la-held/evaluations", "application/json", "{}");
        assertThat(evaluation.path("marker").path("date").asText()).isEqualTo(LA_DATE.toString());
        awaitNotReady("la-held");

        // The CLI: the LA date and 17:45 with its offset, never the UTC wall clock.
        String table = printed("status", "la-held");
        assertThat(table)
                .contains("la-held on 2026-11-19 (America/Los_Angeles)")
                .containsPattern("(?m)^daily +NOT_READY .*completion 2026-11-19 17:45 -08:00")
                .doesNotContain("01:45")
                .doesNotContain("T01:");
        assertThat(printed("status")).containsPattern("(?m)^la-held +2026-11-19 +NOT_READY ");
        String why = printed("why", "la-held");
        assertThat(why)
                .contains("la-held (daily) on 2026-11-19 is NOT_READY")
                .contains("Deadline: completion 2026-11-19 17:45 -08:00")
                .doesNotContain("01:45");

        // Past the deadline the watchdog alerts: the JSON keeps UTC, the words say 17:45 in Los Angeles.
        await(
                "the deadline passed",
                () -> rt.clock().instant(),
                Instant.parse(DEADLINE_UTC).plusSeconds(30)::isBefore);
        invokeWatchdog();
        List<JsonNode> alerts = await("the SLA_MISSED alert", () -> alerts("la-held"), l -> !l.isEmpty());
        JsonNode missed = alerts.getFirst();
        assertThat(missed.path("kind").asText()).isEqualTo("SLA_MISSED");
        assertThat(missed.path("date").asText()).isEqualTo(LA_DATE.toString());
        assertThat(missed.path("details").path("deadline").asText()).isEqualTo(DEADLINE_UTC);
        assertThat(missed.path("message").asText())
                .contains("not completed by 2026-11-19 17:45 -08:00 America/Los_Angeles")
                .doesNotContain("01:45");
        String listed = printed("alerts", "--pipeline", "la-held");
        assertThat(listed)
                .containsPattern("(?m)^2026-11-19 17:\\d\\d(:\\d\\d)? -08:00 +SLA_MISSED +error +la-held +2026-11-19 ")
                .contains("not completed by 2026-11-19 17:45 -08:00 America/Los_Angeles");
        assertThat(printed("events", "la-held", "--kind", "ALERT_SENT"))
                .containsPattern("(?m)^2026-11-19 17:\\d\\d(:\\d\\d)? -08:00 +2026-11-19 +daily +ALERT_SENT ");
    }

    @Test
    @Order(2)
    void theDayPageShowsTheDeadlineInLosAngelesWithTheUtcInstantOnHover() {
        assumeTrue(browser != null, "no browser: " + BrowserWaits.CHROMIUM);
        putPipeline(pipeline("la-page", "always-fail"));
        evaluate("la-page", LA_DATE);
        awaitNotReady("la-page");

        browser.get(rt.apiEndpoint() + "/ui/#/p/la-page");
        assertThat(((JavascriptExecutor) browser)
                        .executeScript("return Intl.DateTimeFormat().resolvedOptions().timeZone"))
                .as("the browser's own zone")
                .isEqualTo("Asia/Tokyo");
        waits.until(
                "la-page's schedule card",
                () -> !browser.findElements(By.cssSelector("section.schedule[data-schedule='daily'] time.deadline-at"))
                        .isEmpty());
        assertThat(waits.steady(() -> browser.findElement(By.cssSelector("h1")).getText()))
                .contains("on 2026-11-19 (America/Los_Angeles)");
        assertThat(waits.steady(() -> browser.findElement(By.id("view")).getText()))
                .as("a pipeline without owner or mute shows neither, not the text null")
                .doesNotContain("null");
        WebElement deadline =
                browser.findElement(By.cssSelector("section.schedule[data-schedule='daily'] time.deadline-at"));
        assertThat(deadline.getText()).isEqualTo("2026-11-19 17:45 -08:00");
        assertThat(deadline.getAttribute("title")).isEqualTo(DEADLINE_UTC);
        assertThat(deadline.getAttribute("datetime")).isEqualTo(DEADLINE_UTC);

        // The timeline marks the deadline at 17:45 too, and its axis reads in Los Angeles.
        waits.until(
                "the timeline's deadline",
                () -> !browser.findElements(By.cssSelector("#gantt .deadline[data-deadline='daily']"))
                        .isEmpty());
        assertThat(waits.steady(
                        () -> browser.findElement(By.cssSelector("#gantt .deadline[data-deadline='daily'] text"))
                                .getText()))
                .isEqualTo("⚑ daily 17:45 -08:00");
        assertThat(waits.steady(() -> browser.findElements(By.cssSelector("#gantt .axis text")).stream()
                        .map(WebElement::getText)
                        .toList()))
                .allSatisfy(tick -> assertThat(tick).matches("\\d\\d:\\d\\d(:\\d\\d)? -08:00"));
        // Events in the day's table read in LA with the UTC instant on hover.
        WebElement firstEvent = waits.steady(() -> browser.findElement(By.cssSelector("#events tbody tr td time")));
        assertThat(firstEvent.getText()).endsWith("-08:00");
        assertThat(firstEvent.getAttribute("title")).matches("2026-11-20T0\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
    }
}
