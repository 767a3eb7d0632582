package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.schedule.ReadableTime;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Every state visible, as a user meets it through the public API and the CLI ({@code interlock
 * status}, {@code interlock why}): a day watched for late data is MONITORING with its end and next round and then
 * COMPLETED; a window that opened before its pipeline was registered says so (forward-only) instead of NOT_READY, and
 * shows what really happens once evaluated by hand; an excluded day names the rule; a dry-run day says what would
 * have been triggered.
 */
class DayStatesEndToEndTest extends EndToEnd {

    private String pipeline(String name, String extra) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                %s
                """.formatted(name, jobs.endpoint(), name, extra);
    }

    private JsonNode schedule(String pipeline, LocalDate date) {
        return expect(200, "GET", "/pipelines/" + pipeline + "/status?date=" + date, null, null)
                .path("schedules")
                .get(0);
    }

    @Test
    void aMonitoredDayIsMonitoringWithItsEndAndNextRoundThenCompleted() {
        LocalDate date = today();
        putPipeline(pipeline("st-monitored", "monitoring: {enabled: true, duration: 1h}"));
        evaluate("st-monitored", date);

        JsonNode s = await(
                "st-monitored MONITORING",
                () -> schedule("st-monitored", date),
                n -> n.path("state").asText().equals("MONITORING"));
        Instant endsAt = Instant.parse(s.path("monitoring").path("endsAt").asText());
        Instant nextRound =
                Instant.parse(s.path("monitoring").path("nextRoundAt").asText());
        Instant completedAt =
                Instant.parse(s.path("monitoring").path("startedAt").asText());
        assertThat(endsAt).isEqualTo(completedAt.plusSeconds(3600));
        assertThat(nextRound).isAfter(completedAt).isBeforeOrEqualTo(endsAt);
        assertThat(s.path("reason").asText())
                .contains("watching for late data until " + ReadableTime.of(endsAt, ZoneOffset.UTC));
        assertThat(s.path("nextAction").path("what").asText()).isEqualTo("next monitoring round");
        assertThat(s.path("nextAction").hasNonNull("at")).isTrue();

        String status = printed("status", "st-monitored", "--date", date.toString());
        assertThat(status).contains("MONITORING").contains("next monitoring round at ");
        String why = printed("why", "st-monitored", "--date", date.toString());
        assertThat(why)
                .contains("is MONITORING: ")
                .contains("watching for late data until")
                .contains("Monitoring ends at " + ReadableTime.of(endsAt, ZoneOffset.UTC));

        // Once the window has passed the day is COMPLETED, and says so when the loop's last check ended it.
        JsonNode after = await(
                "st-monitored COMPLETED",
                () -> schedule("st-monitored", date),
                n -> n.path("state").asText().equals("COMPLETED"));
        assertThat(after.path("reason").asText()).contains("monitor");
        assertThat(after.path("monitoring").isNull() || after.path("monitoring").isMissingNode())
                .isTrue();
        await("monitoring ended", () -> eventsOf("st-monitored", "MONITORING_COMPLETED"), l -> !l.isEmpty());
        assertThat(eventsOf("st-monitored", "MONITORING_COMPLETED"))
                .extracting(e -> e.path("status").asText())
                .containsExactly("EXPIRED");
        JsonNode ended = schedule("st-monitored", date);
        assertThat(ended.path("state").asText()).isEqualTo("COMPLETED");
        assertThat(ended.path("reason").asText())
                .contains("monitoring window over (until " + ReadableTime.of(endsAt, ZoneOffset.UTC) + ")");
        assertThat(printed("why", "st-monitored", "--date", date.toString()))
                .contains("is COMPLETED: ")
                .contains("monitoring window over");
    }

    @Test
    void aWindowThatOpenedBeforeRegistrationIsForwardOnlyUntilEvaluatedByHand() {
        LocalDate date = today();
        // The runtime's clock stands in the morning: the 00:01 window opened before this registration.
        putPipeline(pipeline("st-late", "schedules: [{name: daily, after: \"00:01\"}]"));

        JsonNode s = schedule("st-late", date);
        assertThat(s.path("state").asText()).isEqualTo("BEFORE_REGISTRATION");
        assertThat(s.path("reason").asText()).contains("forward-only").contains("catchUp");
        JsonNode line = list("/status").stream()
                .filter(l -> l.path("pipelineId").asText().equals("st-late"))
                .findFirst()
                .orElseThrow();
        assertThat(line.path("state").asText()).isEqualTo("BEFORE_REGISTRATION");
        assertThat(printed("status", "st-late", "--date", date.toString())).contains("BEFORE_REGISTRATION");
        assertThat(printed("why", "st-late", "--date", date.toString()))
                .contains("is BEFORE_REGISTRATION: forward-only")
                .contains("evaluate it by hand");
        // The watchdog agrees: it starts nothing for it.
        invokeWatchdog();
        assertThat(executions("st-late")).isEmpty();

        // Evaluated by hand anyway, the day shows what really happens.
        assertThat(awaitDone(evaluate("st-late", date))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(schedule("st-late", date).path("state").asText()).isEqualTo("COMPLETED");
    }

    @Test
    void anExcludedDayNamesTheRuleThatExcludesIt() {
        LocalDate date = today();
        putPipeline(pipeline("st-excluded", "exclusions: {dates: [\"" + date + "\"]}"));

        JsonNode s = schedule("st-excluded", date);
        assertThat(s.path("state").asText()).isEqualTo("EXCLUDED");
        assertThat(s.path("reason").asText()).contains("not run on this date").contains(date.toString());
        assertThat(printed("why", "st-excluded", "--date", date.toString()))
                .contains("is EXCLUDED: not run on this date")
                .contains(date.toString());
    }

    @Test
    void aDryRunDaySaysWhatWouldHaveBeenTriggered() {
        LocalDate date = today();
        putPipeline(pipeline("st-dry", "dryRun: true"));
        // Before it is evaluated, its day says it is a dry run all the same.
        JsonNode before = schedule("st-dry", date);
        assertThat(before.path("state").asText()).isEqualTo("NOT_READY");
        assertThat(before.path("reason").asText()).contains("(dry run: no job is started, no alert is sent)");
        assertThat(awaitDone(evaluate("st-dry", date))).isEqualTo(ExecutionStatus.SUCCEEDED);

        JsonNode s = schedule("st-dry", date);
        assertThat(s.path("state").asText()).isEqualTo("DRY_RUN");
        assertThat(s.path("reason").asText()).contains("dry run").contains("http trigger would have started");
        assertThat(s.path("dryRun").get(0).path("kind").asText()).isEqualTo("DRY_RUN_WOULD_TRIGGER");
        String why = printed("why", "st-dry", "--date", date.toString());
        assertThat(why).contains("is DRY_RUN: ").contains("http trigger would have started");
        assertThat(jobs.triggersOf("st-dry")).isZero();
    }
}
