package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The readiness rule's deadline fallback, registered and run through the public API: once {@code proceedAt} has passed,
 * a day whose {@code essential} traits pass proceeds without the others, and says so (event, alert, run log, status,
 * {@code interlock why}); a day whose essential trait fails keeps waiting.
 */
class ProceedAtEndToEndTest extends EndToEnd {

    /** Product minutes between the start of a test and its {@code proceedAt}: far beyond the first rounds. */
    private static final Duration LEAD = Duration.ofMinutes(60);

    /**
     * source-freshness (essential) passes once the sensor {@code <name>-src} reports a count, upstream-dependency
     * (not essential) always fails, resource-availability always passes; {@code proceedAt} is a span from the window
     * opening (midnight UTC of the date).
     */
    private String degradable(String name, String proceedAt) {
        return """
                name: %1$s
                archetype: batch-ingestion
                readinessRule: {type: all-required-pass, proceedAt: "%3$s", essential: [source-freshness]}
                traits:
                  source-freshness: {evaluator: "builtin:sensor-threshold", config: {sensor: %1$s-src, field: count, op: gte, value: 1}}
                  upstream-dependency: {evaluator: "builtin:always-fail"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%2$s/jobs/%1$s"}
                evaluationIntervalSeconds: 120
                """.formatted(name, jobs.endpoint(), proceedAt);
    }

    /** {@code +Nm} from midnight UTC of {@code date} that lands {@link #LEAD} after the product clock's now. */
    private String spanFromMidnight(LocalDate date, Instant at) {
        long minutes = Duration.between(date.atStartOfDay(ZoneOffset.UTC).toInstant(), at)
                .toMinutes();
        return "+" + minutes + "m";
    }

    private static Instant at(JsonNode event) {
        return Instant.parse(event.path("timestamp").asText());
    }

    @Test
    void pastProceedAtADayWhoseEssentialTraitPassesProceedsWithoutTheOthersAndSaysSo() {
        LocalDate date = today();
        Instant proceedAt = rt.clock().instant().plus(LEAD).truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        putPipeline(degradable("pa-go", spanFromMidnight(date, proceedAt)));
        sensor("pa-go-src", "{\"count\":5}");
        evaluate("pa-go", date);

        await("pa-go's day COMPLETED", () -> runLogStatus("pa-go", date, "daily"), "COMPLETED"::equals);
        assertThat(awaitExecutionsDone("pa-go")).isNotEmpty();
        assertThat(jobs.triggersOf("pa-go")).isEqualTo(1);

        // Before proceedAt every round was NOT READY, the missing trait holding it back.
        List<JsonNode> rounds = eventsOf("pa-go", "READINESS_CHECKED");
        List<JsonNode> before =
                rounds.stream().filter(e -> at(e).isBefore(proceedAt)).toList();
        assertThat(before)
                .isNotEmpty()
                .allSatisfy(e -> assertThat(e.path("status").asText()).isEqualTo("NOT_READY"));
        assertThat(before.getFirst().path("details").path("blocking").toString())
                .contains("upstream-dependency");

        // At the first round past it, the day proceeded without the missing trait, and said so once.
        JsonNode degraded = eventsOf("pa-go", "PROCEEDED_DEGRADED").stream()
                .findFirst()
                .orElseThrow(() -> new AssertionError("no PROCEEDED_DEGRADED event: " + eventKinds("pa-go")));
        assertThat(eventsOf("pa-go", "PROCEEDED_DEGRADED")).hasSize(1);
        assertThat(at(degraded)).isAfterOrEqualTo(proceedAt);
        assertThat(degraded.path("details").path("proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        assertThat(degraded.path("message").asText()).contains("upstream-dependency");

        List<JsonNode> alerts = alerts("pa-go").stream()
                .filter(a -> a.path("kind").asText().equals("PROCEEDED_DEGRADED"))
                .toList();
        assertThat(alerts).singleElement().satisfies(a -> {
            assertThat(a.path("message").asText()).contains("upstream-dependency");
            assertThat(a.path("details").path("proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        });

        JsonNode log = runLog("pa-go", date, "daily");
        assertThat(log.path("proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        JsonNode daily = expect(200, "GET", "/pipelines/pa-go/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
        assertThat(daily.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(daily.path("proceededWithout").toString()).isEqualTo("[\"upstream-dependency\"]");
        assertThat(why("pa-go", date)).contains("proceeded without upstream-dependency");
    }

    @Test
    void pastProceedAtADayWhoseEssentialTraitFailsKeepsWaiting() {
        LocalDate date = today();
        Instant proceedAt = rt.clock().instant().plus(LEAD).truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        putPipeline(degradable("pa-stay", spanFromMidnight(date, proceedAt)));
        evaluate("pa-stay", date);

        // A round past proceedAt: still NOT READY, the essential trait named.
        JsonNode late = await(
                        "a NOT_READY round past proceedAt",
                        () -> eventsOf("pa-stay", "READINESS_CHECKED").stream()
                                .filter(e -> !at(e).isBefore(proceedAt))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(late.path("status").asText()).isEqualTo("NOT_READY");
        assertThat(late.path("message").asText()).contains("essential source-freshness");
        assertThat(eventsOf("pa-stay", "PROCEEDED_DEGRADED")).isEmpty();
        assertThat(alertKinds("pa-stay")).doesNotContain("PROCEEDED_DEGRADED");
        assertThat(jobs.triggersOf("pa-stay")).isZero();
        assertThat(runLogStatus("pa-stay", date, "daily")).isEqualTo("none");
    }

    @Test
    void anEssentialTraitThePipelineDoesNotHaveIsRefusedAtRegistrationWithItsPath() {
        Response refused = call(
                "PUT",
                "/pipelines/pa-bad",
                "application/yaml",
                degradable("pa-bad", "+6h")
                        .replace("essential: [source-freshness]", "essential: [source-freshness, row-count]"));
        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.body().path("errors").findValuesAsText("path"))
                .containsExactly("$.readinessRule.essential[1]");
        assertThat(call("GET", "/pipelines/pa-bad", null, null).status())
                .as("nothing half-written")
                .isEqualTo(404);
    }
}
