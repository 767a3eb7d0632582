package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.runtime.ExecutionEndRule;
import dev.interlock.store.LockHolder;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code executionEnded}: what the rule on Interlock's own executions does with an end that skipped the release. */
class ExecutionEndedTest {

    private static final String ARN = "arn:aws:states:us-east-1:123456789012:stateMachine:interlock";

    private final Fixture f = new Fixture();
    private final LockKey key = new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);

    /** The event EventBridge renders for an execution of Interlock's machine that ended with {@code status}. */
    private JsonNode ended(String name, String status, String input) {
        Map<String, Object> detail = new LinkedHashMap<>();
        detail.put("executionArn", ARN.replace(":stateMachine:", ":execution:") + ":" + name);
        detail.put("stateMachineArn", ARN);
        detail.put("name", name);
        detail.put("status", status);
        detail.put("startDate", Fixture.T0.toEpochMilli());
        detail.put("input", input);
        detail.put("error", status.equals("ABORTED") ? null : "States.Timeout");
        detail.put("cause", status.equals("ABORTED") ? "stopped by the on-call engineer" : null);
        Map<String, Object> request = ExecutionEndRule.TARGET.eventInvocation(
                ExecutionEndRule.SOURCE, ExecutionEndRule.DETAIL_TYPE, Fixture.T0.toString(), detail);
        return f.call(new LinkedHashMap<>(request));
    }

    private JsonNode ended(String name, String status) {
        return ended(
                name,
                status,
                "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\",\"date\":\"2026-03-02\",\"markerSource\":\"manual\"}");
    }

    private String holder() {
        return f.provider.locks().holder(key).map(LockHolder::owner).orElse(null);
    }

    @Test
    void anAbortedHoldersLockIsReleasedAuditedAndItsAbsorbedWorkHandedOnWithoutAlert() {
        f.provider.locks().acquire(key, "exec-a", Duration.ofHours(5));
        f.provider.locks().recordAbsorbed(key, "exec-a");

        JsonNode response = ended("exec-a", "ABORTED");

        assertThat(response.path("result").asText()).isEqualTo("proceed");
        assertThat(response.path("payload").path("released").asBoolean()).isTrue();
        assertThat(holder()).isNull();
        assertThat(f.events(EventKind.LOCK_RELEASED)).singleElement().satisfies(e -> {
            assertThat(e.details())
                    .containsEntry("previousHolder", "exec-a")
                    .containsEntry("releasedBy", ExecutionEnded.RELEASED_BY)
                    .containsEntry("executionStatus", "ABORTED")
                    .containsEntry("reason", "execution ABORTED (stopped by the on-call engineer)");
        });
        String successor = response.path("payload").path("reEmittedExecution").asText();
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE))
                .singleElement()
                .satisfies(m -> {
                    assertThat(m.source()).isEqualTo(MarkerSource.DEFERRED);
                    assertThat(m.executionName()).isEqualTo(successor);
                });
        assertThat(f.alerts.sent).as("an abort is the operator's own act").isEmpty();
    }

    @Test
    void aTimedOutHoldersLockIsReleasedAndAlertedOnceAndARedeliveryChangesNothing() {
        f.provider.locks().acquire(key, "exec-a", Duration.ofHours(5));

        JsonNode first = ended("exec-a", "TIMED_OUT");
        JsonNode again = ended("exec-a", "TIMED_OUT");

        assertThat(first.path("payload").path("released").asBoolean()).isTrue();
        assertThat(first.path("payload").path("reEmittedExecution").isNull()
                        || first.path("payload").path("reEmittedExecution").isMissingNode())
                .as("it had absorbed nothing")
                .isTrue();
        assertThat(again.path("result").asText()).isEqualTo("skip");
        assertThat(again.path("payload").path("released").asBoolean()).isFalse();
        assertThat(f.events(EventKind.LOCK_RELEASED)).hasSize(1);
        assertThat(f.alerts.of(AlertKind.EXECUTION_ERROR))
                .singleElement()
                .satisfies(a -> assertThat(a.message()).contains("TIMED_OUT"));
        assertThat(f.provider.cascade().markers("orders", Fixture.DATE)).isEmpty();
    }

    @Test
    void aLockHeldByAnotherExecutionIsNeverTouched() {
        f.provider.locks().acquire(key, "exec-b", Duration.ofHours(5));

        JsonNode response = ended("exec-a", "FAILED");

        assertThat(response.path("result").asText()).isEqualTo("skip");
        assertThat(response.path("reason").asText()).contains("no longer holds");
        assertThat(holder()).isEqualTo("exec-b");
        assertThat(f.events(EventKind.LOCK_RELEASED)).isEmpty();
        assertThat(f.alerts.sent).isEmpty();
    }

    @Test
    void theLockIsFoundWithTheMachinesDefaultsWhenTheInputLeavesThemOut() {
        f.provider.locks().acquire(key, "exec-a", Duration.ofHours(5));

        JsonNode response = ended("exec-a", "ABORTED", "{\"pipelineId\":\"orders\"}");

        assertThat(response.path("payload").path("released").asBoolean())
                .as("schedule daily and the UTC date of the start, as InitDefaults")
                .isTrue();
        assertThat(holder()).isNull();
    }

    @Test
    void endsThatReleaseThemselvesOrNameNoPipelineAreSkippedWithTheirReason() {
        f.provider.locks().acquire(key, "exec-a", Duration.ofHours(5));

        JsonNode succeeded = ended("exec-a", "SUCCEEDED");
        JsonNode noPipeline = ended("exec-a", "ABORTED", "{}");
        JsonNode notJson = ended("exec-a", "ABORTED", "not json");

        assertThat(succeeded.path("result").asText()).isEqualTo("skip");
        assertThat(succeeded.path("reason").asText()).contains("SUCCEEDED");
        assertThat(noPipeline.path("reason").asText()).contains("names no pipeline");
        assertThat(notJson.path("reason").asText()).contains("names no pipeline");
        assertThat(holder()).isEqualTo("exec-a");
    }

    @Test
    void anEventOfAnotherKindIsAnErrorNamingTheField() {
        Map<String, Object> request = ExecutionEndRule.TARGET.eventInvocation(
                "aws.glue", "Glue Job State Change", Fixture.T0.toString(), Map.of("name", "x", "status", "FAILED"));

        JsonNode response = f.call(InterlockJson.write(request));

        assertThat(response.path("result").asText()).isEqualTo("error");
        assertThat(response.path("reason").asText()).contains("payload.source");
    }
}
