package dev.interlock.statemachine.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.Predicate;

/**
 * The end of an append-only JSON-lines journal (an execution's, a job fake's) that a killed process may have left in
 * the middle of a line: a line longer than the writer's buffer reaches the file in several writes, and a kill between
 * two of them leaves a fragment without its newline. Readers ignore such a torn last line. Before the journal is
 * appended to again, {@link #mend} makes it end with a whole line; otherwise the next line would be glued to the
 * fragment, leaving an unreadable line in the middle of the journal for every later reader.
 */
public final class JournalTail {

    /** What {@link #mend} found at the end of the journal. */
    public enum Mended {
        /** Empty, or ending with a newline: nothing to do. */
        WHOLE,
        /** A whole last line without its newline (the kill came between the two): the newline was added. */
        COMPLETED,
        /** A fragment of a line: cut off, the journal now ends with its last whole line. */
        CUT
    }

    private static final int CHUNK = 8192;

    private JournalTail() {}

    /**
     * Makes {@code file} end with a newline: a last line without one is completed if {@code whole} accepts it and cut
     * off otherwise.
     */
    public static Mended mend(Path file, Predicate<String> whole) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = channel.size();
            long lastLine = startOfLastLine(channel, size);
            if (lastLine == size) {
                return Mended.WHOLE;
            }
            ByteBuffer tail = ByteBuffer.allocate(Math.toIntExact(size - lastLine));
            while (tail.hasRemaining()) {
                if (channel.read(tail, lastLine + tail.position()) < 0) {
                    break;
                }
            }
            String line = new String(tail.array(), 0, tail.position(), StandardCharsets.UTF_8);
            if (!line.isBlank() && whole.test(line)) {
                channel.write(ByteBuffer.wrap(new byte[] {'\n'}), size);
                return Mended.COMPLETED;
            }
            channel.truncate(lastLine);
            return Mended.CUT;
        }
    }

    /** The offset just after the file's last newline (0 if it has none; {@code size} if it ends with one). */
    private static long startOfLastLine(FileChannel channel, long size) throws IOException {
        long end = size;
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK);
        while (end > 0) {
            long from = Math.max(0, end - CHUNK);
            chunk.clear().limit(Math.toIntExact(end - from));
            while (chunk.hasRemaining()) {
                if (channel.read(chunk, from + chunk.position()) < 0) {
                    break;
                }
            }
            for (int i = chunk.position() - 1; i >= 0; i--) {
                if (chunk.get(i) == '\n') {
                    return from + i + 1;
                }
            }
            end = from;
        }
        return 0;
    }
}
