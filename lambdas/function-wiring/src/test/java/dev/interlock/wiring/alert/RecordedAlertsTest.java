package dev.interlock.wiring.alert;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.store.AlertQuery;
import dev.interlock.store.PageRequest;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.contract.StoreSamples;
import dev.interlock.store.memory.InMemoryProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The alert publisher every function uses, as {@code Deps} composes it: dry run first, then publish and record. A sent
 * alert is its day's ALERT_SENT event and listed; a repeat, a failed publish and a dry run's alert are not.
 */
class RecordedAlertsTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T09:05:00Z"));
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final StructuredLog log = new StructuredLog(
            "test", new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8), clock);
    private final List<String> published = new ArrayList<>();
    private boolean topicDown;

    private DeduplicatedAlerts alerts() {
        AlertPublisher topic = alert -> {
            if (topicDown) {
                throw new AlertPublisher.AlertDeliveryException("topic down", null);
            }
            published.add(alert.kind().wireName() + " " + alert.pipelineId());
        };
        return new DeduplicatedAlerts(
                provider.alerts(),
                new RoutedAlerts(
                        new RecordedAlerts(topic, provider::alertHistory, log),
                        provider::pipelines,
                        provider::mutes,
                        provider::events,
                        log),
                clock,
                log);
    }

    private DeduplicatedAlerts.Delivery slaMissed(String pipeline) {
        return alerts().deliver(
                        AlertKind.SLA_MISSED,
                        AlertLevel.ERROR,
                        pipeline,
                        "daily",
                        DATE,
                        pipeline + " missed its 09:00 deadline",
                        Map.of("deadline", "2026-03-01T09:00:00.000Z"),
                        LogContext.NONE);
    }

    private List<Event> events(String pipeline, EventKind kind) {
        return provider.events().read(pipeline, PageRequest.first(100)).items().stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    @Test
    void aSentAlertIsItsDaysEventAndListedOnceHoweverOftenItIsRaised() {
        assertThat(slaMissed("gold")).isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(slaMissed("gold")).isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);

        assertThat(published).containsExactly("SLA_MISSED gold");
        assertThat(events("gold", EventKind.ALERT_SENT)).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo("SLA_MISSED");
            assertThat(e.date()).isEqualTo(DATE);
            assertThat(e.message()).isEqualTo("gold missed its 09:00 deadline");
            assertThat(e.details()).containsEntry("alertLevel", "error").containsKey("deadline");
        });
        assertThat(provider.alertHistory()
                        .list(AlertQuery.ALL, PageRequest.first(10))
                        .items())
                .extracting(a -> a.kind() + " " + a.pipelineId() + " " + a.level())
                .containsExactly("SLA_MISSED gold ERROR");
    }

    @Test
    void anAlertThatWasNotPublishedIsNotRecordedAsSent() {
        topicDown = true;
        assertThat(slaMissed("gold")).isEqualTo(DeduplicatedAlerts.Delivery.FAILED);
        assertThat(events("gold", EventKind.ALERT_SENT)).isEmpty();
        assertThat(provider.alertHistory()
                        .list(AlertQuery.ALL, PageRequest.first(10))
                        .items())
                .isEmpty();
    }

    @Test
    void aDryRunPipelinesAlertIsItsDryRunEventSayingItWasNotSentAndIsNotListed() {
        ObjectNode json = (ObjectNode) InterlockJson.tree(InterlockJson.write(StoreSamples.pipeline("dry")));
        json.put("dryRun", true);
        provider.pipelines().put(InterlockJson.read(json.toString(), PipelineConfig.class));

        slaMissed("dry");

        assertThat(published).isEmpty();
        assertThat(events("dry", EventKind.ALERT_SENT)).isEmpty();
        assertThat(events("dry", EventKind.DRY_RUN_SLA_MISSED))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("dry run: would alert SLA_MISSED"));
        assertThat(provider.alertHistory()
                        .list(AlertQuery.ALL, PageRequest.first(10))
                        .items())
                .isEmpty();
    }
}
