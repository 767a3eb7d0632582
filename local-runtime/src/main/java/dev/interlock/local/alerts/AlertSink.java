package dev.interlock.local.alerts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Where alerts end up on one machine: the functions' SNS publishes and the state machine's {@code sns:publish}
 * tasks land here; each is printed and kept (the newest {@value #CAPACITY}) for the runtime's own checks ({@code GET
 * /alerts} reads the table's alert history, as on AWS). With a data
 * directory the alerts are also appended to a file, one JSON line each, and read back on the next start, so a
 * restart does not forget what was raised.
 */
public final class AlertSink implements AutoCloseable {

    static final int CAPACITY = 1000;
    private static final ObjectMapper JSON = InterlockJson.json();

    /**
     * One received alert: topic, subject, the message (parsed when it is JSON) and its message attributes (what an SNS
     * subscription's filter policy matches: team, severity, kind, pipeline).
     */
    public record ReceivedAlert(
            String topicArn, String subject, JsonNode message, Instant receivedAt, Map<String, String> attributes) {
        public ReceivedAlert {
            attributes = attributes == null ? Map.of() : Map.copyOf(attributes);
        }
    }

    private final Deque<ReceivedAlert> alerts = new ArrayDeque<>();
    private final Clock clock;
    private final Consumer<ReceivedAlert> printer;
    private final Writer journal;
    private boolean journalOpen = true;

    /** Alerts kept in memory only. */
    public AlertSink(Clock clock, Consumer<ReceivedAlert> printer) {
        this(clock, printer, null);
    }

    private AlertSink(Clock clock, Consumer<ReceivedAlert> printer, Writer journal) {
        this.clock = clock;
        this.printer = printer;
        this.journal = journal;
    }

    /**
     * Alerts kept in {@code file} as well: those already there are loaded (not printed again; a line cut short by a
     * crash is skipped) and the file is compacted to the newest {@value #CAPACITY} before new ones are appended.
     */
    public static AlertSink persistent(Clock clock, Consumer<ReceivedAlert> printer, Path file) throws IOException {
        List<ReceivedAlert> kept = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                ReceivedAlert alert = fromLine(line);
                if (alert != null) {
                    kept.add(alert);
                }
            }
        }
        List<ReceivedAlert> newest = kept.subList(Math.max(0, kept.size() - CAPACITY), kept.size());
        Path compacted = file.resolveSibling(file.getFileName() + ".tmp");
        List<String> lines = new ArrayList<>();
        for (ReceivedAlert alert : newest) {
            lines.add(toLine(alert));
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        Files.write(compacted, lines, StandardCharsets.UTF_8);
        Files.move(compacted, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        Writer journal = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        AlertSink sink = new AlertSink(clock, printer, journal);
        sink.alerts.addAll(newest);
        return sink;
    }

    public ReceivedAlert receive(String topicArn, String subject, String message) {
        return receive(topicArn, subject, message, Map.of());
    }

    /** Receives one published alert with its message attributes. */
    public ReceivedAlert receive(String topicArn, String subject, String message, Map<String, String> attributes) {
        JsonNode body;
        try {
            body = JSON.readTree(message);
        } catch (java.io.IOException notJson) {
            body = JSON.getNodeFactory().textNode(message);
        }
        ReceivedAlert alert = new ReceivedAlert(topicArn, subject, body, clock.instant(), attributes);
        synchronized (alerts) {
            alerts.addLast(alert);
            while (alerts.size() > CAPACITY) {
                alerts.removeFirst();
            }
            if (journal != null && journalOpen) {
                try {
                    journal.write(toLine(alert));
                    journal.write('\n');
                    journal.flush();
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot append the alert to the alert file", e);
                }
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

    /** Closes the alert file, if any; alerts received later are kept in memory only. */
    @Override
    public void close() throws IOException {
        synchronized (alerts) {
            if (journal != null && journalOpen) {
                journalOpen = false;
                journal.close();
            }
        }
    }

    private static String toLine(ReceivedAlert alert) {
        ObjectNode line = JSON.createObjectNode();
        line.put("topicArn", alert.topicArn());
        line.put("subject", alert.subject());
        line.set("message", alert.message());
        line.put("receivedAt", alert.receivedAt().toString());
        if (!alert.attributes().isEmpty()) {
            ObjectNode attributes = line.putObject("attributes");
            alert.attributes().forEach(attributes::put);
        }
        return line.toString();
    }

    private static Map<String, String> attributes(JsonNode node) {
        Map<String, String> attributes = new java.util.LinkedHashMap<>();
        node.fields()
                .forEachRemaining(f -> attributes.put(f.getKey(), f.getValue().asText()));
        return attributes;
    }

    private static ReceivedAlert fromLine(String line) {
        try {
            JsonNode node = JSON.readTree(line);
            if (node == null || !node.hasNonNull("receivedAt")) {
                return null;
            }
            return new ReceivedAlert(
                    node.path("topicArn").asText(null),
                    node.path("subject").asText(null),
                    node.path("message"),
                    Instant.parse(node.get("receivedAt").asText()),
                    attributes(node.path("attributes")));
        } catch (IOException | java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
