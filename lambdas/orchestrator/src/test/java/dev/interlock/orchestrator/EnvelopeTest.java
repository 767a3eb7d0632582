package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import org.junit.jupiter.api.Test;

class EnvelopeTest {

    private final Fixture f = new Fixture();

    @Test
    void unknownActionIsAnErrorResultNamingIt() {
        JsonNode response = f.call(f.request("launchRockets"));

        assertThat(response.get("action").asText()).isEqualTo("launchRockets");
        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("unknown action: launchRockets");
        assertThat(response.get("payload").isObject()).isTrue();
    }

    @Test
    void malformedJsonIsAnErrorResultNotAThrow() {
        JsonNode response = f.call("{\"action\": \"checkExclusion\", ");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).startsWith("invalid request: not JSON");
        assertThat(response.get("action").asText()).isEmpty();
    }

    @Test
    void aJsonArrayIsNotARequest() {
        JsonNode response = f.call("[1, 2]");

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("invalid request: the request must be a JSON object");
    }

    @Test
    void keysAreCaseInsensitiveAndUnknownKeysIgnored() {
        f.register("");
        JsonNode response = f.call("{\"ACTION\":\"checkExclusion\",\"pipelineID\":\"orders\",\"scheduleID\":\"daily\","
                + "\"date\":\"2026-03-02\",\"somethingNew\":42,\"payload\":{}}");

        assertThat(response.get("action").asText()).isEqualTo(OrchestratorAction.CHECK_EXCLUSION.wireName());
        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("reason").asText()).isEmpty();
    }

    @Test
    void actionNamesAreCaseInsensitiveAndEchoedInTheirCanonicalSpelling() {
        f.register("");
        JsonNode response = f.call(f.request("CHECKEXCLUSION"));

        assertThat(response.get("action").asText()).isEqualTo(OrchestratorAction.CHECK_EXCLUSION.wireName());
        assertThat(response.get("result").asText()).isEqualTo("proceed");
    }

    @Test
    void missingPipelineIdIsAnErrorWithTheActionsSafePayload() {
        var request = f.request(OrchestratorAction.CHECK_VALIDATION_DEADLINE);
        request.remove("pipelineId");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("pipelineId is required for checkValidationDeadline");
        assertThat(response.get("payload").get("exhausted").asBoolean()).isTrue();
        assertThat(response.get("payload").get("deadline").asText()).isEmpty();
    }

    @Test
    void aRequestWithoutADateMeansTodayInTheSchedulesZoneNotInUtc() {
        // At T0 (10:00 UTC on 2 March) it is already 00:00 on 3 March at UTC+14; that date (a Tuesday) is excluded.
        f.register("schedules: [{name: daily, timezone: Pacific/Kiritimati}]\nexclusions:\n  days: [Tuesday]\n");
        var request = f.request(OrchestratorAction.CHECK_EXCLUSION);
        request.remove("date");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("reason").asText()).isEqualTo("excluded day (excluded: tuesday)");
    }

    @Test
    void anInvalidDateIsAnErrorNamingTheField() {
        var request = f.request(OrchestratorAction.CHECK_RUN_LOG);
        request.put("date", "02/03/2026");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("date must be YYYY-MM-DD, got '02/03/2026'");
        assertThat(response.get("payload").get("attemptNumber").asInt()).isZero();
    }

    @Test
    void anIdThatCannotBePartOfAKeyIsAnErrorResult() {
        var request = f.request(OrchestratorAction.ACQUIRE_LOCK);
        request.put("scheduleId", "daily#2");

        JsonNode response = f.call(request);

        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("reason").asText()).isEqualTo("scheduleId must not contain '#': daily#2");
        assertThat(response.get("payload").get("acquired").asBoolean()).isFalse();
    }

    @Test
    void everyAnswerIsLoggedAsAJsonLineWithItsContext() {
        f.register("");
        var request = f.request(OrchestratorAction.CHECK_EXCLUSION);
        request.put("runId", "run-1");

        f.call(request);

        String line = f.logText()
                .lines()
                .filter(l -> l.contains("\"action answered\""))
                .findFirst()
                .orElseThrow();
        JsonNode json = dev.interlock.model.json.InterlockJson.tree(line);
        assertThat(json.get("pipelineId").asText()).isEqualTo("orders");
        assertThat(json.get("scheduleId").asText()).isEqualTo("daily");
        assertThat(json.get("date").asText()).isEqualTo("2026-03-02");
        assertThat(json.get("runId").asText()).isEqualTo("run-1");
        assertThat(json.get("executionName").asText()).isEqualTo(Fixture.EXECUTION);
        assertThat(json.get("action").asText()).isEqualTo(OrchestratorAction.CHECK_EXCLUSION.wireName());
        assertThat(json.get("result").asText()).isEqualTo("proceed");
    }
}
