package dev.interlock.streamrouter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.json.InterlockJson;
import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClientUtils;
import java.net.URI;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequest;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

class EventBridgeSinkTest {

    /** An EventBridge that answers each PutEvents with the next scripted entry result and keeps the requests. */
    private static final class ScriptedBus implements EventBridgeClient {
        final List<PutEventsRequest> requests = new ArrayList<>();
        final Deque<PutEventsResultEntry> answers = new ArrayDeque<>();

        @Override
        public PutEventsResponse putEvents(PutEventsRequest request) {
            requests.add(request);
            PutEventsResultEntry answer = answers.isEmpty()
                    ? PutEventsResultEntry.builder()
                            .eventId("e-" + requests.size())
                            .build()
                    : answers.removeFirst();
            return PutEventsResponse.builder()
                    .failedEntryCount(answer.errorCode() == null ? 0 : 1)
                    .entries(answer)
                    .build();
        }

        @Override
        public String serviceName() {
            return "events";
        }

        @Override
        public void close() {}
    }

    private final ScriptedBus bus = new ScriptedBus();
    private final List<Duration> pauses = new ArrayList<>();
    private final EventBridgeSink sink = new EventBridgeSink(() -> bus, "interlock-lineage", pauses::add);

    private static OpenLineage.RunEvent event() {
        OpenLineage ol = new OpenLineage(URI.create("urn:test"));
        return ol.newRunEventBuilder()
                .eventType(OpenLineage.RunEvent.EventType.START)
                .eventTime(ZonedDateTime.parse("2026-03-03T12:00:00Z"))
                .run(ol.newRun(UUID.fromString("3f2b9c2e-8a41-3d0b-9c55-2f6a7e1d4b10"), null))
                .job(ol.newJob("prod", "gold", null))
                .build();
    }

    private static PutEventsResultEntry refused(String code) {
        return PutEventsResultEntry.builder()
                .errorCode(code)
                .errorMessage(code + " happened")
                .build();
    }

    @Test
    void eachEventIsOneEntryOnTheBusWithTheRunEventAsItsDetail() {
        OpenLineage.RunEvent event = event();
        sink.send(event);

        assertThat(bus.requests).hasSize(1);
        assertThat(bus.requests.getFirst().entries()).singleElement().satisfies(entry -> {
            assertThat(entry.eventBusName()).isEqualTo("interlock-lineage");
            assertThat(entry.source()).isEqualTo("interlock.openlineage");
            assertThat(entry.detailType()).isEqualTo("OpenLineage RunEvent");
            assertThat(entry.detail()).isEqualTo(OpenLineageClientUtils.toJson(event));
            assertThat(InterlockJson.tree(entry.detail()).path("eventType").asText())
                    .isEqualTo("START");
            assertThat(entry.time()).isEqualTo(java.time.Instant.parse("2026-03-03T12:00:00Z"));
        });
        assertThat(pauses).isEmpty();
    }

    @Test
    void aThrottledEntryWasNotPutSoItIsTriedAgain() {
        bus.answers.add(refused("ThrottlingException"));
        sink.send(event());

        assertThat(bus.requests).hasSize(2);
        assertThat(pauses).hasSize(1);
    }

    @Test
    void anEntryRefusedForGoodIsNotRetriedAndTheFailureSaysWhy() {
        bus.answers.add(refused("AccessDeniedException"));

        assertThatThrownBy(() -> sink.send(event()))
                .hasMessageContaining("interlock-lineage")
                .hasMessageContaining("AccessDeniedException")
                .hasMessageContaining("AccessDeniedException happened");
        assertThat(bus.requests).hasSize(1);
    }

    @Test
    void anEntryStillThrottledAfterItsAttemptsFails() {
        for (int i = 0; i < 3; i++) {
            bus.answers.add(refused("InternalFailure"));
        }

        assertThatThrownBy(() -> sink.send(event())).hasMessageEndingWith("InternalFailure happened (3 attempts)");
        assertThat(bus.requests).hasSize(3);
    }

    @Test
    void withBothTransportsEachIsTriedAndTheOneThatFailedIsNamed() {
        List<OpenLineage.RunEvent> http = new ArrayList<>();
        bus.answers.add(refused("ResourceNotFoundException"));
        Map<String, LineageEmitter.Sink> sinks = new LinkedHashMap<>();
        sinks.put("http http://marquez", http::add);
        sinks.put("event bus interlock-lineage", sink);

        assertThatThrownBy(() -> LineageEmitter.Sink.each(sinks).send(event()))
                .hasMessageStartingWith("to event bus interlock-lineage: ")
                .hasMessageContaining("ResourceNotFoundException");
        assertThat(http).as("the receiver got the event all the same").hasSize(1);
    }
}
