package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a {@link StateMachine} keeps its executions: in memory only (they end with the process), or in a directory,
 * one append-only journal per execution ({@code <name>.jsonl}, one {@link JournalEntry} per line), so that executions
 * survive a restart as they do on AWS: their history is kept and a running one continues where it stood. Each line
 * is written and flushed before the engine goes on, so a killed process loses at most the line being written (a
 * torn last line is ignored when reading, and cut off before the journal is appended to again; a journal a kill left
 * without a whole first line belongs to a start that never completed and is forgotten). Executions that ended more
 * than 90 days ago (AWS's history retention) are deleted when the store is read.
 */
public final class ExecutionStore {

    /** How long AWS keeps the history of an ended execution. */
    static final Duration RETENTION = Duration.ofDays(90);

    private static final Logger LOG = LoggerFactory.getLogger(ExecutionStore.class);
    private static final ObjectMapper JSON = EngineJson.mapper();
    private static final String SUFFIX = ".jsonl";

    private final Path dir;

    private ExecutionStore(Path dir) {
        this.dir = dir;
    }

    /** Executions live and die with the process. */
    public static ExecutionStore inMemory() {
        return new ExecutionStore(null);
    }

    /** Executions are journaled under {@code dir} (created if missing). */
    public static ExecutionStore inDirectory(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the execution directory " + dir, e);
        }
        return new ExecutionStore(dir);
    }

    public boolean durable() {
        return dir != null;
    }

    /** One journaled execution, its entries in the order they were written. */
    record Recorded(Path file, List<JournalEntry> entries) {

        JournalEntry.Started started() {
            return (JournalEntry.Started) entries.getFirst();
        }
    }

    /** An open journal: appends entries, each written through to the file (a failed write is logged, never thrown). */
    interface Journal extends AutoCloseable {
        void append(JournalEntry entry);

        @Override
        void close();
    }

    private static final Journal NONE = new Journal() {
        @Override
        public void append(JournalEntry entry) {}

        @Override
        public void close() {}
    };

    /** The journal of a new execution (nothing, in memory). */
    Journal create(String executionName) {
        if (dir == null) {
            return NONE;
        }
        Path file = dir.resolve(executionName + SUFFIX);
        try {
            return new FileJournal(
                    file,
                    Files.newBufferedWriter(
                            file, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot create the journal of execution " + executionName + " at " + file, e);
        }
    }

    /**
     * Continues the journal of a recorded execution, after the whole lines a kill left: a torn last line (which
     * {@link #load} ignored) is cut off first, so that what is appended now starts on a line of its own.
     */
    Journal reopen(Recorded recorded) {
        try {
            JournalTail.Mended mended = JournalTail.mend(recorded.file(), ExecutionStore::isEntry);
            if (mended != JournalTail.Mended.WHOLE) {
                LOG.warn(
                        "{\"message\":\"execution journal made to end with a whole line before appending\","
                                + "\"file\":\"{}\",\"lastLine\":\"{}\"}",
                        recorded.file(),
                        mended == JournalTail.Mended.CUT ? "torn, cut off" : "whole, newline added");
            }
            return new FileJournal(
                    recorded.file(),
                    Files.newBufferedWriter(
                            recorded.file(),
                            StandardCharsets.UTF_8,
                            StandardOpenOption.APPEND,
                            StandardOpenOption.WRITE));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reopen the journal " + recorded.file(), e);
        }
    }

    /**
     * Every recorded execution, oldest start first; those that ended before {@code now - 90 days} are deleted
     * instead. A journal that cannot be read is reported and skipped, never deleted.
     */
    List<Recorded> load(Instant now) {
        if (dir == null) {
            return List.of();
        }
        List<Recorded> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX))
                    .toList()) {
                Recorded recorded = read(file);
                if (recorded == null) {
                    continue;
                }
                Instant ended = endedAt(recorded);
                if (ended != null && ended.isBefore(now.minus(RETENTION))) {
                    Files.deleteIfExists(file);
                    continue;
                }
                out.add(recorded);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the execution directory " + dir, e);
        }
        out.sort(Comparator.comparing((Recorded r) -> r.started().startDate())
                .thenComparing(r -> r.started().name()));
        return out;
    }

    private static Instant endedAt(Recorded recorded) {
        JournalEntry last = recorded.entries().getLast();
        if (last instanceof JournalEntry.Event e
                && e.event().type().name().startsWith("Execution")
                && e.event().type() != HistoryEventType.ExecutionStarted) {
            return e.event().timestamp();
        }
        return null;
    }

    private static Recorded read(Path file) throws IOException {
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        List<JournalEntry> entries = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            try {
                entries.add(decode(JSON.readTree(lines.get(i))));
            } catch (JsonProcessingException | IllegalArgumentException e) {
                if (i == lines.size() - 1) {
                    // The process stopped while writing this line; everything before it holds.
                    LOG.warn(
                            "{\"message\":\"ignoring the torn last line of an execution journal\",\"file\":\"{}\"}",
                            file);
                    break;
                }
                LOG.error(
                        "{\"message\":\"unreadable execution journal skipped\",\"file\":\"{}\",\"line\":{}}",
                        file,
                        i + 1,
                        e);
                return null;
            }
        }
        if (entries.isEmpty()) {
            // Created, and killed before its first line was whole: StartExecution never answered (that line is written
            // before it does), so no execution exists. Its caller starts it again; the file must not be in the way.
            LOG.warn(
                    "{\"message\":\"execution journal without a whole first line forgotten: its start never"
                            + " completed\",\"file\":\"{}\"}",
                    file);
            Files.deleteIfExists(file);
            return null;
        }
        if (!(entries.getFirst() instanceof JournalEntry.Started)) {
            LOG.error("{\"message\":\"execution journal without its first line skipped\",\"file\":\"{}\"}", file);
            return null;
        }
        return new Recorded(file, List.copyOf(entries));
    }

    /** Whether {@code line} is a whole journal entry. */
    private static boolean isEntry(String line) {
        try {
            decode(JSON.readTree(line));
            return true;
        } catch (JsonProcessingException | IllegalArgumentException notAnEntry) {
            return false;
        }
    }

    static String encode(JournalEntry entry) {
        ObjectNode line = JSON.createObjectNode();
        switch (entry) {
            case JournalEntry.Started s -> {
                ObjectNode started = line.putObject("started");
                started.put("name", s.name());
                started.set("input", s.input());
                started.put("startDate", s.startDate().toString());
            }
            case JournalEntry.Event e -> {
                line.set("event", JSON.valueToTree(e.event()));
                line.put("top", e.topLevel());
                if (e.next() != null) {
                    line.put("next", e.next());
                }
                if (e.graphEnds()) {
                    line.put("end", true);
                }
            }
            case JournalEntry.WaitUntil w -> line.put("waitUntil", w.until().toString());
            case JournalEntry.RetryPlanned r -> {
                ObjectNode retry = line.putObject("retry");
                r.attemptsPerRetrier().forEach(retry.putArray("attempts")::add);
                retry.put("retryCount", r.retryCount());
                retry.put("at", r.at().toString());
            }
            case JournalEntry.CallbackWait w -> {
                ObjectNode wait = line.putObject("callbackWait");
                wait.put("token", w.token());
                wait.put("openedAt", w.openedAt().toString());
            }
            case JournalEntry.CallbackArrived c -> {
                ObjectNode arrived = line.putObject("callbackArrived");
                arrived.put("token", c.token());
                if (c.output() != null) {
                    arrived.set("output", c.output());
                }
                arrived.put("error", c.error());
                arrived.put("cause", c.cause());
            }
        }
        return line.toString();
    }

    static JournalEntry decode(JsonNode line) throws JsonProcessingException {
        if (line.has("started")) {
            JsonNode s = line.get("started");
            return new JournalEntry.Started(
                    s.get("name").asText(),
                    s.get("input"),
                    Instant.parse(s.get("startDate").asText()));
        }
        if (line.has("event")) {
            return new JournalEntry.Event(
                    JSON.treeToValue(line.get("event"), HistoryEvent.class),
                    line.path("top").asBoolean(),
                    line.hasNonNull("next") ? line.get("next").asText() : null,
                    line.path("end").asBoolean());
        }
        if (line.has("waitUntil")) {
            return new JournalEntry.WaitUntil(
                    Instant.parse(line.get("waitUntil").asText()));
        }
        if (line.has("retry")) {
            JsonNode r = line.get("retry");
            List<Integer> attempts = new ArrayList<>();
            r.get("attempts").forEach(a -> attempts.add(a.asInt()));
            return new JournalEntry.RetryPlanned(
                    attempts,
                    r.get("retryCount").asInt(),
                    Instant.parse(r.get("at").asText()));
        }
        if (line.has("callbackWait")) {
            JsonNode w = line.get("callbackWait");
            return new JournalEntry.CallbackWait(
                    w.get("token").asText(), Instant.parse(w.get("openedAt").asText()));
        }
        if (line.has("callbackArrived")) {
            JsonNode c = line.get("callbackArrived");
            return new JournalEntry.CallbackArrived(
                    c.get("token").asText(),
                    c.hasNonNull("output") ? c.get("output") : null,
                    c.hasNonNull("error") ? c.get("error").asText() : null,
                    c.hasNonNull("cause") ? c.get("cause").asText() : null);
        }
        throw new IllegalArgumentException("not a journal entry: " + line);
    }

    private static final class FileJournal implements Journal {
        private final Path file;
        private final BufferedWriter out;
        private boolean closed;

        FileJournal(Path file, BufferedWriter out) {
            this.file = file;
            this.out = out;
        }

        @Override
        public synchronized void append(JournalEntry entry) {
            if (closed) {
                return;
            }
            try {
                out.write(encode(entry));
                out.write('\n');
                out.flush();
            } catch (IOException e) {
                // The execution goes on in memory; it cannot continue after a restart, and the log says so once.
                LOG.error(
                        "{\"message\":\"execution journal write failed; this execution will not survive a restart\","
                                + "\"file\":\"{}\"}",
                        file,
                        e);
                close();
            }
        }

        @Override
        public synchronized void close() {
            if (closed) {
                return;
            }
            closed = true;
            try {
                out.close();
            } catch (IOException e) {
                LOG.warn("{\"message\":\"closing an execution journal failed\",\"file\":\"{}\"}", file, e);
            }
        }
    }
}
