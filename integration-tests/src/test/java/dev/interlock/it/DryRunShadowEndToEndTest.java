package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Dry run is a shadow (issue item 7), as a team trying Interlock beside its scheduler meets it on the local runtime: a
 * dry-run pipeline past its evaluation SLA and out of validation time pages nobody (nothing reaches the alert sink),
 * writes no FAILED run log, and shows what would have happened as {@code DRY_RUN_*} events in {@code status} and
 * {@code why}; a ready one records the trigger it would start and the deadlines it would meet, and new data after it
 * the rerun it would start. The web UI's view of the same is {@code WebUiBrowserTest}.
 */
class DryRunShadowEndToEndTest extends EndToEnd {

    /**
     * A dry-run pipeline held back by a row count, whose evaluation deadline passes {@code evaluationInMinutes} and
     * whose validation deadline {@code validationInMinutes} scaled minutes from now (durations after the window opening
     * at the date's midnight, so they stay right if the scaled clock passes midnight).
     */
    static String heldBackDryRun(EndToEnd fixture, String name, String sensor, LocalDate date) {
        long sinceMidnight = Duration.between(
                        date.atStartOfDay(ZoneOffset.UTC).toInstant(),
                        fixture.rt.clock().instant())
                .toMinutes();
        return dryRun(
                fixture,
                name,
                sensor,
                "{timezone: UTC, evaluationDeadline: \"+%dm\", validationTimeout: \"+%dm\"}"
                        .formatted(sinceMidnight + 20, sinceMidnight + 30));
    }

    private static String dryRun(EndToEnd fixture, String name, String sensor, String sla) {
        return """
                name: %s
                archetype: batch-ingestion
                dryRun: true
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:sensor-threshold", config: {sensor: %s, field: count, op: gte, value: 1000}}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                sla: %s
                """.formatted(name, sensor, fixture.jobs.endpoint(), name, sla);
    }

    static List<String> dryRunKinds(JsonNode schedule) {
        return StreamSupport.stream(schedule.path("dryRun").spliterator(), false)
                .map(d -> d.path("kind").asText())
                .toList();
    }

    @Test
    void aDryRunPastItsEvaluationSlaAndExhaustedPagesNobodyWritesNoFailedRunLogAndShowsWhatWouldHaveHappened() {
        LocalDate date = today();
        sensor("dry-stock", "{\"count\":120}");
        putPipeline(heldBackDryRun(this, "dry-exhausted", "dry-stock", date));

        String execution = evaluate("dry-exhausted", date);

        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(alerts("dry-exhausted")).isEmpty();
        assertThat(runLogStatus("dry-exhausted", date, "daily")).isNotEqualTo("FAILED");
        assertThat(eventKinds("dry-exhausted"))
                .contains("DRY_RUN_SLA_MISSED", "DRY_RUN_WOULD_BE_EXHAUSTED")
                .doesNotContain("VALIDATION_EXHAUSTED", "TRIGGER_FIRED");
        JsonNode missed = eventsOf("dry-exhausted", "DRY_RUN_SLA_MISSED").getFirst();
        assertThat(missed.path("details").path("alertKind").asText()).isEqualTo("SLA_EVALUATION_BREACHED");
        assertThat(jobs.triggersOf("dry-exhausted")).isZero();

        JsonNode daily = expect(200, "GET", "/pipelines/dry-exhausted/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
        assertThat(daily.path("state").asText()).isEqualTo("DRY_RUN");
        assertThat(daily.path("reason").asText())
                .startsWith("dry run: would have failed VALIDATION_EXHAUSTED at ")
                .contains("no FAILED run log, no alert");
        assertThat(dryRunKinds(daily)).containsSubsequence("DRY_RUN_SLA_MISSED", "DRY_RUN_WOULD_BE_EXHAUSTED");

        String endpoint = rt.apiEndpoint().toString();
        assertThat(why("dry-exhausted", date))
                .contains("dry-exhausted (daily) on " + date + " is DRY_RUN: dry run: would have failed")
                .contains("- DRY_RUN_SLA_MISSED at ")
                .contains("- DRY_RUN_WOULD_BE_EXHAUSTED at ");
        Cli status = cli("status", "dry-exhausted", "--date", date.toString(), "--endpoint", endpoint, "--no-sigv4");
        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.out())
                .contains("dry run daily (recorded, not done):")
                .containsPattern("(?m)DRY_RUN_WOULD_BE_EXHAUSTED +VALIDATION_EXHAUSTED ");
    }

    @Test
    void aReadyDryRunRecordsTheTriggerAndTheDeadlinesItWouldMeetAndNewDataTheRerunItWouldStart() {
        LocalDate date = today();
        sensor("dry-ready-stock", "{\"count\":5000}");
        // Deadlines at the end of the day: the run meets them however slowly the machine runs it.
        putPipeline(dryRun(
                this,
                "dry-ready",
                "dry-ready-stock",
                "{timezone: UTC, evaluationDeadline: \"23:58\", completionDeadline: \"23:59\"}"));

        assertThat(awaitDone(evaluate("dry-ready", date))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(awaitDone(evaluate("dry-ready", date))).isEqualTo(ExecutionStatus.SUCCEEDED);

        assertThat(eventKinds("dry-ready"))
                .as(events("dry-ready").toString())
                .containsSubsequence("DRY_RUN_WOULD_TRIGGER", "DRY_RUN_SLA_MET", "DRY_RUN_WOULD_RERUN");
        assertThat(eventsOf("dry-ready", "DRY_RUN_SLA_MET"))
                .extracting(e -> e.path("details").path("sla").asText())
                .contains("evaluation", "completion");
        assertThat(alerts("dry-ready")).isEmpty();
        assertThat(jobs.triggersOf("dry-ready")).isZero();
        JsonNode daily = expect(200, "GET", "/pipelines/dry-ready/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
        assertThat(daily.path("state").asText()).isEqualTo("DRY_RUN");
        assertThat(dryRunKinds(daily)).contains("DRY_RUN_WOULD_TRIGGER", "DRY_RUN_SLA_MET", "DRY_RUN_WOULD_RERUN");
    }
}
