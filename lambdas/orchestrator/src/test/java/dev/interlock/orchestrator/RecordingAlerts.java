package dev.interlock.orchestrator;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.wiring.alert.AlertPublisher;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** An alert publisher that keeps what it was given and can be told to fail, like an unreachable topic. */
final class RecordingAlerts implements AlertPublisher {

    // The watchdog publishes from several threads at once.
    final List<Alert> sent = new CopyOnWriteArrayList<>();
    private int failuresLeft;

    /** The next {@code n} publishes fail. */
    void failNext(int n) {
        failuresLeft = n;
    }

    @Override
    public synchronized void publish(Alert alert) {
        if (failuresLeft > 0) {
            failuresLeft--;
            throw new AlertDeliveryException("topic unreachable (test)", new IllegalStateException("down"));
        }
        sent.add(alert);
    }

    /** The kinds sent, in order. */
    List<String> kinds() {
        return sent.stream().map(a -> a.kind().wireName()).toList();
    }

    List<Alert> of(AlertKind kind) {
        return sent.stream().filter(a -> a.kind() == kind).toList();
    }
}
