package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.lineage.LineageEventType;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClientUtils;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class LineageEmitterTest {

    private static final Instant T0 = Instant.parse("2026-03-03T12:00:00Z");
    private static final String RUN_ID = "3f2b9c2e-8a41-3d0b-9c55-2f6a7e1d4b10";

    private final List<OpenLineage.RunEvent> sent = new ArrayList<>();
    private final List<Event> trail = new ArrayList<>();

    private static RunState run(RunStatus status, Instant at, String failure) {
        return new RunState(
                RUN_ID,
                "gold",
                "daily",
                LocalDate.of(2026, 3, 3),
                status,
                1,
                TriggerType.GLUE,
                "gold-exec",
                Map.of(),
                failure,
                failure == null ? null : FailureCategory.PERMANENT,
                T0,
                at);
    }

    private LineageEmitter emitter(LineageEmitter.Sink sink) {
        return new LineageEmitter(
                sink,
                "prod",
                Clock.fixed(T0, ZoneOffset.UTC),
                StructuredLog.forName("test"),
                p -> Optional.empty(),
                k -> Optional.empty(),
                e -> trail.add(e));
    }

    private static JsonNode json(OpenLineage.RunEvent event) {
        return InterlockJson.tree(OpenLineageClientUtils.toJson(event));
    }

    @Test
    void aStartedJobIsAStartUnderTheNamespaceThePipelineAndTheRunId() {
        emitter(sent::add).emit(new RunChange(run(RunStatus.TRIGGERING, T0, null), run(RunStatus.RUNNING, T0, null)));

        assertThat(sent).hasSize(1);
        JsonNode event = json(sent.getFirst());
        assertThat(event.path("eventType").asText()).isEqualTo("START");
        assertThat(event.path("job").path("namespace").asText()).isEqualTo("prod");
        assertThat(event.path("job").path("name").asText()).isEqualTo("gold");
        assertThat(event.path("run").path("runId").asText()).isEqualTo(RUN_ID);
        assertThat(event.path("eventTime").asText()).startsWith("2026-03-03T12:00");
        JsonNode readiness = event.path("run").path("facets").path("interlock_readiness");
        assertThat(readiness.path("verdict").asText()).isEqualTo("READY");
        assertThat(readiness.path("_producer").asText()).startsWith("urn:dev.interlock:interlock-java:");
        assertThat(readiness.path("_schemaURL").asText()).isEqualTo(LineageEvents.READINESS_SCHEMA.toString());
    }

    @Test
    void aJobThatSucceededIsCompleteOnlyWhenItsDayIsRecordedAndDatedThen() {
        Instant jobEnded = T0.plusSeconds(600);
        Instant dayRecorded = T0.plusSeconds(660); // after the post-run checks passed
        RunState succeeded = run(RunStatus.COMPLETED, jobEnded, null);
        LineageEmitter emitter = emitter(sent::add);

        emitter.emit(new RunChange(run(RunStatus.RUNNING, T0, null), succeeded));
        assertThat(sent).as("the job system's success alone is no completion").isEmpty();

        emitter.emit(new RunChange(succeeded, succeeded.dayCompleted(dayRecorded)));
        assertThat(sent).singleElement().satisfies(event -> {
            JsonNode json = json(event);
            assertThat(json.path("eventType").asText()).isEqualTo("COMPLETE");
            assertThat(Instant.parse(json.path("eventTime").asText())).isEqualTo(dayRecorded);
        });
    }

    @Test
    void aJobThatSucceededLateIsCompleteWithoutTheFailureItHad() {
        RunState failed = run(RunStatus.FAILED, T0.plusSeconds(600), "gave up");
        emitter(sent::add).emit(new RunChange(failed, failed.completedLate(T0.plusSeconds(900))));

        assertThat(sent).singleElement().satisfies(event -> {
            JsonNode json = json(event);
            assertThat(json.path("eventType").asText()).isEqualTo("COMPLETE");
            JsonNode readiness = json.path("run").path("facets").path("interlock_readiness");
            assertThat(readiness.path("status").asText()).isEqualTo("COMPLETED");
            assertThat(readiness.has("failureCategory")).isFalse();
            assertThat(json.path("run").path("facets").has("errorMessage")).isFalse();
        });
    }

    @Test
    void aFailedRunIsAFailWithItsMessageAndTheSameChangeTwiceGivesTheSameEvent() {
        Instant end = T0.plusSeconds(600);
        RunChange change = new RunChange(run(RunStatus.RUNNING, T0, null), run(RunStatus.FAILED, end, "boom"));
        LineageEmitter emitter = emitter(sent::add);
        emitter.emit(change);
        emitter.emit(change);

        assertThat(sent).hasSize(2);
        JsonNode first = json(sent.get(0));
        assertThat(first.path("eventType").asText()).isEqualTo("FAIL");
        assertThat(first.path("run")
                        .path("facets")
                        .path("errorMessage")
                        .path("message")
                        .asText())
                .isEqualTo("boom");
        assertThat(first.path("run")
                        .path("facets")
                        .path("interlock_readiness")
                        .path("failureCategory")
                        .asText())
                .isEqualTo("PERMANENT");
        assertThat(json(sent.get(1)))
                .as("a redelivered change repeats the event")
                .isEqualTo(first);
    }

    @Test
    void anEventThatCannotBeSentLeavesAnEventWithItsReasonAndNeverThrows() {
        List<LineageEventType> result = emitter(event -> {
                    throw new IllegalStateException("connection refused");
                })
                .emit(new RunChange(
                        run(RunStatus.TRIGGERING, T0, null),
                        run(RunStatus.TRIGGERING, T0, null).dayCompleted(T0)));

        assertThat(result).isEmpty();
        assertThat(trail)
                .extracting(Event::kind, Event::status)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple(EventKind.LINEAGE_NOT_SENT, "START"),
                        org.assertj.core.groups.Tuple.tuple(EventKind.LINEAGE_NOT_SENT, "COMPLETE"));
        assertThat(trail.getFirst().message()).contains("connection refused");
        assertThat(trail.getFirst().runId()).isEqualTo(RUN_ID);
    }

    @Test
    void aRunIdThatIsNoUuidGetsAStableOne() {
        assertThat(LineageEvents.runUuid("rerun-7")).isEqualTo(LineageEvents.runUuid("rerun-7"));
        assertThat(LineageEvents.runUuid(RUN_ID).toString()).isEqualTo(RUN_ID);
    }
}
