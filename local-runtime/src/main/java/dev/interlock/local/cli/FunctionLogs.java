package dev.interlock.local.cli;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps the terminal of {@code interlock up} readable: everything the functions and the embedded services print (the
 * functions' JSON log lines, DynamoDB Local's banner) goes to one log file per instance, and to the terminal as well
 * only when asked ({@code --verbose}). What {@code up} itself tells the user is written to the terminal directly.
 */
final class FunctionLogs implements AutoCloseable {

    private final PrintStream originalOut;
    private final PrintStream originalErr;
    private final PrintStream file;
    private final Path path;

    private FunctionLogs(Path path, PrintStream file, PrintStream originalOut, PrintStream originalErr) {
        this.path = path;
        this.file = file;
        this.originalOut = originalOut;
        this.originalErr = originalErr;
    }

    /**
     * Sends {@code System.out} and {@code System.err} to {@code path} ({@code append}: a restart continues the same
     * file) and, with {@code echo}, to the terminal too. {@link #close} puts them back.
     */
    static FunctionLogs redirect(Path path, boolean append, boolean echo) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        PrintStream file = new PrintStream(new FileOutputStream(path.toFile(), append), true, StandardCharsets.UTF_8);
        PrintStream out = System.out;
        PrintStream err = System.err;
        System.setOut(echo ? new PrintStream(new Tee(file, out), true, StandardCharsets.UTF_8) : file);
        System.setErr(echo ? new PrintStream(new Tee(file, err), true, StandardCharsets.UTF_8) : file);
        return new FunctionLogs(path, file, out, err);
    }

    Path path() {
        return path;
    }

    @Override
    public void close() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        file.close();
    }

    /** Writes to both streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            second.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            second.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            first.flush();
            second.flush();
        }
    }
}
