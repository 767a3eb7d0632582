package dev.interlock.local.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Where the runtime's clock stood, kept in the data directory so that a restarted runtime's time goes on from there:
 * with {@code --time-scale} the clock runs ahead of the wall clock, and the executions, locks and deadlines a data
 * directory holds were written in that time. The next start takes the later of the wall clock and the saved
 * position; the time the runtime was down does not count in scaled time.
 */
final class EngineClockPosition {

    private final Path file;

    EngineClockPosition(Path dataDir) {
        this.file = dataDir.resolve("engine-clock.txt");
    }

    /** Where the clock starts: the saved position if it is ahead of {@code wallClock}, else the wall clock. */
    Instant start(Instant wallClock) {
        if (!Files.exists(file)) {
            return wallClock;
        }
        try {
            Instant saved =
                    Instant.parse(Files.readString(file, StandardCharsets.UTF_8).trim());
            return saved.isAfter(wallClock) ? saved : wallClock;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the clock position " + file, e);
        } catch (DateTimeParseException e) {
            throw new IllegalStateException(
                    "the clock position " + file + " is not an ISO-8601 instant: " + e.getParsedString(), e);
        }
    }

    /** Saves {@code now} atomically (a kill mid-write leaves the previous position). */
    void save(Instant now) {
        try {
            Path next = file.resolveSibling(file.getFileName() + ".next");
            Files.writeString(next, now.toString(), StandardCharsets.UTF_8);
            Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot save the clock position " + file, e);
        }
    }
}
