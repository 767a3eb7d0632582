package dev.interlock.wiring.alert;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.alert.Mute;
import dev.interlock.model.alert.MuteScope;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.store.MuteStore;
import dev.interlock.store.StoreException;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every function's alert path: routed to its owner and team, muted when a mute covers it, dry runs shadowed. */
class RoutedAlertsTest {

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T10:00:00Z"));
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final List<Alert> published = new ArrayList<>();
    private final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    private final StructuredLog log =
            new StructuredLog("test", new PrintStream(logs, true, StandardCharsets.UTF_8), clock);

    private RoutedAlerts alerts(MuteStore mutes) {
        return new RoutedAlerts(published::add, provider::pipelines, () -> mutes, provider::events, log);
    }

    private void register(String name, String extra) {
        provider.pipelines().put(InterlockJson.read("""
                        {"name":"%s","archetype":"batch-ingestion","trigger":{"type":"http","url":"https://jobs.example.com"}%s}""".formatted(name, extra), PipelineConfig.class));
    }

    private Alert alert(String pipeline, Instant at) {
        return new Alert(
                AlertLevel.ERROR,
                AlertKind.SLA_MISSED,
                pipeline,
                "daily",
                LocalDate.parse("2026-03-02"),
                "late",
                null,
                at);
    }

    private Mute mute(MuteScope scope, String target, Instant from, Instant until) {
        return new Mute(scope, target, from, until, "maintenance", "ops", from);
    }

    private List<Event> events(String pipeline, EventKind kind) {
        return provider.events().latest(pipeline, 100).stream()
                .filter(e -> e.kind() == kind)
                .toList();
    }

    @Test
    void anAlertCarriesItsPipelinesOwnerTeamLabelsAndRunbook() {
        register(
                "silver",
                ",\"owner\":\"ana\",\"team\":\"data-platform\",\"labels\":{\"tier\":\"gold\"},"
                        + "\"runbook\":\"https://wiki.example.com/silver\"");
        alerts(provider.mutes()).publish(alert("silver", clock.instant()));

        assertThat(published).singleElement().satisfies(a -> {
            assertThat(a.owner()).isEqualTo("ana");
            assertThat(a.team()).isEqualTo("data-platform");
            assertThat(a.labels()).containsEntry("tier", "gold");
            assertThat(a.runbook()).isEqualTo("https://wiki.example.com/silver");
        });
    }

    @Test
    void aTeamMuteActiveAtTheAlertsTimeRecordsItInsteadOfPublishingAndOnlyInsideItsWindow() {
        register("silver", ",\"team\":\"data-platform\"");
        register("gold", ",\"team\":\"marketing\"");
        Instant now = clock.instant();
        provider.mutes().put(mute(MuteScope.TEAM, "data-platform", now, now.plus(Duration.ofHours(2))));
        RoutedAlerts routed = alerts(provider.mutes());

        routed.publish(alert("silver", now.plusSeconds(60)));
        routed.publish(alert("gold", now.plusSeconds(60)));
        routed.publish(alert("silver", now.plus(Duration.ofHours(2))));

        assertThat(published)
                .extracting(Alert::pipelineId, Alert::timestamp)
                .as("the other team's alert, and one raised when the mute has ended")
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("gold", now.plusSeconds(60)),
                        org.assertj.core.groups.Tuple.tuple("silver", now.plus(Duration.ofHours(2))));
        assertThat(events("silver", EventKind.ALERT_MUTED)).singleElement().satisfies(e -> {
            assertThat(e.status()).isEqualTo("SLA_MISSED");
            assertThat(e.date()).isEqualTo(LocalDate.parse("2026-03-02"));
            assertThat(e.message()).contains("not sent", "team data-platform", "maintenance");
            assertThat(e.details()).containsEntry("alertMessage", "late");
        });
    }

    @Test
    void aPlannedMuteSilencesNothingBeforeItStartsAndAPipelineMuteOnlyItsPipeline() {
        register("silver", "");
        register("bronze", "");
        Instant now = clock.instant();
        provider.mutes()
                .put(mute(MuteScope.PIPELINE, "silver", now.plus(Duration.ofHours(1)), now.plus(Duration.ofHours(3))));
        RoutedAlerts routed = alerts(provider.mutes());

        routed.publish(alert("silver", now));
        routed.publish(alert("bronze", now.plus(Duration.ofHours(2))));
        routed.publish(alert("silver", now.plus(Duration.ofHours(2))));

        assertThat(published).extracting(Alert::pipelineId).containsExactly("silver", "bronze");
        assertThat(events("silver", EventKind.ALERT_MUTED)).hasSize(1);
    }

    @Test
    void unreadableMutesPublishTheAlertRatherThanLoseIt() {
        register("silver", ",\"team\":\"data-platform\"");
        MuteStore broken = new MuteStore() {
            @Override
            public void put(Mute mute) {}

            @Override
            public java.util.Optional<Mute> get(MuteScope scope, String target) {
                throw new StoreException("table unavailable");
            }

            @Override
            public List<Mute> covering(String pipelineId, String team) {
                throw new StoreException("table unavailable");
            }

            @Override
            public java.util.Optional<Mute> delete(MuteScope scope, String target) {
                return java.util.Optional.empty();
            }

            @Override
            public List<Mute> list() {
                return List.of();
            }
        };
        alerts(broken).publish(alert("silver", clock.instant()));

        assertThat(published)
                .singleElement()
                .satisfies(a -> assertThat(a.team()).isEqualTo("data-platform"));
        assertThat(logs.toString(StandardCharsets.UTF_8)).contains("could not read its mutes");
    }

    @Test
    void aDryRunPipelinesAlertIsItsShadowEventEvenWhenMuted() {
        register("shadow", ",\"dryRun\":true,\"team\":\"data-platform\"");
        provider.mutes()
                .put(mute(
                        MuteScope.TEAM,
                        "data-platform",
                        clock.instant(),
                        clock.instant().plusSeconds(3600)));
        alerts(provider.mutes()).publish(alert("shadow", clock.instant()));

        assertThat(published).isEmpty();
        assertThat(events("shadow", EventKind.DRY_RUN_SLA_MISSED)).hasSize(1);
        assertThat(events("shadow", EventKind.ALERT_MUTED)).isEmpty();
    }
}
