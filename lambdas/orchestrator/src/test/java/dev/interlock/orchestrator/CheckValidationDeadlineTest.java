package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CheckValidationDeadlineTest {

    private final Fixture f = new Fixture();

    private JsonNode check(String executionStartTime) {
        Map<String, Object> payload = new LinkedHashMap<>();
        if (executionStartTime != null) {
            payload.put("executionStartTime", executionStartTime);
        }
        payload.put("executionTimeoutSeconds", 14400);
        return f.call(f.request("checkValidationDeadline", "run-1", payload));
    }

    @Test
    void withoutAValidationTimeoutTheExecutionLeavesRoomForPolling() {
        f.register("");

        JsonNode response = check("2026-03-02T09:00:00Z");

        // 14400 s − (30 s × 120 polls + 900 s) = 9900 s after the start
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T11:45:00.000Z");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isFalse();
    }

    @Test
    void pastTheDefaultDeadlineItIsExhausted() {
        f.register("");
        f.clock.set(Instant.parse("2026-03-02T11:45:00Z"));

        assertThat(check("2026-03-02T09:00:00Z").get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void aConfiguredValidationTimeoutOnTheExecutionDateWins() {
        f.register("sla: {validationTimeout: '10:30', timezone: UTC}\n");

        JsonNode before = check("2026-03-02T09:00:00Z");
        f.clock.set(Instant.parse("2026-03-02T10:30:00Z"));
        JsonNode after = check("2026-03-02T09:00:00Z");

        assertThat(before.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T10:30:00.000Z");
        assertThat(before.get("payload").get("exhausted").asBoolean()).isFalse();
        assertThat(after.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void aConfiguredDeadlineBeyondTheExecutionsRoomIsCut() {
        f.register("sla: {validationTimeout: '23:00', timezone: UTC}\n");

        JsonNode response = check("2026-03-02T09:00:00Z");

        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T11:45:00.000Z");
    }

    @Test
    void anUnparsableSettingFallsBackAndStillAnswersExhausted() {
        f.register("sla: {validationTimeout: 'whenever'}\n");
        f.clock.set(Instant.parse("2026-03-02T12:00:00Z"));

        JsonNode response = check("2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).startsWith("invalid sla.validationTimeout, using the execution's own deadline");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T11:45:00.000Z");
    }

    @Test
    void withoutAStartTimeTheRunsCreationIsTheStart() {
        f.register("");
        String runId = f.resolve();
        f.clock.set(Instant.parse("2026-03-02T12:45:00Z"));

        JsonNode response = f.call(f.request("checkValidationDeadline", runId, Map.of("executionTimeoutSeconds", 14400)));

        assertThat(response.get("payload").get("deadline").asText()).isEqualTo("2026-03-02T12:45:00.000Z");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void withoutAnyStartTheLoopIsEnded() {
        f.register("");

        JsonNode response = check(null);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }

    @Test
    void aVanishedPipelineStillEndsTheLoopInTime() {
        f.clock.set(Instant.parse("2026-03-02T13:00:00Z"));

        JsonNode response = check("2026-03-02T09:00:00Z");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
    }
}
