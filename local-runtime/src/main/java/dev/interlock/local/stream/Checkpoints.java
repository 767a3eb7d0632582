package dev.interlock.local.stream;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the stream poller remembers, per shard, the last sequence number it finished, so a restart neither skips
 * nor re-delivers records. In memory by default; in a JSON file (written atomically) under {@code --data-dir}.
 */
public final class Checkpoints {

    private static final ObjectMapper JSON = InterlockJson.json();

    private final Map<String, String> lastDone = new ConcurrentHashMap<>();
    private final Path file;

    private Checkpoints(Path file) {
        this.file = file;
    }

    public static Checkpoints inMemory() {
        return new Checkpoints(null);
    }

    /** Checkpoints kept in {@code file}, loaded now if it exists. */
    public static Checkpoints inFile(Path file) {
        Checkpoints c = new Checkpoints(file);
        if (Files.exists(file)) {
            try {
                c.lastDone.putAll(JSON.readValue(file.toFile(), new TypeReference<Map<String, String>>() {}));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read stream checkpoints " + file, e);
            }
        }
        return c;
    }

    public Optional<String> lastDone(String shardId) {
        return Optional.ofNullable(lastDone.get(shardId));
    }

    /** Records that every record of the shard up to {@code sequenceNumber} is finished. */
    public synchronized void markDone(String shardId, String sequenceNumber) {
        lastDone.put(shardId, sequenceNumber);
        if (file != null) {
            try {
                Files.createDirectories(file.getParent());
                Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
                JSON.writeValue(tmp.toFile(), Map.copyOf(lastDone));
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot write stream checkpoints " + file, e);
            }
        }
    }
}
