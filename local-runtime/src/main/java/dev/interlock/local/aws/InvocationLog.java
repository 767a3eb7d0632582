package dev.interlock.local.aws;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import java.util.concurrent.Callable;

/**
 * What one invocation printed, for Lambda's {@code LogType=Tail}. The functions log JSON lines to standard output (as
 * on Lambda, where that output is the invocation's log); once {@link #install()}ed, standard output still goes where it
 * went, and the lines a thread prints while it runs an invocation are also kept for that invocation. Work a function
 * hands to another thread is not in its tail (on Lambda it would be).
 */
public final class InvocationLog {

    /** Lambda returns the last 4 KB of the log. */
    static final int TAIL_BYTES = 4096;

    private static final ThreadLocal<ByteArrayOutputStream> CURRENT = new ThreadLocal<>();
    /** The line each thread is printing, for the {@link #listen listeners}. */
    private static final ThreadLocal<ByteArrayOutputStream> LINE = ThreadLocal.withInitial(ByteArrayOutputStream::new);
    /** Who hears every complete line printed to standard output (the runtime's metrics, from the functions' EMF). */
    private static final java.util.List<java.util.function.Consumer<String>> LISTENERS =
            new java.util.concurrent.CopyOnWriteArrayList<>();

    private InvocationLog() {}

    /** Makes standard output also feed the invocation that prints; once per JVM (later calls change nothing). */
    public static synchronized void install() {
        if (!(System.out instanceof Capturing)) {
            System.setOut(new Capturing(System.out));
        }
    }

    /**
     * Hands every complete line printed to standard output after {@link #install()} to {@code listener} (on the
     * printing thread; a listener that throws is ignored) until the returned handle is closed.
     */
    public static AutoCloseable listen(java.util.function.Consumer<String> listener) {
        LISTENERS.add(listener);
        return () -> LISTENERS.remove(listener);
    }

    private static void heard(byte[] b, int off, int len) {
        if (LISTENERS.isEmpty()) {
            return;
        }
        ByteArrayOutputStream line = LINE.get();
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                String text = line.toString(StandardCharsets.UTF_8);
                line.reset();
                for (java.util.function.Consumer<String> l : LISTENERS) {
                    try {
                        l.accept(text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
                    } catch (RuntimeException ignored) {
                        // a listener's fault must not become the printing function's
                    }
                }
            } else {
                line.write(b[i]);
            }
        }
    }

    /** The answer of {@code invocation} and its log as Lambda frames it (START, the function's lines, END, REPORT). */
    public static <T> Captured<T> capture(Callable<T> invocation) throws Exception {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        ByteArrayOutputStream outer = CURRENT.get();
        CURRENT.set(lines);
        String requestId = UUID.randomUUID().toString();
        long started = System.nanoTime();
        T answer;
        try {
            System.out.flush();
            answer = invocation.call();
            System.out.flush();
        } finally {
            if (outer == null) {
                CURRENT.remove();
            } else {
                CURRENT.set(outer);
            }
        }
        double millis = (System.nanoTime() - started) / 1e6;
        String log = "START RequestId: " + requestId + " Version: $LATEST\n"
                + lines.toString(StandardCharsets.UTF_8)
                + "END RequestId: " + requestId + "\n"
                + String.format(
                        java.util.Locale.ROOT,
                        "REPORT RequestId: %s\tDuration: %.2f ms\tBilled Duration: %d ms\n",
                        requestId,
                        millis,
                        (long) Math.ceil(millis));
        return new Captured<>(answer, log);
    }

    /** An invocation's answer and its whole log. */
    public record Captured<T>(T answer, String log) {

        /** The {@code X-Amz-Log-Result} header: the log's last 4 KB, base64. */
        public String tailBase64() {
            byte[] bytes = log.getBytes(StandardCharsets.UTF_8);
            return Base64.getEncoder()
                    .encodeToString(
                            bytes.length <= TAIL_BYTES
                                    ? bytes
                                    : Arrays.copyOfRange(bytes, bytes.length - TAIL_BYTES, bytes.length));
        }
    }

    /** Standard output that also copies a thread's bytes into the invocation it is running. */
    private static final class Capturing extends PrintStream {
        Capturing(PrintStream target) {
            super(
                    new OutputStream() {
                        @Override
                        public void write(int b) {
                            target.write(b);
                            heard(new byte[] {(byte) b}, 0, 1);
                            ByteArrayOutputStream lines = CURRENT.get();
                            if (lines != null) {
                                lines.write(b);
                            }
                        }

                        @Override
                        public void write(byte[] b, int off, int len) {
                            target.write(b, off, len);
                            heard(b, off, len);
                            ByteArrayOutputStream lines = CURRENT.get();
                            if (lines != null) {
                                lines.write(b, off, len);
                            }
                        }

                        @Override
                        public void flush() throws IOException {
                            target.flush();
                        }
                    },
                    true,
                    StandardCharsets.UTF_8);
        }
    }
}
