package dev.interlock.statemachine.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a kill mid-write leaves at the end of a JSON-lines journal, and what is left of it to append after. */
class JournalTailTest {

    /** A whole line, for these tests: a closed object. */
    private static boolean closed(String line) {
        return line.startsWith("{") && line.endsWith("}");
    }

    @TempDir
    Path dir;

    private Mend mend(String content) throws IOException {
        Path file = dir.resolve("journal.jsonl");
        Files.writeString(file, content, StandardCharsets.UTF_8);
        JournalTail.Mended mended = JournalTail.mend(file, JournalTailTest::closed);
        return new Mend(mended, Files.readString(file, StandardCharsets.UTF_8));
    }

    private record Mend(JournalTail.Mended mended, String content) {}

    @Test
    void aJournalEndingWithAWholeLineOrEmptyIsLeftAsItIs() throws IOException {
        assertThat(mend("{\"a\":1}\n{\"b\":2}\n"))
                .isEqualTo(new Mend(JournalTail.Mended.WHOLE, "{\"a\":1}\n{\"b\":2}\n"));
        assertThat(mend("")).isEqualTo(new Mend(JournalTail.Mended.WHOLE, ""));
    }

    @Test
    void aTornLastLineIsCutOffBackToTheLastWholeLine() throws IOException {
        assertThat(mend("{\"a\":1}\n{\"b\":")).isEqualTo(new Mend(JournalTail.Mended.CUT, "{\"a\":1}\n"));
        assertThat(mend("{\"a\":")).isEqualTo(new Mend(JournalTail.Mended.CUT, ""));
    }

    @Test
    void aWholeLastLineWithoutItsNewlineGetsIt() throws IOException {
        assertThat(mend("{\"a\":1}\n{\"b\":2}"))
                .isEqualTo(new Mend(JournalTail.Mended.COMPLETED, "{\"a\":1}\n{\"b\":2}\n"));
    }

    /** A line longer than the writer's buffer is what a kill can tear: the search for its start spans chunks. */
    @Test
    void aTornLineLongerThanTheBufferIsCutOffWhole() throws IOException {
        String whole = "{\"a\":\"" + "x".repeat(20_000) + "\"}\n";
        String torn = "{\"b\":\"" + "é".repeat(12_000);

        assertThat(mend(whole + torn)).isEqualTo(new Mend(JournalTail.Mended.CUT, whole));
        assertThat(mend(whole + whole.strip())).isEqualTo(new Mend(JournalTail.Mended.COMPLETED, whole + whole));
    }
}
