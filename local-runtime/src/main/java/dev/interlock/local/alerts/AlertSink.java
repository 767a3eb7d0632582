package dev.interlock.local.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * Where alerts end up on one machine: the functions' SNS publishes and the state machine's {@code sns:publish}
 * tasks land here; each is printed and kept (the newest {@value #CAPACITY}) for {@code GET /alerts}.
 */
public final class AlertSink {

    static final int CAPACITY = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One received alert: topic, subject and the message (parsed when it is JSON). */
    public record ReceivedAlert(String topicArn, String subject, JsonNode message, Instant receivedAt) { }

    private final Deque<ReceivedAlert> alerts = new ArrayDeque<>();
    private final Clock clock;
    private final Consumer<ReceivedAlert> printer;

    public AlertSink(Clock clock, Consumer<ReceivedAlert> printer) {
        this.clock = clock;
        this.printer = printer;
    }

    public ReceivedAlert receive(String topicArn, String subject, String message) {
        JsonNode body;
        try {
            body = JSON.readTree(message);
        } catch (java.io.IOException notJson) {
            body = JSON.getNodeFactory().textNode(message);
        }
        ReceivedAlert alert = new ReceivedAlert(topicArn, subject, body, clock.instant());
        synchronized (alerts) {
            alerts.addLast(alert);
            while (alerts.size() > CAPACITY) {
                alerts.removeFirst();
            }
        }
        printer.accept(alert);
        return alert;
    }

    /** Oldest first. */
    public List<ReceivedAlert> all() {
        synchronized (alerts) {
            return List.copyOf(alerts);
        }
    }
}
