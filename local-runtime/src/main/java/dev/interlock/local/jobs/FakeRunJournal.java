package dev.interlock.local.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.statemachine.engine.EngineClock;
import dev.interlock.statemachine.engine.JournalTail;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * Where one job fake service keeps its runs: nowhere (they end with the process) or one append-only JSON-lines file in
 * the data directory, so that after a restart on the same {@code --data-dir} every run is still known, a running one
 * still ends at its due time, and an end whose event was not yet published is published then. Each line is written
 * and flushed before the call that caused it is answered; a torn last line (a kill mid-write) is ignored, and cut off
 * before the journal is appended to again.
 */
final class FakeRunJournal {

    /**
     * A run read back: its id, what the service recorded about it ({@code record}), the fake, when it started, when it
     * was stopped (null: not stopped), and whether the event of its end was published.
     */
    record Restored(
            String id, JsonNode record, FakeJob fake, Instant startedAt, Instant stoppedAt, boolean endPublished) {}

    private final Path file;

    private FakeRunJournal(Path file) {
        this.file = file;
    }

    /** Runs live and die with the process. */
    static FakeRunJournal inMemory() {
        return new FakeRunJournal(null);
    }

    /**
     * Runs are journaled in {@code file} (its directory created if missing). A line a kill tore at its end is cut off
     * now, before anything is appended: a new line glued to it would make the journal unreadable to the next start.
     */
    static FakeRunJournal inFile(Path file) {
        try {
            Files.createDirectories(file.getParent());
            if (Files.exists(file)) {
                JournalTail.mend(file, FakeRunJournal::isJson);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the job fake journal " + file, e);
        }
        return new FakeRunJournal(file);
    }

    private static boolean isJson(String line) {
        try {
            return AwsJson.JSON.readTree(line).isObject();
        } catch (JsonProcessingException e) {
            return false;
        }
    }

    /** A run started: {@code record} holds what the service needs to answer for it again. */
    void started(FakeRun run, JsonNode record) {
        ObjectNode line = AwsJson.JSON.createObjectNode();
        line.put("started", run.id());
        line.set("record", record);
        line.put("startedAt", run.startedAt().toString());
        line.put("durationMillis", run.fake().duration().toMillis());
        line.put("outcome", run.fake().outcome().name());
        append(line);
    }

    /** The run was stopped at {@code at}. */
    void stopped(FakeRun run, Instant at) {
        ObjectNode line = AwsJson.JSON.createObjectNode();
        line.put("stopped", run.id());
        line.put("at", at.toString());
        append(line);
    }

    /** The event of the run's end was published: a restart publishes it no more. */
    void endPublished(FakeRun run) {
        append(AwsJson.JSON.createObjectNode().put("endPublished", run.id()));
    }

    private synchronized void append(ObjectNode line) {
        if (file == null) {
            return;
        }
        try {
            Files.writeString(
                    file,
                    line + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot journal a job fake run in " + file, e);
        }
    }

    /**
     * Reads every journaled run back now: {@code rebuild} makes the service's run of it (given the restored fake run)
     * and records it, so the service answers for it from this moment. Answers what lets those runs go on, to be run
     * once what their ends reach is up: a run whose end was not published yet ends as it would have — {@code ended}
     * at its due time, or at once if it was stopped or its time passed while the process was down.
     */
    <R> Runnable restore(
            EngineClock clock,
            BiFunction<Restored, FakeRun, R> rebuild,
            Function<R, FakeRun> fakeOf,
            Consumer<R> ended) {
        List<Runnable> goOn = new ArrayList<>();
        for (Restored restored : load()) {
            R run = rebuild.apply(restored, FakeRun.restore(clock, restored));
            if (restored.endPublished()) {
                continue;
            }
            if (restored.stoppedAt() != null) {
                goOn.add(() -> ended.accept(run));
            } else {
                goOn.add(() -> fakeOf.apply(run).begin(clock, fake -> ended.accept(run)));
            }
        }
        return () -> goOn.forEach(Runnable::run);
    }

    /** Every journaled run, in the order they started. */
    synchronized List<Restored> load() {
        if (file == null || !Files.exists(file)) {
            return List.of();
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the job fake journal " + file, e);
        }
        Map<String, Restored> runs = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).isBlank()) {
                continue;
            }
            JsonNode line;
            try {
                line = AwsJson.JSON.readTree(lines.get(i));
            } catch (JsonProcessingException e) {
                if (i == lines.size() - 1) {
                    break; // the process stopped while writing this line
                }
                throw new IllegalStateException("line " + (i + 1) + " of the job fake journal " + file
                        + " is not JSON: " + e.getOriginalMessage());
            }
            if (line.has("started")) {
                String id = line.get("started").asText();
                runs.put(
                        id,
                        new Restored(
                                id,
                                line.get("record"),
                                new FakeJob(
                                        Duration.ofMillis(
                                                line.get("durationMillis").asLong()),
                                        FakeJob.Outcome.valueOf(
                                                line.get("outcome").asText())),
                                Instant.parse(line.get("startedAt").asText()),
                                null,
                                false));
            } else if (line.has("stopped")) {
                runs.computeIfPresent(
                        line.get("stopped").asText(),
                        (id, r) -> new Restored(
                                id,
                                r.record(),
                                r.fake(),
                                r.startedAt(),
                                Instant.parse(line.get("at").asText()),
                                false));
            } else if (line.has("endPublished")) {
                runs.computeIfPresent(
                        line.get("endPublished").asText(),
                        (id, r) -> new Restored(id, r.record(), r.fake(), r.startedAt(), r.stoppedAt(), true));
            }
        }
        return new ArrayList<>(runs.values());
    }
}
