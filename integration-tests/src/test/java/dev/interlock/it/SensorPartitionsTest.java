package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Sensors are per partition: producers push {@code PUT /sensors/{name}/partitions/{partition}}, and the sensor
 * builtins read the partition their {@code partition} template names for the execution being evaluated.
 */
class SensorPartitionsTest extends EndToEnd {

    private String dailyReader(String name, String sensor) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency:
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: %s, partition: "${date}", field: complete, op: eq, value: true}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                """.formatted(name, sensor, jobs.endpoint(), name);
    }

    private List<JsonNode> traitResults(String pipeline, String traitType) {
        return eventsOf(pipeline, "TRAIT_EVALUATED").stream()
                .filter(e -> e.path("traitType").asText().equals(traitType))
                .toList();
    }

    @Test
    void yesterdaysCompletePartitionNeverMakesTodayReady() {
        LocalDate today = today();
        // Last night the producer finished yesterday's partition (before this pipeline was registered).
        expect(
                200,
                "PUT",
                "/sensors/sp-orders/partitions/" + today.minusDays(1),
                "application/json",
                "{\"complete\":true}");
        putPipeline(dailyReader("sp-daily", "sp-orders"));

        String name = evaluate("sp-daily", today);
        await("today NOT READY", () -> traitResults("sp-daily", "upstream-dependency"), l -> !l.isEmpty());
        JsonNode first = traitResults("sp-daily", "upstream-dependency").getFirst();
        assertThat(first.path("status").asText()).isEqualTo("FAIL");
        assertThat(first.path("message").asText()).contains("sp-orders").contains(today.toString());
        assertThat(jobs.triggersOf("sp-daily")).isZero();

        // Today's partition lands: the waiting execution sees it at its next evaluation and triggers once.
        JsonNode stored =
                expect(200, "PUT", "/sensors/sp-orders/partitions/" + today, "application/json", "{\"complete\":true}");
        assertThat(stored.path("partition").asText()).isEqualTo(today.toString());
        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(name)))
                .containsSubsequence("WaitBeforeReevaluation", "EvaluateTraits", "TriggerPipeline", "LogCompleted");
        assertThat(jobs.triggersOf("sp-daily")).isEqualTo(1);
        assertThat(runLogStatus("sp-daily", today, "daily")).isEqualTo("COMPLETED");
        JsonNode passed = traitResults("sp-daily", "upstream-dependency").getLast();
        assertThat(passed.path("status").asText()).isEqualTo("PASS");
        assertThat(passed.path("details").path("partition").asText()).isEqualTo(today.toString());
    }

    @Test
    void anHourlyScheduleReadsItsOwnHoursPartition() {
        LocalDate today = today();
        expect(200, "PUT", "/sensors/sp-clicks/partitions/" + today + "T06", "application/json", "{\"lagSeconds\":30}");
        putPipeline("""
                name: sp-hourly
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency:
                    evaluator: "builtin:sensor-threshold"
                    config: {sensor: sp-clicks, partition: "${date}T${hour}", field: lagSeconds, op: lte, value: 300}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/sp-hourly"}
                schedules: [{name: h05}, {name: h06}]
                """.formatted(jobs.endpoint()));

        assertThat(awaitDone(evaluate("sp-hourly", today, "h06"))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(jobs.triggersOf("sp-hourly")).isEqualTo(1);

        // h05 reads the 05 partition, which has no value: h06's data does not make it ready.
        String h05 = evaluate("sp-hourly", today, "h05");
        await("h05 evaluated", () -> traitResults("sp-hourly", "upstream-dependency"), l -> l.size() >= 2);
        aws.stepFunctions()
                .stopExecution(
                        b -> b.executionArn(arnOf(h05)).error("Test.Stop").cause("seen enough"));
        assertThat(awaitDone(h05)).isEqualTo(ExecutionStatus.ABORTED);
        JsonNode h05Result = traitResults("sp-hourly", "upstream-dependency").getLast();
        assertThat(h05Result.path("scheduleId").asText()).isEqualTo("h05");
        assertThat(h05Result.path("status").asText()).isEqualTo("FAIL");
        assertThat(h05Result.path("message").asText()).contains(today + "T05");
        assertThat(jobs.triggersOf("sp-hourly")).isEqualTo(1);
        assertThat(runLogStatus("sp-hourly", today, "h05")).isEqualTo("none");
    }

    @Test
    void aMalformedPartitionIsRefusedNamingThePathParameter() {
        for (String bad : List.of("2026-03-01%23x", "-2026", "a%20b", "x".repeat(129))) {
            Response r = call("PUT", "/sensors/sp-bad/partitions/" + bad, "application/json", "{\"complete\":true}");
            assertThat(r.status()).as(bad).isEqualTo(400);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.body().path("errors").get(0).path("path").asText()).isEqualTo("path.partition");
        }
        Response unknown = call("GET", "/sensors/sp-bad/partitions/2026-03-01", null, null);
        assertThat(unknown.status()).isEqualTo(404);
    }

    @Test
    void theSensorExamplesOfTheExamplesReadmeRunAsWritten() throws Exception {
        List<String> commands = curlCommands(Path.of("..", "examples", "README.md"));
        assertThat(commands).isNotEmpty();
        for (String command : commands) {
            String local = command.replace("localhost:8080", rt.apiEndpoint().getAuthority());
            Process p = new ProcessBuilder("sh", "-c", local + " -sS -o /dev/null -w '%{http_code}'")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            assertThat(p.waitFor()).as(command + " -> " + out).isZero();
            assertThat(out).as(command).isEqualTo("200");
        }
    }

    /** The {@code curl} commands of a README, one per line, as a shell would run them. */
    private static List<String> curlCommands(Path readme) throws IOException {
        List<String> commands = new ArrayList<>();
        for (String line : Files.readAllLines(readme)) {
            int at = line.indexOf("curl ");
            if (at < 0) {
                continue;
            }
            String rest = line.substring(at);
            int end = rest.indexOf('`');
            commands.add(end < 0 ? rest : rest.substring(0, end));
        }
        return commands;
    }
}
