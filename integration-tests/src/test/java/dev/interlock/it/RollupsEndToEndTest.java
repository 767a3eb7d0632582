package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Rollups through the public API: a daily pipeline waits for every hourly window of an upstream's day (or a minimum
 * count of them), {@code status} and {@code why} say how many are in and which are missing, and an upstream hour that
 * completes again after the rollup completed follows each rollup's {@code onUpstreamRerun} policy — a rerun, an alert,
 * or only an event — never silently. Sensor partitions {@code T00…T23} roll up the same way.
 */
class RollupsEndToEndTest extends EndToEnd {

    private static final String UP = "roll-hourly";

    private String daily(String name, String upstreamConfig) {
        return """
                name: %1$s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: %3$s}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, jobs.endpoint(), upstreamConfig);
    }

    private void putHourlyUpstream() {
        putPipeline("""
                name: %1$s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s?hour=${hour}"}
                schedules: [{name: hourly, cron: "0 * * * *", timezone: UTC}]
                """.formatted(UP, jobs.endpoint()));
    }

    private static String hour(int h) {
        return "hourly.%02d00".formatted(h);
    }

    @Test
    void aDailyRollupWaitsForEveryHourThenFollowsItsPolicyWhenAnHourIsRerun() throws Exception {
        putHourlyUpstream();
        putPipeline(daily("roll-rerun", "{upstreamPipeline: " + UP + ", rollup: {onUpstreamRerun: rerun}}"));
        putPipeline(daily("roll-alert", "{upstreamPipeline: " + UP + ", rollup: true}"));
        putPipeline(daily("roll-ignore", "{upstreamPipeline: " + UP + ", rollup: {onUpstreamRerun: ignore}}"));
        putPipeline(daily("roll-min", "{upstreamPipeline: " + UP + ", rollup: {minCount: 20}}"));
        List<String> rollups = List.of("roll-rerun", "roll-alert", "roll-ignore", "roll-min");
        LocalDate date = today();

        // 23 of the upstream's 24 hours complete; 05:00 is late.
        IntStream.range(0, 24).filter(h -> h != 5).forEach(h -> evaluate(UP, date, hour(h)));
        List<String> inTime = IntStream.range(0, 24)
                .filter(h -> h != 5)
                .mapToObj(RollupsEndToEndTest::hour)
                .toList();
        await(
                "23 upstream hours COMPLETED",
                () -> inTime.stream().map(w -> runLogStatus(UP, date, w)).toList(),
                l -> l.stream().allMatch("COMPLETED"::equals));

        // minCount 20 does with 23: a degraded start that names the missing hour.
        await("roll-min COMPLETED", () -> runLogStatus("roll-min", date, "daily"), "COMPLETED"::equals);
        JsonNode degraded = alerts("roll-min").stream()
                .filter(a -> a.path("kind").asText().equals("PROCEEDED_DEGRADED"))
                .findFirst()
                .orElseThrow();
        // It proceeds once 20 hours are in: the late hour is among the missing, and so may be hours whose completion
        // was
        // still on its way when the rollup's round ran (the hours are started together, so their order is the
        // runtime's).
        assertThat(degraded.toString())
                .containsPattern("upstream-dependency \\([1-4] of 24 missing: [^)]*hourly\\.0500");
        assertThat(runLog("roll-min", date, "daily").path("proceededWithout").toString())
                .contains("hourly.0500");

        // The others wait, and say how many hours are in and which one is missing.
        for (String rollup : List.of("roll-rerun", "roll-alert", "roll-ignore")) {
            JsonNode waiting = await(
                    rollup + " waiting on the missing hour",
                    () -> expect(200, "GET", "/pipelines/" + rollup + "/status?date=" + date, null, null)
                            .path("schedules")
                            .path(0),
                    s -> s.path("blocking").toString().contains("23 of 24 in; missing hourly.0500"));
            assertThat(waiting.path("blocking")
                            .findValue("rollup")
                            .path("missing")
                            .toString())
                    .isEqualTo("[\"hourly.0500\"]");
            assertThat(jobs.triggersOf(rollup))
                    .as(rollup + " not started on 23 hours")
                    .isZero();
        }
        assertThat(why("roll-alert", date)).contains("23 of 24 in; missing hourly.0500");

        // The late hour comes in: each waiting rollup runs once; the one that already ran follows its policy.
        evaluate(UP, date, hour(5));
        for (String rollup : rollups) {
            await(rollup + " COMPLETED", () -> runLogStatus(rollup, date, "daily"), "COMPLETED"::equals);
        }
        for (String rollup : List.of("roll-rerun", "roll-alert", "roll-ignore")) {
            assertThat(jobs.triggersOf(rollup)).as(rollup + " started once").isEqualTo(1);
            assertThat(runLog(rollup, date, "daily").path("proceededWithout").isMissingNode()
                            || runLog(rollup, date, "daily")
                                    .path("proceededWithout")
                                    .isEmpty())
                    .as(rollup + " ran with every hour")
                    .isTrue();
        }
        JsonNode lateForMin = await(
                        "roll-min told the late hour came in",
                        () -> eventsOf("roll-min", "UPSTREAM_RERUN"),
                        l -> !l.isEmpty())
                .get(0);
        assertThat(lateForMin.path("status").asText()).isEqualTo("ALERT");
        assertThat(lateForMin.path("details").path("upstreamReprocessed").asBoolean())
                .isFalse();
        assertThat(jobs.triggersOf("roll-min")).isEqualTo(1);

        // Now the upstream's 05:00 is rerun after every rollup completed.
        expect(
                202,
                "POST",
                "/pipelines/" + UP + "/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"scheduleId\":\"hourly.0500\",\"reason\":\"late file reprocessed\"}");
        await(
                "the upstream hour completed again",
                () -> runLog(UP, date, "hourly.0500").path("retryHistory").size(),
                n -> n >= 2);

        // rerun: the rollup's day runs again, once.
        await("roll-rerun started again", () -> jobs.triggersOf("roll-rerun"), n -> n == 2);
        JsonNode rerun = await(
                        "roll-rerun's UPSTREAM_RERUN event",
                        () -> eventsOf("roll-rerun", "UPSTREAM_RERUN"),
                        l -> !l.isEmpty())
                .get(0);
        assertThat(rerun.path("status").asText()).isEqualTo("RERUN");
        assertThat(rerun.path("details").path("upstreamScheduleId").asText()).isEqualTo("hourly.0500");
        assertThat(rerun.path("details").path("upstreamReprocessed").asBoolean())
                .isTrue();
        await(
                "roll-rerun COMPLETED again",
                () -> runLog("roll-rerun", date, "daily").path("status").asText(),
                "COMPLETED"::equals);

        // alert (the default): an UPSTREAM_RERUN alert and event, and no second run.
        await("roll-alert alerted", () -> alertKinds("roll-alert"), k -> k.contains("UPSTREAM_RERUN"));
        assertThat(eventsOf("roll-alert", "UPSTREAM_RERUN"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("status").asText()).isEqualTo("ALERT"));

        // ignore: only the event says it happened.
        await("roll-ignore recorded it", () -> eventsOf("roll-ignore", "UPSTREAM_RERUN"), l -> !l.isEmpty());
        assertThat(eventsOf("roll-ignore", "UPSTREAM_RERUN"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("status").asText()).isEqualTo("IGNORE"));
        assertThat(alertKinds("roll-ignore")).doesNotContain("UPSTREAM_RERUN");

        assertThat(jobs.triggersOf("roll-alert")).isEqualTo(1);
        assertThat(jobs.triggersOf("roll-ignore")).isEqualTo(1);
        assertThat(jobs.triggersOf("roll-rerun")).isEqualTo(2);
    }

    @Test
    void aDailyRollupOfHourlySensorPartitionsWaitsForTheLastHour() {
        putPipeline("""
                name: roll-sensor
                archetype: batch-ingestion
                traits:
                  source-freshness:
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: clicks, partition: "${date}T${hour}", field: complete, op: eq, value: true, rollup: true}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/roll-sensor"}
                evaluationIntervalSeconds: 60
                """.formatted(jobs.endpoint()));
        LocalDate date = today();
        List<String> written = new ArrayList<>();
        for (int h = 0; h < 24; h++) {
            if (h == 17) {
                continue;
            }
            String partition = "%sT%02d".formatted(date, h);
            expect(200, "PUT", "/sensors/clicks/partitions/" + partition, "application/json", "{\"complete\": true}");
            written.add(partition);
        }
        evaluate("roll-sensor", date);
        await(
                "roll-sensor waiting on T17",
                () -> expect(200, "GET", "/pipelines/roll-sensor/status?date=" + date, null, null)
                        .path("schedules")
                        .path(0)
                        .path("blocking")
                        .toString(),
                s -> s.contains("23 of 24 in; missing " + date + "T17"));
        assertThat(jobs.triggersOf("roll-sensor")).isZero();

        expect(200, "PUT", "/sensors/clicks/partitions/" + date + "T17", "application/json", "{\"complete\": true}");
        await("roll-sensor COMPLETED", () -> runLogStatus("roll-sensor", date, "daily"), "COMPLETED"::equals);
        assertThat(jobs.triggersOf("roll-sensor")).isEqualTo(1);
    }

    @Test
    void aRollupOverACoarserUpstreamAndOtherMistakesAreRefusedWithTheirPaths() {
        putPipeline("""
                name: roll-daily-up
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/roll-daily-up"}
                """.formatted(jobs.endpoint()));
        Response coarser = call(
                "PUT",
                "/pipelines/roll-bad",
                "application/yaml",
                daily("roll-bad", "{upstreamPipeline: roll-daily-up, rollup: true}"));
        assertThat(coarser.status()).isEqualTo(400);
        assertThat(coarser.raw())
                .contains("$.traits.upstream-dependency.config.rollup")
                .contains("a rollup needs a finer upstream");

        putHourlyUpstream();
        Response tooMany = call(
                "PUT",
                "/pipelines/roll-bad",
                "application/yaml",
                daily("roll-bad", "{upstreamPipeline: " + UP + ", rollup: {minCount: 25, onUpstreamRerun: later}}"));
        assertThat(tooMany.status()).isEqualTo(400);
        assertThat(tooMany.body().path("errors").findValuesAsText("path"))
                .contains(
                        "$.traits.upstream-dependency.config.rollup.minCount",
                        "$.traits.upstream-dependency.config.rollup.onUpstreamRerun");

        Response hourless = call("PUT", "/pipelines/roll-bad", "application/yaml", """
                name: roll-bad
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:sensor-freshness", config: {sensor: s, maxAgeSeconds: 60, partition: "${date}", rollup: true}}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "http://example.com/x"}
                """);
        assertThat(hourless.status()).isEqualTo(400);
        assertThat(hourless.raw())
                .contains("$.traits.source-freshness.config.partition")
                .contains("partition must use ${hour}");
        assertThat(call("GET", "/pipelines/roll-bad", null, null).status()).isEqualTo(404);
    }
}
