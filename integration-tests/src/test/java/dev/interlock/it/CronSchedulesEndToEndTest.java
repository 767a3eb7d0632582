package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Cron schedules through the public API: an hourly cron pipeline is one pipeline day per firing, its windows cascade
 * to the same window of an hourly downstream, {@code ${hour}} comes from the window, and the watchdog opens each
 * window on the zone's wall clock — the skipped hour of a spring-forward night has no window, the repeated hour of a
 * fall-back night runs once, and a zone without daylight saving runs every hour.
 */
class CronSchedulesEndToEndTest extends EndToEnd {

    private Instant clockStart;

    @Override
    boolean sharedRuntime() {
        return false;
    }

    /** Fast enough that the watchdog scenarios' four product hours take a quarter of a minute. */
    @Override
    double timeScale() {
        return 900.0;
    }

    @Override
    Instant clockStart() {
        return clockStart != null ? clockStart : super.clockStart();
    }

    private String hourly(String name, String zone, String traits, String argument) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                %3$s
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s?hour=%5$s"}
                schedules: [{name: hourly, cron: "0 * * * *", timezone: %4$s, deadline: "+40m"}]
                """.formatted(name, jobs.endpoint(), traits, zone, argument);
    }

    private static final String ALWAYS = "  source-freshness: {evaluator: \"builtin:always-pass\"}\n"
            + "  upstream-dependency: {evaluator: \"builtin:always-pass\"}";

    @Test
    void anHourlyCronWindowCascadesToTheSameWindowOfAnHourlyDownstreamWithItsHour() throws Exception {
        clockStart = null;
        try (LocalRuntime runtime = startRuntime(null)) {
            putPipeline(hourly("cron-up", "UTC", ALWAYS, "${hour}"));
            putPipeline(hourly(
                    "cron-down",
                    "UTC",
                    "  source-freshness: {evaluator: \"builtin:always-pass\"}\n"
                            + "  upstream-dependency: {evaluator: \"builtin:upstream-run-log\", "
                            + "config: {upstreamPipeline: cron-up}}",
                    "${hour}"));
            LocalDate date = today();

            // The class clock starts at 06:00 UTC: the window hourly.0600 is open.
            evaluate("cron-up", date, "hourly.0600");
            await(
                    "both hourly.0600 windows COMPLETED",
                    () -> List.of(
                            runLogStatus("cron-up", date, "hourly.0600"),
                            runLogStatus("cron-down", date, "hourly.0600")),
                    l -> l.stream().allMatch("COMPLETED"::equals));

            // Each job was started once, for its hour: ${hour} is the window's.
            assertThat(triggersQueries("cron-up")).containsExactly("hour=06");
            assertThat(triggersQueries("cron-down")).containsExactly("hour=06");
            // Only that window ran: the cascade woke the same window downstream, no other hour.
            assertThat(runLogs("cron-down"))
                    .extracting(l -> l.path("scheduleId").asText())
                    .containsExactly("hourly.0600");

            // status lists the day's windows, one row each, with the window's own deadline.
            JsonNode status = expect(200, "GET", "/pipelines/cron-down/status?date=" + date, null, null);
            List<JsonNode> rows = new java.util.ArrayList<>();
            status.path("schedules").forEach(rows::add);
            assertThat(rows)
                    .extracting(r -> r.path("scheduleId").asText())
                    .hasSize(24)
                    .startsWith("hourly.0000")
                    .endsWith("hourly.2300");
            JsonNode six = rows.stream()
                    .filter(r -> r.path("scheduleId").asText().equals("hourly.0600"))
                    .findFirst()
                    .orElseThrow();
            assertThat(six.path("state").asText()).isEqualTo("COMPLETED");

            // A window the cron does not have is refused with the reason, and nothing is started.
            Response noSuchWindow = call(
                    "POST",
                    "/pipelines/cron-up/evaluations",
                    "application/json",
                    "{\"date\":\"" + date + "\",\"scheduleId\":\"hourly.0630\"}");
            assertThat(noSuchWindow.status()).isEqualTo(400);
            assertThat(noSuchWindow.body().path("errors").findValuesAsText("path"))
                    .containsExactly("$.scheduleId");
            assertThat(noSuchWindow.body().path("errors").findValuesAsText("message"))
                    .singleElement()
                    .asString()
                    .contains("no window at 06:30");
        }
    }

    @ParameterizedTest(name = "{0} from {1} to {2}: {3}")
    @CsvSource({
        // zone, local clock start, local time to run until, the windows the watchdog opens
        "Europe/Berlin, 2026-03-29T00:30, 2026-03-29T04:10, hourly.0100 hourly.0300 hourly.0400",
        "Europe/Berlin, 2026-10-25T01:30, 2026-10-25T04:10, hourly.0200 hourly.0300 hourly.0400",
        "Asia/Kolkata,  2026-03-29T00:30, 2026-03-29T04:10, hourly.0100 hourly.0200 hourly.0300 hourly.0400"
    })
    void theWatchdogOpensEachWindowOnTheZonesWallClockAcrossDaylightSaving(
            String zone, String start, String until, String expected) throws Exception {
        ZoneId zoneId = ZoneId.of(zone);
        clockStart = LocalDateTime.parse(start).atZone(zoneId).toInstant();
        Instant end = LocalDateTime.parse(until).atZone(zoneId).toInstant();
        LocalDate date = LocalDate.parse(start.substring(0, 10));
        String name = "dst-" + zone.substring(zone.indexOf('/') + 1).toLowerCase() + "-" + start.substring(5, 7);
        try (LocalRuntime runtime = startRuntime(null)) {
            putPipeline(hourly(name, zone, ALWAYS, "${hour}"));

            // The watchdog ticks as its schedule would, every half hour at :01 and :31 UTC (a minute past every local
            // hour in both zones, Kolkata's half-hour offset included), until the last window has opened.
            for (Instant tick = clockStart.truncatedTo(ChronoUnit.HOURS).plus(Duration.ofMinutes(61));
                    !tick.isAfter(end);
                    tick = tick.plus(Duration.ofMinutes(30))) {
                Instant at = tick;
                await("the product clock at " + at, () -> rt.clock().instant(), now -> !now.isBefore(at));
                invokeWatchdog();
            }

            List<String> windows = Arrays.asList(expected.split(" "));
            await(
                    "every expected window COMPLETED",
                    () -> windows.stream().map(w -> runLogStatus(name, date, w)).toList(),
                    l -> l.stream().allMatch("COMPLETED"::equals));
            assertThat(runLogs(name))
                    .as("no other window ran (a skipped hour has none; a repeated hour is one)")
                    .extracting(l -> l.path("scheduleId").asText())
                    .containsExactlyInAnyOrderElementsOf(windows);
            assertThat(jobs.triggersOf(name))
                    .as("each window's job started once")
                    .isEqualTo(windows.size());
            assertThat(triggersQueries(name))
                    .containsExactlyInAnyOrderElementsOf(windows.stream()
                            .map(w -> "hour=" + w.substring(7, 9))
                            .toList());
        }
    }

    @Test
    void aSkippedHourCannotBeEvaluatedAndTheRefusalSaysWhy() throws Exception {
        clockStart = LocalDateTime.parse("2026-03-29T05:00")
                .atZone(ZoneId.of("Europe/Berlin"))
                .toInstant();
        try (LocalRuntime runtime = startRuntime(null)) {
            putPipeline(hourly("dst-refused", "Europe/Berlin", ALWAYS, "${hour}"));
            Response refused = call(
                    "POST",
                    "/pipelines/dst-refused/evaluations",
                    "application/json",
                    "{\"date\":\"2026-03-29\",\"scheduleId\":\"hourly.0200\"}");
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body().path("errors").findValuesAsText("message"))
                    .singleElement()
                    .asString()
                    .contains("no window at 02:00 on 2026-03-29")
                    .contains("skips that time");
            assertThat(runLogs("dst-refused")).isEmpty();
        }
    }

    @Test
    void hourInADailyPipelinesTemplateIsRefusedAtRegistrationNamingTheField() throws Exception {
        clockStart = null;
        try (LocalRuntime runtime = startRuntime(null)) {
            Response refused = call("PUT", "/pipelines/hourless", "application/yaml", """
                    name: hourless
                    archetype: batch-ingestion
                    traits:
                      source-freshness: {evaluator: "builtin:sensor-freshness", config: {sensor: s, maxAgeSeconds: 60, partition: "${date}T${hour}"}}
                      upstream-dependency: {evaluator: "builtin:always-pass"}
                      resource-availability: {evaluator: "builtin:always-pass"}
                    trigger: {type: http, url: "%s/jobs/hourless"}
                    """.formatted(jobs.endpoint()));
            assertThat(refused.status()).isEqualTo(400);
            assertThat(refused.body().path("errors").findValuesAsText("path"))
                    .containsExactly("$.traits.source-freshness.config.partition");
            assertThat(call("GET", "/pipelines/hourless", null, null).status()).isEqualTo(404);
        }
    }

    /** The query strings of the jobs the fake server was asked to start for {@code job}. */
    private List<String> triggersQueries(String job) {
        return jobs.received().stream()
                .filter(r -> r.job().equals(job))
                .map(FakeJobServer.Received::query)
                .toList();
    }
}
