package dev.interlock.local.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.local.aws.AwsJson;
import dev.interlock.statemachine.engine.ScaledRealClock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job fake's journal on disk, across restarts of the runtime on its data directory, a killed one among them. */
class FakeRunJournalTest {

    private final ScaledRealClock clock = new ScaledRealClock(1.0);

    @TempDir
    Path dir;

    private void start(FakeRunJournal journal, String id) {
        journal.started(
                FakeRun.create(clock, id, FakeJob.DEFAULT),
                AwsJson.JSON.createObjectNode().put("JobRunId", id));
    }

    /**
     * A kill in the middle of a line leaves part of it in the file; the restarted runtime ignores it and journals new
     * runs after it. They must not be glued to the fragment: the runtime after it would find a line that is not JSON
     * in the middle of the journal, and could not start at all.
     */
    @Test
    void aJournalTornByAKillStaysReadableOnceTheNextRuntimeJournaledRunsAfterIt() throws IOException {
        Path file = dir.resolve("glue.jsonl");
        start(FakeRunJournal.inFile(file), "jr_1");
        Files.writeString(file, "{\"started\":\"jr_2\",\"rec", StandardCharsets.UTF_8, StandardOpenOption.APPEND);

        FakeRunJournal restarted = FakeRunJournal.inFile(file);
        assertThat(restarted.load()).extracting(FakeRunJournal.Restored::id).containsExactly("jr_1");
        start(restarted, "jr_3");

        assertThat(FakeRunJournal.inFile(file).load())
                .extracting(FakeRunJournal.Restored::id)
                .containsExactly("jr_1", "jr_3");
    }

    /** A kill after a whole line but before its newline: the line counts, and the next one goes on a line of its own. */
    @Test
    void aWholeLineWhoseNewlineAKillCutOffIsKeptAndTheNextRunGoesOnItsOwnLine() throws IOException {
        Path file = dir.resolve("glue.jsonl");
        start(FakeRunJournal.inFile(file), "jr_1");
        String whole = Files.readString(file).strip();
        Files.writeString(file, whole, StandardCharsets.UTF_8);

        FakeRunJournal restarted = FakeRunJournal.inFile(file);
        start(restarted, "jr_2");

        assertThat(FakeRunJournal.inFile(file).load())
                .extracting(FakeRunJournal.Restored::id)
                .containsExactly("jr_1", "jr_2");
    }
}
