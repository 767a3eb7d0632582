package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Data arrival drives readiness: a sensor write starts the evaluation of the pipeline days whose traits read that
 * sensor, once per change, without a watchdog tick or an evaluation request (the fixture never ticks the watchdog).
 */
class SensorArrivalTest extends EndToEnd {

    private String reader(String name, String sensor, String sensorConfig, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency:
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: %s, %s}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, sensor, sensorConfig, jobs.endpoint(), name, extra);
    }

    private JsonNode push(String path, String json) {
        return expect(200, "PUT", "/sensors/" + path, "application/json", json);
    }

    @Test
    void aSensorWriteStartsTheEvaluationAndTheJobRunsWithoutATickOrARequest() {
        LocalDate today = today();
        // A sensor-only pipeline: no `after`, so the watchdog would never start it; only its data can.
        putPipeline(reader("sa-orders", "sa-orders-src", "field: count, op: gte, value: 100", ""));
        assertThat(executions("sa-orders")).isEmpty();

        JsonNode answer = push("sa-orders-src", "{\"count\":150}");

        assertThat(answer.path("revision").asLong()).isEqualTo(1);
        assertThat(answer.path("evaluations")).hasSize(1);
        JsonNode started = answer.path("evaluations").get(0);
        assertThat(started.path("pipelineId").asText()).isEqualTo("sa-orders");
        assertThat(started.path("scheduleId").asText()).isEqualTo("daily");
        assertThat(started.path("date").asText()).isEqualTo(today.toString());
        String name = started.path("executionName").asText();
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(input(arnOf(name)).path("markerSource").asText()).isEqualTo("sensor");
        assertThat(visited(arnOf(name)))
                .containsSubsequence("EvaluateTraits", "CheckReadiness", "TriggerPipeline", "LogCompleted");
        assertThat(jobs.triggersOf("sa-orders")).isEqualTo(1);
        assertThat(runLogStatus("sa-orders", today, "daily")).isEqualTo("COMPLETED");
        assertThat(eventsOf("sa-orders", "SENSOR_UPDATED"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("status").asText()).isEqualTo("EVALUATION_STARTED"));
    }

    @Test
    void theSameValueAgainStartsNothingAndAChangeOnACompletedDayDoesNotRerunIt() {
        LocalDate today = today();
        putPipeline(reader("sa-dup", "sa-dup-src", "field: count, op: gte, value: 100", ""));
        String first = push("sa-dup-src", "{\"count\":150}")
                .path("evaluations")
                .get(0)
                .path("executionName")
                .asText();
        // Pushed again while the first execution runs, and after it finished: the same data, no second execution.
        JsonNode again = push("sa-dup-src", "{\"count\":150}");
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.SUCCEEDED);
        JsonNode later = push("sa-dup-src", "{\"count\":150}");
        assertThat(again.path("evaluations")).isEmpty();
        assertThat(later.path("evaluations")).isEmpty();
        assertThat(later.path("revision").asLong()).isEqualTo(1);

        // New data for a COMPLETED day: no rerun (only post-run monitoring may ask for one), and it says why.
        JsonNode changed = push("sa-dup-src", "{\"count\":175}");
        assertThat(changed.path("revision").asLong()).isEqualTo(2);
        assertThat(changed.path("evaluations")).isEmpty();
        assertThat(changed.path("skipped")).singleElement().satisfies(s -> {
            assertThat(s.path("date").asText()).isEqualTo(today.toString());
            assertThat(s.path("reason").asText()).contains("COMPLETED");
        });
        assertThat(executions("sa-dup")).hasSize(1);
        assertThat(jobs.triggersOf("sa-dup")).isEqualTo(1);
        assertThat(eventsOf("sa-dup", "SENSOR_UPDATED"))
                .extracting(e -> e.path("status").asText())
                .containsExactly("EVALUATION_STARTED", "SKIPPED");
    }

    @Test
    void aPartitionedWriteStartsTheScheduleAndDateItsTemplateNames() {
        LocalDate today = today();
        putPipeline(reader(
                "sa-hourly",
                "sa-clicks",
                "partition: \"${date}T${hour}\", field: complete, op: eq, value: true",
                "schedules: [{name: h05}, {name: h06}]"));

        JsonNode h06 = push("sa-clicks/partitions/" + today + "T06", "{\"complete\":true}");
        // The unpartitioned value is not what this pipeline reads, and another day's hour is another day.
        JsonNode unpartitioned = push("sa-clicks", "{\"complete\":true}");

        assertThat(h06.path("evaluations")).singleElement().satisfies(e -> {
            assertThat(e.path("scheduleId").asText()).isEqualTo("h06");
            assertThat(e.path("date").asText()).isEqualTo(today.toString());
        });
        assertThat(unpartitioned.path("evaluations")).isEmpty();
        assertThat(awaitDone(
                        h06.path("evaluations").get(0).path("executionName").asText()))
                .isEqualTo(ExecutionStatus.SUCCEEDED);
        List<ExecutionListItem> all = executions("sa-hourly");
        assertThat(all).singleElement().satisfies(e -> assertThat(e.name()).startsWith("sa-hourly_" + today + "_h06_"));
        assertThat(runLogStatus("sa-hourly", today, "h06")).isEqualTo("COMPLETED");
        assertThat(runLogStatus("sa-hourly", today, "h05")).isEqualTo("none");

        // Yesterday's 05 lands late: it starts yesterday's h05, not today's.
        JsonNode late = push("sa-clicks/partitions/" + today.minusDays(1) + "T05", "{\"complete\":true}");
        assertThat(late.path("evaluations")).singleElement().satisfies(e -> {
            assertThat(e.path("scheduleId").asText()).isEqualTo("h05");
            assertThat(e.path("date").asText()).isEqualTo(today.minusDays(1).toString());
        });
        assertThat(awaitDone(
                        late.path("evaluations").get(0).path("executionName").asText()))
                .isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("sa-hourly", today.minusDays(1), "h05")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("sa-hourly")).isEqualTo(2);
    }

    @Test
    void dataThatLandsBeforeTheWindowOpensWaitsForTheWatchdog() {
        // A zone where it is early morning now, and a window that opens at noon there.
        int utcHour = LocalTime.now(rt.clock()).getHour();
        int offset = Math.floorMod(6 - utcHour + 12, 24) - 12;
        String zone = ZoneOffset.ofHours(offset).getId();
        putPipeline(reader(
                "sa-early",
                "sa-early-src",
                "field: count, op: gte, value: 1",
                "schedules: [{name: daily, after: \"12:00\", timezone: \"" + zone + "\"}]"));

        JsonNode answer = push("sa-early-src", "{\"count\":5}");

        assertThat(answer.path("evaluations")).isEmpty();
        assertThat(answer.path("skipped"))
                .singleElement()
                .satisfies(s -> assertThat(s.path("reason").asText())
                        .as("the opening on the schedule's own wall clock, with its offset")
                        .contains("window opens at "
                                + java.time.LocalDate.ofInstant(rt.clock().instant(), ZoneOffset.ofHours(offset))
                                + " 12:00 " + (offset == 0 ? "+00:00" : zone)));
        assertThat(executions("sa-early")).isEmpty();
    }
}
