package dev.interlock.local.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Keeps the terminal readable during the demo: the functions' structured JSON log lines go to a file, everything
 * else (the narration, the runtime's own messages) stays on the terminal.
 */
final class LogRouting extends OutputStream {

    private final PrintStream terminal;
    private final OutputStream file;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    private LogRouting(PrintStream terminal, OutputStream file) {
        this.terminal = terminal;
        this.file = file;
    }

    /** Replaces {@code System.out}; returns the log file's path. */
    static Path install(Path logFile) throws IOException {
        Files.createDirectories(logFile.toAbsolutePath().getParent());
        OutputStream out = Files.newOutputStream(logFile, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
        System.setOut(new PrintStream(new LogRouting(System.out, out), true, StandardCharsets.UTF_8));
        return logFile;
    }

    @Override
    public synchronized void write(int b) throws IOException {
        line.write(b);
        if (b == '\n') {
            byte[] bytes = line.toByteArray();
            line.reset();
            if (bytes.length > 0 && bytes[0] == '{') {
                file.write(bytes);
                file.flush();
            } else {
                terminal.write(bytes);
                terminal.flush();
            }
        }
    }

    @Override
    public synchronized void flush() throws IOException {
        file.flush();
        terminal.flush();
    }
}
