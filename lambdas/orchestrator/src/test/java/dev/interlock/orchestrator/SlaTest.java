package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class SlaTest {

    private final Fixture f = new Fixture();

    /** The evaluation SLA is checked by every readiness round; its answer is {@code payload.evaluationSla}. */
    private JsonNode evaluation() {
        JsonNode response = f.call(f.request(
                OrchestratorAction.CHECK_READINESS,
                "run-1",
                java.util.Map.of("traitResults", Fixture.allRequired("FAIL"))));
        assertThat(response.get("result").asText())
                .as("the SLA never decides readiness")
                .isEqualTo("skip");
        return new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode()
                .put("result", "proceed")
                .set("payload", response.get("payload").get("evaluationSla"));
    }

    /** What {@code checkCompletionSLA} answers (the deadline; it judges nothing, the day is not completed yet). */
    private JsonNode completion() {
        return f.call(f.request(OrchestratorAction.CHECK_COMPLETION_SLA, "run-1", java.util.Map.of()));
    }

    /**
     * A run's job succeeded and {@code logResult} records the day COMPLETED now, which judges the completion SLA:
     * with the deadline resolved at the start as {@code LogCompleted} sends it, or ({@code deadline} null) without it,
     * as an execution of an earlier definition does.
     */
    private JsonNode completeDay(String deadline) {
        return logCompleted(f.succeededRun(), deadline);
    }

    private JsonNode logCompleted(String runId, String deadline) {
        java.util.Map<String, Object> payload = new java.util.HashMap<>();
        payload.put("status", "COMPLETED");
        payload.put("postRunChecks", false);
        if (deadline != null) {
            payload.put("completionDeadline", deadline);
        }
        JsonNode response = f.call(f.request(OrchestratorAction.LOG_RESULT, runId, payload));
        assertThat(response.at("/payload/status").asText()).isEqualTo("COMPLETED");
        return response;
    }

    @Test
    void withoutDeadlinesNothingIsBreached() {
        f.register("");

        assertThat(evaluation().get("payload").get("breached").asBoolean()).isFalse();
        assertThat(evaluation().get("payload").get("deadline").asText()).isEmpty();
        assertThat(completion().get("payload").get("deadline").asText()).isEmpty();
    }

    @Test
    void beforeTheEvaluationDeadlineItIsNotBreached() {
        f.register("sla: {evaluationDeadline: '11:00', timezone: UTC}\n");

        JsonNode response = evaluation();

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("breached").asBoolean()).isFalse();
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T11:00:00.000Z");
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void afterTheEvaluationDeadlineItAlertsOnce() {
        f.register("sla: {evaluationDeadline: '09:30', timezone: UTC}\n");

        JsonNode first = evaluation();
        JsonNode second = evaluation();

        assertThat(first.get("payload").get("breached").asBoolean()).isTrue();
        assertThat(second.get("payload").get("breached").asBoolean()).isTrue();
        assertThat(f.alerts.sent).hasSize(1);
        Alert alert = f.alerts.sent.get(0);
        assertThat(alert.kind()).isEqualTo(AlertKind.SLA_EVALUATION_BREACHED);
        assertThat(alert.level()).isEqualTo(AlertLevel.WARNING);
        assertThat(alert.pipelineId()).isEqualTo("orders");
        assertThat(alert.scheduleId()).isEqualTo("daily");
        assertThat(alert.date()).isEqualTo(Fixture.DATE);
        assertThat(f.events(EventKind.SLA_BREACHED)).hasSize(1);
    }

    @Test
    void aDeadlineIsReadInTheSchedulesZone() {
        // 05:30 in New York (EST, UTC-5) is 10:30 UTC: not yet breached at 10:00 UTC.
        f.register("schedules:\n  - {name: daily, deadline: '05:30', timezone: America/New_York}\n");

        JsonNode before = completion();
        f.clock.set(Instant.parse("2026-03-02T10:31:00Z"));
        completeDay(null);

        assertThat(before.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T10:30:00.000Z");
        assertThat(before.get("payload").get("breached").asBoolean()).isFalse();
        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED)).hasSize(1);
    }

    @Test
    void aDeadlineEarlierThanTheWindowOpeningRollsToTheNextDay() {
        f.register("schedules:\n  - {name: daily, after: '22:00', deadline: '02:00', timezone: Europe/Berlin}\n");
        f.clock.set(Instant.parse("2026-03-02T23:30:00Z")); // 00:30 on the 3rd in Berlin: before the rolled deadline

        JsonNode response = completion();

        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-03T01:00:00.000Z");
        assertThat(response.get("payload").get("breached").asBoolean()).isFalse();
    }

    @Test
    void theCompletionDeadlineFallsBackToTheSla() {
        f.register("sla: {completionDeadline: '+1h', timezone: UTC}\nschedules:\n  - {name: daily, after: '08:00'}\n");

        JsonNode response = completion();
        completeDay(null);

        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T09:00:00.000Z");
        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED)).hasSize(1);
    }

    @Test
    void anInvalidZoneIsLoggedAndNeverBlocksReadiness() {
        f.register("sla: {evaluationDeadline: '09:00', timezone: Mars/Olympus}\n");

        JsonNode response = evaluation();

        assertThat(response.get("payload").get("breached").asBoolean()).isFalse();
        assertThat(f.logText()).contains("invalid Evaluation deadline: ");
        JsonNode ready = f.call(f.request(
                OrchestratorAction.CHECK_READINESS,
                "run-1",
                java.util.Map.of("traitResults", Fixture.allRequired("PASS"))));
        assertThat(ready.get("result").asText()).isEqualTo("proceed");
    }

    @Test
    void aMissingPipelineIsAnError() {
        JsonNode response = completion();

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("deadline").asText()).isEmpty();
    }

    @Test
    void aFailedDeliveryIsSentByALaterCheck() {
        f.register("sla: {evaluationDeadline: '09:30'}\n");
        f.alerts.failNext(1);

        JsonNode first = evaluation();
        JsonNode second = evaluation();

        assertThat(first.get("result").asText()).isEqualTo("proceed");
        assertThat(second.get("result").asText()).isEqualTo("proceed");
        assertThat(f.alerts.of(AlertKind.SLA_EVALUATION_BREACHED)).hasSize(1);
        assertThat(f.logText()).contains("alert not delivered; claim given back so a later attempt sends it");
    }

    @Test
    void aDeadlineThatPassedBeforeTheScheduleWasRegisteredIsRecordedButNotAlerted() {
        // Registered at 10:00 with catchUp: the day's 08:00 window is run late, its 09:00 deadline was never its to
        // meet.
        f.registerAt(
                Fixture.T0,
                "orders",
                "catchUp: true\nschedules:\n  - {name: daily, after: '08:00', deadline: '09:00'}\n");
        f.clock.set(Fixture.T0.plusSeconds(600));

        completeDay(null);

        assertThat(f.alerts.sent).isEmpty();
        assertThat(f.events(dev.interlock.model.event.EventKind.SLA_BREACHED))
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.message()).contains("not alerted");
                    assertThat(e.details()).containsEntry("registeredAt", "2026-03-02T10:00:00.000Z");
                });
    }

    @Test
    void theCompletionDeadlineResolvedAtTheStartIsJudgedWithoutThePipelineEvenIfItWasDeletedSince() {
        f.register("schedules:\n  - {name: daily, deadline: '05:30', timezone: America/New_York}\n");
        JsonNode resolved = f.call(f.request(OrchestratorAction.RESOLVE_PIPELINE));
        String deadline = resolved.get("payload").get("completionDeadline").asText();
        String runId = resolved.get("payload").get("runId").asText();
        f.provider.pipelines().delete(Fixture.PIPELINE);
        f.clock.set(Instant.parse("2026-03-02T10:31:00Z"));

        JsonNode before = f.call(
                f.request(OrchestratorAction.CHECK_COMPLETION_SLA, runId, java.util.Map.of("deadline", deadline)));
        JsonNode after = logCompleted(runId, deadline);

        // The job ran and completed: its completion is judged, not turned into an execution error.
        assertThat(deadline).isEqualTo("2026-03-02T10:30:00.000Z");
        assertThat(before.get("result").asText()).isEqualTo("proceed");
        assertThat(before.get("payload").get("breached").asBoolean())
                .as("judged nothing")
                .isFalse();
        assertThat(after.get("result").asText()).isEqualTo("proceed");
        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED)).hasSize(1);
    }

    @Test
    void noResolvedCompletionDeadlineIsNeverBreached() {
        JsonNode response =
                f.call(f.request(OrchestratorAction.CHECK_COMPLETION_SLA, "run-1", java.util.Map.of("deadline", "")));

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("breached").asBoolean()).isFalse();
        assertThat(response.get("payload").get("deadline").asText()).isEmpty();
    }
}
