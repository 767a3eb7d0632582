package dev.interlock.wiring.alert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.store.AlertKey;
import dev.interlock.store.AlertLedger;
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
import java.util.Map;
import org.junit.jupiter.api.Test;

class DeduplicatedAlertsTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 2);

    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-02T10:00:00Z"));
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final List<Alert> published = new ArrayList<>();
    private final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    private final StructuredLog log =
            new StructuredLog("test", new PrintStream(logs, true, StandardCharsets.UTF_8), clock);
    private RuntimeException failWith;
    private Error dieWith;

    private final AlertPublisher publisher = alert -> {
        if (dieWith != null) {
            Error e = dieWith;
            dieWith = null;
            throw e;
        }
        if (failWith != null) {
            RuntimeException e = failWith;
            failWith = null;
            throw e;
        }
        published.add(alert);
    };

    private DeduplicatedAlerts alerts(AlertLedger ledger) {
        return new DeduplicatedAlerts(ledger, publisher, clock, log);
    }

    private DeduplicatedAlerts.Delivery raise(DeduplicatedAlerts alerts, String execution) {
        return alerts.deliver(
                AlertKind.RUN_FAILED,
                AlertLevel.ERROR,
                "orders",
                "daily",
                DATE,
                "it failed",
                Map.of(),
                new LogContext("orders", "daily", DATE.toString(), null, execution));
    }

    @Test
    void anAlertIsSentOncePerKindAndDayWhoeverRaisesIt() {
        DeduplicatedAlerts alerts = alerts(provider.alerts());

        assertThat(raise(alerts, "exec-a")).isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(raise(alerts, "exec-a")).isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);
        assertThat(raise(alerts, "exec-b")).isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);
        assertThat(raise(alerts, null)).isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);
        assertThat(published).hasSize(1);
    }

    @Test
    void aFailedPublishGivesTheClaimBackAtOnce() {
        DeduplicatedAlerts alerts = alerts(provider.alerts());
        failWith = new AlertPublisher.AlertDeliveryException(
                "topic unreachable (test)", new IllegalStateException("down"));

        assertThat(raise(alerts, "exec-a")).isEqualTo(DeduplicatedAlerts.Delivery.FAILED);
        assertThat(raise(alerts, "exec-b")).isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(published).hasSize(1);
    }

    @Test
    void aClaimantThatDiedBeforePublishingDelaysTheAlertByTheLeaseNotForDays() {
        DeduplicatedAlerts alerts = alerts(provider.alerts());
        dieWith = new OutOfMemoryError("the function died (test)");
        assertThatThrownBy(() -> raise(alerts, "exec-a")).isInstanceOf(OutOfMemoryError.class);

        assertThat(raise(alerts, "exec-b"))
                .as("exec-a may still be publishing")
                .isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);
        clock.advance(DeduplicatedAlerts.CLAIM_LEASE);
        assertThat(raise(alerts, "exec-b")).isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(raise(alerts, "exec-c")).isEqualTo(DeduplicatedAlerts.Delivery.DUPLICATE);
        assertThat(published).hasSize(1);
    }

    @Test
    void theRetryOfTheClaimantThatDiedSendsAtOnce() {
        DeduplicatedAlerts alerts = alerts(provider.alerts());
        dieWith = new OutOfMemoryError("the function died (test)");
        assertThatThrownBy(() -> raise(alerts, "exec-a")).isInstanceOf(OutOfMemoryError.class);

        assertThat(raise(alerts, "exec-a"))
                .as("the Task retried by the same execution")
                .isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(published).hasSize(1);
    }

    @Test
    void anUnreachableLedgerStillSendsTheAlert() {
        AlertLedger down = new AlertLedger() {
            @Override
            public boolean claim(AlertKey key, String claimant, Duration lease) {
                throw new StoreException("DynamoDB down (test)");
            }

            @Override
            public void markSent(AlertKey key, String claimant) {
                throw new StoreException("DynamoDB down (test)");
            }

            @Override
            public void release(AlertKey key, String claimant) {
                throw new StoreException("DynamoDB down (test)");
            }
        };

        assertThat(raise(alerts(down), "exec-a")).isEqualTo(DeduplicatedAlerts.Delivery.SENT);
        assertThat(published).hasSize(1);
        assertThat(logs.toString(StandardCharsets.UTF_8))
                .contains("alert ledger unreachable; publishing without deduplication");
    }
}
