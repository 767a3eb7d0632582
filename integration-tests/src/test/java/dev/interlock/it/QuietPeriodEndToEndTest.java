package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code quietPeriod} through the public API: a burst of 50 sensor writes (each a change, each starting an evaluation)
 * ends in one trigger, once the data has rested for the quiet period after the last write; while it rests, status
 * says until when.
 */
class QuietPeriodEndToEndTest extends EndToEnd {

    @Test
    void aBurstOfFiftySensorWritesInOneQuietPeriodGivesOneTriggerOnSettledData() {
        String name = "quiet-burst";
        putPipeline("""
                name: %1$s
                archetype: batch-ingestion
                quietPeriod: 30m
                traits:
                  source-freshness: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-files, field: count, op: gte, value: 1}}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                """.formatted(name, jobs.endpoint()));
        LocalDate date = today();

        // Files keep arriving: 50 writes, each a new revision that starts an evaluation of the day.
        for (int i = 1; i <= 50; i++) {
            sensor(name + "-files", "{\"count\":" + i + "}");
        }
        Instant lastWrite = Instant.parse(expect(200, "GET", "/sensors/" + name + "-files", null, null)
                .path("updatedAt")
                .asText());

        // While the data rests, the day is held back and status says until when.
        JsonNode held = await(
                "a round held back by the quiet period",
                () -> expect(200, "GET", "/pipelines/" + name + "/status?date=" + date, null, null)
                        .path("schedules")
                        .get(0),
                s -> s.path("reason").asText().startsWith("quiet until"));
        assertThat(held.path("state").asText()).isEqualTo("NOT_READY");
        assertThat(jobs.triggersOf(name)).isZero();

        await("the day COMPLETED", () -> runLogStatus(name, date, "daily"), "COMPLETED"::equals);
        awaitExecutionsDone(name);
        assertThat(jobs.triggersOf(name)).as("one trigger for the whole burst").isEqualTo(1);

        List<JsonNode> ready = eventsOf(name, "READINESS_CHECKED").stream()
                .filter(e -> e.path("status").asText().equals("READY"))
                .toList();
        assertThat(ready)
                .singleElement()
                .satisfies(e -> assertThat(Instant.parse(e.path("timestamp").asText()))
                        .as("ready only once the data had rested 30 minutes after the last write")
                        .isAfterOrEqualTo(lastWrite.plus(Duration.ofMinutes(30))));
        assertThat(eventsOf(name, "READINESS_CHECKED").stream()
                        .filter(e -> e.path("status").asText().equals("NOT_READY"))
                        .map(e -> e.path("message").asText()))
                .isNotEmpty()
                .allSatisfy(m -> assertThat(m).startsWith("quiet until"));
        assertThat(why(name, date)).contains("completed");
    }

    @Test
    void aRerunReadyAtOnceWaitsUntilMinIntervalAfterTheDaysPreviousRunStarted() {
        String name = "spaced-rerun";
        putPipeline("""
                name: %1$s
                archetype: batch-ingestion
                minInterval: 45m
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                """.formatted(name, jobs.endpoint()));
        LocalDate date = today();

        // The first run of the day is never held.
        evaluate(name, date);
        await("the first run COMPLETED", () -> runLogStatus(name, date, "daily"), "COMPLETED"::equals);
        awaitExecutionsDone(name);
        assertThat(jobs.triggersOf(name)).isEqualTo(1);
        Instant firstStart =
                Instant.parse(runs(name).getFirst().path("createdAt").asText());

        // A rerun is ready at once, and waits for the spacing; status says until when.
        expect(
                202,
                "POST",
                "/pipelines/" + name + "/reruns",
                "application/json",
                "{\"date\":\"" + date + "\",\"reason\":\"late correction\"}");
        JsonNode held = await(
                "the rerun held back by minInterval",
                () -> expect(200, "GET", "/pipelines/" + name + "/status?date=" + date, null, null)
                        .path("schedules")
                        .get(0),
                s -> s.path("reason").asText().startsWith("spaced until"));
        assertThat(held.path("state").asText()).isEqualTo("NOT_READY");
        assertThat(jobs.triggersOf(name)).isEqualTo(1);

        await("the second job started", () -> jobs.triggersOf(name), n -> n == 2);
        Instant secondStart = jobs.received().stream()
                .filter(r -> r.job().equals(name))
                .map(dev.interlock.local.demo.FakeJobServer.Received::at)
                .max(Instant::compareTo)
                .orElseThrow();
        assertThat(secondStart).isAfterOrEqualTo(firstStart.plus(Duration.ofMinutes(45)));
        await("the rerun COMPLETED", () -> runLogStatus(name, date, "daily"), "COMPLETED"::equals);
        awaitExecutionsDone(name);
        assertThat(jobs.triggersOf(name)).isEqualTo(2);
    }

    @Test
    void aQuietPeriodThatIsNoDurationIsRefusedWithItsPath() {
        Response refused = call("PUT", "/pipelines/quiet-bad", "application/yaml", """
                name: quiet-bad
                archetype: batch-ingestion
                quietPeriod: a while
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "https://jobs.example.com/run"}
                """);
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsText("path")).containsExactly("$.quietPeriod");
        assertThat(call("GET", "/pipelines/quiet-bad", null, null).status()).isEqualTo(404);
    }
}
