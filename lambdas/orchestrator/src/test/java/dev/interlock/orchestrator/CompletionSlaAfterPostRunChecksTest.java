package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The completion SLA is judged on the time the day is really COMPLETED — after its post-run checks passed
 * (docs/post-run-checks.md) — and a day whose checks failed records no SLA met. The machine calls
 * {@code checkCompletionSLA} before {@code logCompleted}, exactly as these tests do.
 */
class CompletionSlaAfterPostRunChecksTest {

    private static final String DEADLINE = "2026-03-02T10:30:00.000Z";
    private static final String PIPELINE = """
            schedules:
              - {name: daily, deadline: '10:30', timezone: UTC}
            postRun:
              - name: rows-written
                evaluator: "builtin:sensor-threshold"
                config: {sensor: orders-rows, field: rows, op: gt, value: 0}
            """;

    private final Fixture f = new Fixture();

    /** What the machine does after the job succeeded: checkCompletionSLA, then logCompleted. */
    private JsonNode completeAsTheMachineDoes(String runId) {
        f.call(f.request(OrchestratorAction.CHECK_COMPLETION_SLA, runId, Map.of("deadline", DEADLINE)));
        return f.call(f.request(
                OrchestratorAction.LOG_RESULT,
                runId,
                Map.of("status", "COMPLETED", "postRunChecks", true, "completionDeadline", DEADLINE)));
    }

    @Test
    void aSlowPostRunCheckThatPushesTheCompletionPastTheDeadlineIsAnSlaMiss() {
        f.register(PIPELINE);
        String runId = f.succeededRun(); // 10:00, half an hour before the deadline
        f.postRunAnswer = check -> {
            f.clock.set(Instant.parse("2026-03-02T10:45:00Z")); // the check takes until 10:45
            return new TraitVerdict(check.traitType(), TraitStatus.PASS, null, null, null, check.required());
        };

        JsonNode logged = completeAsTheMachineDoes(runId);

        assertThat(logged.at("/payload/status").asText()).isEqualTo("COMPLETED");
        assertThat(logged.at("/payload/loggedAt").asText()).isEqualTo("2026-03-02T10:45:00.000Z");
        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED))
                .as("the day was COMPLETED at 10:45, after its 10:30 deadline")
                .hasSize(1);
        assertThat(f.events(EventKind.SLA_BREACHED)).hasSize(1);
        assertThat(metric("SlaMissed")).containsExactly(1.0);
        assertThat(metric("SlaMargin")).containsExactly(-900.0);
    }

    @Test
    void aCompletionBeforeTheDeadlineIsAnSlaMetJudgedWhenTheDayCompleted() {
        f.register(PIPELINE);
        String runId = f.succeededRun();
        f.postRunAnswer = check -> {
            f.clock.set(Instant.parse("2026-03-02T10:20:00Z"));
            return new TraitVerdict(check.traitType(), TraitStatus.PASS, null, null, null, check.required());
        };

        completeAsTheMachineDoes(runId);

        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED)).isEmpty();
        assertThat(metric("SlaMissed")).containsExactly(0.0);
        assertThat(metric("SlaMargin")).containsExactly(600.0);
        // A repeated logResult (a Step Functions retry, a little later) publishes nothing twice.
        f.clock.set(Instant.parse("2026-03-02T10:25:00Z"));
        completeAsTheMachineDoes(runId);
        assertThat(metric("SlaMissed")).containsExactly(0.0);
    }

    @Test
    void aDayWhosePostRunCheckFailedRecordsNoSlaMet() {
        f.register(PIPELINE);
        String runId = f.succeededRun();
        f.postRunAnswer =
                check -> new TraitVerdict(check.traitType(), TraitStatus.FAIL, null, "0 rows", null, check.required());

        JsonNode logged = completeAsTheMachineDoes(runId);

        assertThat(logged.at("/payload/status").asText()).isEqualTo("FAILED");
        assertThat(metric("SlaMissed"))
                .as("no SLA met (nor missed) for a day that did not complete")
                .isEmpty();
        assertThat(metric("SlaMargin")).isEmpty();
        assertThat(f.alerts.of(AlertKind.SLA_COMPLETION_BREACHED)).isEmpty();
    }

    /** The values of one EMF metric the orchestrator printed, in order. */
    private List<Double> metric(String name) {
        List<Double> values = new ArrayList<>();
        ObjectMapper json = new ObjectMapper();
        for (String line : f.logText().split("\n")) {
            if (!line.contains("\"_aws\"")) {
                continue;
            }
            try {
                JsonNode node = json.readTree(line);
                if (node.has(name)) {
                    values.add(node.get(name).asDouble());
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return values;
    }
}
