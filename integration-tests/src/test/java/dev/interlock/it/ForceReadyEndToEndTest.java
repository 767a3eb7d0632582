package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;

/**
 * Forcing a day ready through the real runtime: an operator forces one day of a pipeline ready whose sensor never
 * reported. The next evaluation triggers without the blocking trait; the run log, status, {@code why}, an event, an
 * alert and the web UI say who forced it and why; the day before, waiting on the same sensor, is not affected; a day
 * that completed or whose job runs is refused.
 */
class ForceReadyEndToEndTest extends BrowserEndToEnd {

    private static String forceReady(String pipeline, LocalDate date) {
        return "/pipelines/" + pipeline + "/days/" + date + "/force-ready";
    }

    @Test
    void aForcedDayTriggersWithoutItsBlockingTraitSaysWhoAndWhyAndTouchesNoOtherDay() {
        String id = "fr-orders";
        putPipeline(waitingForSensor(id));
        LocalDate today = today();
        LocalDate yesterday = today.minusDays(1);

        // Yesterday waits on the sensor too; forcing today must leave it waiting.
        evaluate(id, yesterday);
        awaitNotReady(id);

        String forced =
                printed("force-ready", id, "--date", today.toString(), "--reason", "source late; rows checked by hand");
        assertThat(forced)
                .contains("forced " + id + " daily " + today + " ready")
                .contains("by local: source late; rows checked by hand");

        await("the forced day completed", () -> runLogStatus(id, today, "daily"), s -> s.equals("COMPLETED"));
        assertThat(jobs.triggersOf(id)).as("only the forced day triggered").isEqualTo(1);
        JsonNode log = runLog(id, today, "daily");
        assertThat(log.at("/forced/by").asText()).isEqualTo("local");
        assertThat(log.at("/forced/reason").asText()).isEqualTo("source late; rows checked by hand");
        assertThat(log.path("proceededWithout").toString()).contains("resource-availability");

        // The audit event of the request, the orchestrator's record of the start, and an alert.
        assertThat(eventsOf(id, "FORCED_READY")).singleElement().satisfies(e -> {
            assertThat(e.path("date").asText()).isEqualTo(today.toString());
            assertThat(e.at("/details/forcedBy").asText()).isEqualTo("local");
            assertThat(e.at("/details/reason").asText()).isEqualTo("source late; rows checked by hand");
        });
        assertThat(eventsOf(id, "PROCEEDED_FORCED")).singleElement().satisfies(e -> {
            assertThat(e.path("date").asText()).isEqualTo(today.toString());
            assertThat(e.path("message").asText())
                    .contains("forced ready by local: source late")
                    .contains("resource-availability");
        });
        assertThat(alerts(id))
                .filteredOn(a -> a.path("kind").asText().equals("FORCED_READY"))
                .singleElement()
                .satisfies(a -> assertThat(a.path("message").asText()).contains("forced ready by local"));

        // Status and why say so.
        JsonNode status = expect(200, "GET", "/pipelines/" + id + "/status?date=" + today, null, null);
        assertThat(status.at("/schedules/0/forced/by").asText()).isEqualTo("local");
        assertThat(status.at("/schedules/0/forced/reason").asText()).isEqualTo("source late; rows checked by hand");
        assertThat(why(id, today)).contains("forced ready by local: source late; rows checked by hand");

        // That day only: yesterday still waits on its sensor and never triggered.
        assertThat(runLogStatus(id, yesterday, "daily")).isNotEqualTo("COMPLETED");
        assertThat(eventsOf(id, "READINESS_CHECKED").stream()
                        .filter(e -> e.path("date").asText().equals(yesterday.toString())))
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.path("status").asText()).isEqualTo("NOT_READY"));
        assertThat(why(id, yesterday)).doesNotContain("forced");

        // A completed day is refused.
        Cli again = runCli("force-ready", id, "--date", today.toString(), "--reason", "again");
        assertThat(again.code()).isEqualTo(1);
        assertThat(again.err()).contains("HTTP 409").contains("COMPLETED");

        // The web UI marks the forced day with who and why: a badge in the overview, a line on the day page.
        if (browser != null) {
            browser.get(rt.apiEndpoint() + "/ui/#/");
            waits.until(
                    "the forced badge in the overview",
                    () -> !browser.findElements(By.cssSelector("tr[data-pipeline='" + id + "'] .forced-badge"))
                            .isEmpty());
            assertThat(waits.steady(
                            () -> browser.findElement(By.cssSelector("tr[data-pipeline='" + id + "'] .forced-badge"))
                                    .getAttribute("title")))
                    .contains("forced ready by local")
                    .contains("source late; rows checked by hand");
            browser.get(rt.apiEndpoint() + "/ui/#/p/" + id);
            waits.until(
                    "the forced mark on the day",
                    () -> !browser.findElements(By.cssSelector(".forced")).isEmpty());
            assertThat(waits.steady(
                            () -> browser.findElement(By.cssSelector(".forced")).getText()))
                    .contains("forced ready by local: source late; rows checked by hand");
        }
    }

    @Test
    void aDayWhoseJobRunsIsRefused() {
        String id = "fr-busy";
        putReadyPipelineWithoutRetry(id, "{type: http, url: \"" + jobs.endpoint() + "/jobs/" + id + "\"}");
        jobs.hold(id);
        try {
            evaluate(id, today());
            await("the held job runs", () -> jobs.runningSyncJobs(), running -> running.contains(id));
            Response busy = call("POST", forceReady(id, today()), "application/json", "{\"reason\":\"impatient\"}");
            assertThat(busy.status()).as(busy.raw()).isEqualTo(409);
            assertThat(busy.body().path("detail").asText()).contains("job is running");
        } finally {
            jobs.release(id);
        }
        await("the held day completed", () -> runLogStatus(id, today(), "daily"), s -> s.equals("COMPLETED"));
        assertThat(eventsOf(id, "FORCED_READY")).isEmpty();
    }

    @Test
    void badRequestsNameTheFieldAndUnknownPipelinesAre404() {
        String id = "fr-bad";
        putPipeline(waitingForSensor(id));
        assertThat(call("POST", forceReady("fr-nobody", today()), "application/json", "{\"reason\":\"x\"}")
                        .status())
                .isEqualTo(404);
        Response noReason = call("POST", forceReady(id, today()), "application/json", "{\"reasn\":\"x\"}");
        assertThat(noReason.status()).isEqualTo(400);
        assertThat(noReason.body().path("errors").findValuesAsText("path")).contains("$.reasn", "$.reason");
        Response past = call(
                "POST",
                forceReady(id, today()),
                "application/json",
                "{\"reason\":\"x\",\"expiresAt\":\"2001-01-01T00:00:00Z\"}");
        assertThat(past.status()).isEqualTo(400);
        assertThat(past.body().path("errors").findValuesAsText("path")).contains("$.expiresAt");
        Response schedule = call(
                "POST", forceReady(id, today()), "application/json", "{\"reason\":\"x\",\"scheduleId\":\"hourly\"}");
        assertThat(schedule.status()).isEqualTo(400);
        assertThat(schedule.body().path("errors").findValuesAsText("path")).contains("$.scheduleId");

        // A paused pipeline is refused: resume it first.
        printed("pause", id, "--reason", "source maintenance");
        Cli paused = runCli("force-ready", id, "--date", today().toString(), "--reason", "x");
        assertThat(paused.code()).isEqualTo(1);
        assertThat(paused.err()).contains("HTTP 409").contains("is paused");
        printed("resume", id);

        assertThat(eventsOf(id, "FORCED_READY")).isEmpty();
        assertThat(jobs.triggersOf(id)).isZero();
    }
}
