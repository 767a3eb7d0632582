package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.store.dynamodb.RequestCounter;
import dev.interlock.testing.Documents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What the orchestrator's actions of a happy synchronous run cost in DynamoDB requests, counted by the SDK interceptor
 * on DynamoDB Local with the state machine's requests (statemachine/CONTRACT.md): a regression in the request budget
 * of an earlier version fails here, as counts, not timings. The evaluation phase (evaluators, the SLA checks, checkReadiness)
 * and the trigger (its own module's {@code TriggerRequestCountTest}) are not in these numbers.
 */
class HappyRunRequestCountTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 2);
    private static final Instant T0 = Instant.parse("2026-03-02T10:00:00Z");
    private static final String EXECUTION = "orders_2026-03-02_daily_abcd1234";
    private static final RequestCounter COUNTER = new RequestCounter();
    private static DynamoDbClient client;
    private static Provider provider;
    private static final ManualClock CLOCK = new ManualClock(T0);
    private static OrchestratorHandler handler;

    @BeforeAll
    static void table() {
        client = LocalDynamoDb.shared().client(COUNTER);
        String name = "interlock-happy-run-" + System.nanoTime();
        InterlockTable.createIfAbsent(client, name, TableDefinition.INTERLOCK);
        provider = new DynamoDbProvider(client, name, CLOCK);
        handler = new OrchestratorHandler(new Orchestrator(
                provider,
                CLOCK,
                new RecordingAlerts(),
                new OrchestratorSettings(14400, 2, 7),
                new StructuredLog(
                        "orchestrator",
                        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
                        CLOCK),
                TaskCallbacks.unavailable()));
    }

    @AfterAll
    static void close() {
        client.close();
    }

    @Test
    void theActionsOfAHappySyncRunStayWithinTheirRequestBudget() {
        String pipelineId = "orders-" + System.nanoTime();
        provider.pipelines()
                .put(Documents.read(
                        "name: " + pipelineId + "\narchetype: batch-ingestion\n"
                                + "trigger:\n  type: http\n  url: https://jobs.example.com/run\n"
                                + "schedules:\n  - {name: daily, deadline: '18:00'}\n",
                        PipelineConfig.class));

        Map<String, Long> spent = new LinkedHashMap<>();
        JsonNode exclusion = measured(spent, "checkExclusion", request(pipelineId, "checkExclusion", null, Map.of()));
        JsonNode acquired = measured(
                spent,
                "acquireLock",
                request(
                        pipelineId,
                        "acquireLock",
                        null,
                        Map.of(
                                "owner",
                                EXECUTION,
                                "executionId",
                                "arn:aws:states:us-east-1:123456789012:execution:interlock:" + EXECUTION,
                                "executionTimeoutSeconds",
                                14400,
                                "executionStartTime",
                                InterlockJson.timestamp(T0),
                                "replay",
                                false)));
        assertThat(acquired.path("result").asText()).as(acquired.toString()).isEqualTo("proceed");
        JsonNode runLog = measured(
                spent,
                "checkRunLog",
                request(pipelineId, "checkRunLog", null, Map.of("replay", false, "markerSource", "ingest")));
        JsonNode resolved = measured(
                spent,
                "resolvePipeline",
                request(
                        pipelineId,
                        "resolvePipeline",
                        null,
                        Map.of(
                                "archetype", exclusion.at("/payload/archetype").asText(),
                                "attemptNumber",
                                        runLog.at("/payload/attemptNumber").asInt())));
        // It failed once in a full build with the run unreadable right after this call (never alone): the answer
        // and the trail then say whether resolvePipeline created it.
        assertThat(resolved.path("result").asText())
                .as(() -> resolved + "; trail: "
                        + provider.events().read(pipelineId, new PageRequest(100, null)).items().stream()
                                .map(e -> e.kind() + " " + e.status() + " " + e.message())
                                .toList())
                .isEqualTo("proceed");
        String runId = resolved.at("/payload/runId").asText();
        assertThat(provider.runs().get(runId))
                .as(() -> "run " + runId + " right after resolvePipeline created it; trail: "
                        + provider.events().read(pipelineId, new PageRequest(100, null)).items().stream()
                                .map(e -> e.kind() + " " + e.status() + " " + e.message())
                                .toList())
                .isPresent();
        completeAsTheTriggerDoes(runId);
        measured(
                spent,
                "checkCompletionSLA",
                request(
                        pipelineId,
                        "checkCompletionSLA",
                        runId,
                        Map.of(
                                "deadline",
                                resolved.at("/payload/completionDeadline").asText())));
        JsonNode logged = measured(
                spent,
                "logResult",
                request(
                        pipelineId,
                        "logResult",
                        runId,
                        Map.of(
                                "replay",
                                false,
                                "status",
                                "COMPLETED",
                                "triggerMetadata",
                                Map.of(),
                                "triggerStatus",
                                "completed",
                                "postRunChecks",
                                false,
                                "completionDeadline",
                                resolved.at("/payload/completionDeadline").asText())));
        measured(spent, "notifyDownstream", request(pipelineId, "notifyDownstream", runId, Map.of()));
        measured(
                spent,
                "releaseLock",
                request(pipelineId, "releaseLock", null, Map.of("replay", false, "owner", EXECUTION)));

        assertThat(exclusion.at("/payload/archetype").asText()).isEqualTo("batch-ingestion");
        assertThat(resolved.at("/result").asText()).isEqualTo("proceed");
        assertThat(resolved.at("/payload/completionDeadline").asText()).isEqualTo("2026-03-02T18:00:00.000Z");
        assertThat(logged.at("/result").asText()).isEqualTo("proceed");
        assertThat(provider.runLogs()
                        .get(new RunLogKey(pipelineId, DATE, "daily"))
                        .orElseThrow()
                        .status())
                .isEqualTo(RunLogStatus.COMPLETED);
        assertThat(spent)
                .containsExactly(
                        Map.entry("checkExclusion", 1L),
                        Map.entry("acquireLock", 1L),
                        Map.entry("checkRunLog", 1L),
                        // pipeline + archetype, the day's unfinished runs, run + due entry + event
                        Map.entry("resolvePipeline", 3L),
                        Map.entry("checkCompletionSLA", 0L),
                        // run read (the day completed is recorded on the run: its end in OpenLineage), run log
                        // read, run + run log + event
                        Map.entry("logResult", 3L),
                        Map.entry("notifyDownstream", 1L),
                        Map.entry("releaseLock", 1L));
        // The run's creation event and its completion event were written (merged into the writes counted above).
        assertThat(provider.events().latest(pipelineId, 50).stream()
                        .map(e -> e.status())
                        .toList())
                .contains(RunStatus.PENDING.wireName(), RunStatus.COMPLETED.wireName());
    }

    /** The trigger's two writes for a synchronous job, outside the count (the trigger module counts its own). */
    private static void completeAsTheTriggerDoes(String runId) {
        RunState pending = provider.runs().get(runId).orElseThrow();
        RunState triggering = pending.moveTo(RunStatus.TRIGGERING, CLOCK.instant());
        assertThat(provider.recordTransition(RunTransition.of(pending.version(), triggering))
                        .applied())
                .isTrue();
        RunState completed = triggering.moveTo(RunStatus.COMPLETED, CLOCK.instant());
        assertThat(provider.recordTransition(RunTransition.of(triggering.version(), completed))
                        .applied())
                .isTrue();
    }

    private static JsonNode measured(Map<String, Long> spent, String action, Map<String, Object> request) {
        long before = total();
        JsonNode answer = call(request);
        spent.put(action, total() - before);
        assertThat(answer.at("/result").asText())
                .as(action + " answered " + answer)
                .isNotEqualTo("error");
        return answer;
    }

    private static long total() {
        return COUNTER.snapshot().values().stream()
                .mapToLong(RequestCounter.Count::requests)
                .sum();
    }

    private static Map<String, Object> request(String pipelineId, String action, String runId, Map<String, ?> payload) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("action", action);
        r.put("pipelineId", pipelineId);
        r.put("scheduleId", "daily");
        r.put("date", DATE.toString());
        if (runId != null) {
            r.put("runId", runId);
        }
        r.put("executionName", EXECUTION);
        r.put("payload", payload);
        return r;
    }

    private static JsonNode call(Map<String, Object> request) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            handler.handleRequest(
                    new ByteArrayInputStream(InterlockJson.write(request).getBytes(StandardCharsets.UTF_8)), out, null);
            return InterlockJson.json().readTree(out.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
