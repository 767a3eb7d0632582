package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.testing.Documents;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PlanRetryTest {

    private final Fixture f = new Fixture();
    private final LockKey key = new LockKey("orders", "daily", Fixture.DATE);

    private JsonNode plan(boolean retryable, long backoff, Instant executionStart, boolean replay) {
        Map<String, Object> payload = new LinkedHashMap<>();
        payload.put("retryable", retryable);
        payload.put("retryBackoffSeconds", backoff);
        payload.put("executionStartTime", InterlockJson.timestamp(executionStart));
        payload.put("executionTimeoutSeconds", 14400);
        payload.put("replay", replay);
        return f.call(f.request(OrchestratorAction.PLAN_RETRY, "run-1", payload));
    }

    @Test
    void aRetryThatFitsTheBudgetWaitsInThisExecutionAndTheHolderCountsAsEvaluatingAgain() {
        f.register("");
        f.provider.locks().acquire(key, Fixture.EXECUTION, Duration.ofHours(5));

        JsonNode response = plan(true, 600, Fixture.T0, false);

        assertThat(response.get("result").asText()).isEqualTo("proceed");
        assertThat(response.get("payload").get("retryInExecution").asBoolean()).isTrue();
        assertThat(response.get("payload").get("handedOver").asBoolean()).isFalse();
        assertThat(response.get("payload").get("successorExecution").asText()).isEmpty();
        var holder = f.provider.locks().holder(key).orElseThrow();
        assertThat(holder.nextRoundBy()).isEqualTo(Fixture.T0.plusSeconds(600 + 300));
        assertThat(holder.evaluatesAgainAfter(Fixture.T0.plusSeconds(300)))
                .as("a marker during the backoff is absorbed")
                .isTrue();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).isEmpty();
    }

    @Test
    void aRetryWhoseBackoffOutlastsTheBudgetIsHandedToASuccessorThatKeepsTheReplay() {
        // An async job: the retry must still trigger with its whole maximum duration (2 h) ahead of it.
        f.provider.pipelines().put(Documents.read("""
                name: orders
                archetype: batch-ingestion
                trigger: {type: airflow, url: "https://airflow.example.com", dagId: orders}
                """, dev.interlock.model.pipeline.PipelineConfig.class));
        Instant start = Fixture.T0.minusSeconds(3600);
        // latest trigger = start + 14400 − 900 − (7200 + 2 × 30) = start + 6240 s = T0 + 2640 s

        JsonNode fits = plan(true, 2640, start, true);
        JsonNode tooLate = plan(true, 2641, start, true);

        assertThat(fits.get("payload").get("retryInExecution").asBoolean()).isTrue();
        assertThat(tooLate.get("result").asText()).isEqualTo("proceed");
        assertThat(tooLate.get("payload").get("retryInExecution").asBoolean()).isFalse();
        assertThat(tooLate.get("payload").get("handedOver").asBoolean()).isTrue();
        Marker marker = f.provider.cascade().markers("orders", Fixture.DATE).getFirst();
        assertThat(marker.source()).isEqualTo(MarkerSource.RETRY);
        assertThat(marker.replay()).isTrue();
        assertThat(tooLate.get("payload").get("successorExecution").asText()).isEqualTo(marker.executionName());
        assertThat(f.events(EventKind.EXECUTION_HANDED_OVER))
                .singleElement()
                .satisfies(e -> assertThat(e.details()).containsEntry("successorExecution", marker.executionName()));

        plan(true, 2641, start, true);
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .as("a repeated call writes one marker")
                .hasSize(1);
    }

    @Test
    void aFailureThatIsNotRetryableIsASkip() {
        f.register("");

        JsonNode response = plan(false, 0, Fixture.T0, false);

        assertThat(response.get("result").asText()).isEqualTo("skip");
        assertThat(response.get("payload").get("retryInExecution").asBoolean()).isFalse();
        assertThat(response.get("payload").get("handedOver").asBoolean()).isFalse();
    }

    @Test
    void withoutAPipelineOrAStartTimeItIsAnError() {
        assertThat(plan(true, 30, Fixture.T0, false).get("result").asText()).isEqualTo("error");
        f.register("");
        JsonNode response = f.call(f.request(
                OrchestratorAction.PLAN_RETRY, "run-1", Map.of("retryable", true, "retryBackoffSeconds", 30)));
        assertThat(response.get("result").asText()).isEqualTo("error");
        assertThat(response.get("payload").get("retryInExecution").asBoolean()).isFalse();
    }
}
