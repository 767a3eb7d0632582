package dev.interlock.log;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.util.Map;
import java.util.function.BooleanSupplier;

/**
 * Structured JSON-line logging to stdout (CloudWatch on Lambda, the terminal locally): one object per line with
 * level, logger, message, the {@link LogContext} fields and any extra fields. No framework, nothing at class init.
 */
public final class StructuredLog {

    /** Severity of a line. */
    public enum Level {
        DEBUG,
        INFO,
        WARN,
        ERROR
    }

    private static final JsonFactory JSON = new JsonFactory();

    private final String logger;
    private final PrintStream out;
    private final Clock clock;
    private final BooleanSupplier muted;

    /** A logger that writes every line. */
    public StructuredLog(String logger, PrintStream out, Clock clock) {
        this(logger, out, clock, () -> false);
    }

    /**
     * A logger that drops the lines written while {@code muted} says so: a function's loggers are muted on a thread
     * that is priming, since priming events are rehearsals and nothing they do belongs in the function's log.
     */
    public StructuredLog(String logger, PrintStream out, Clock clock, BooleanSupplier muted) {
        this.logger = logger;
        this.out = out;
        this.clock = clock;
        this.muted = muted;
    }

    /** A logger writing to stdout with the system clock. */
    public static StructuredLog forName(String logger) {
        return new StructuredLog(logger, System.out, Clock.systemUTC());
    }

    /**
     * The metrics published beside this logger's lines: the same output and clock, silent when it is muted
     * ({@link Metrics}).
     */
    public Metrics metrics() {
        return new Metrics(out, clock, muted);
    }

    public void info(LogContext ctx, String message, Map<String, ?> fields) {
        write(Level.INFO, ctx, message, fields, null);
    }

    public void warn(LogContext ctx, String message, Map<String, ?> fields) {
        write(Level.WARN, ctx, message, fields, null);
    }

    public void error(LogContext ctx, String message, Map<String, ?> fields, Throwable error) {
        write(Level.ERROR, ctx, message, fields, error);
    }

    /** Render one line; exposed for tests. */
    public String render(Level level, LogContext ctx, String message, Map<String, ?> fields, Throwable error) {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = JSON.createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("timestamp", clock.instant().toString());
            g.writeStringField("level", level.name());
            g.writeStringField("logger", logger);
            g.writeStringField("message", message);
            for (Map.Entry<String, String> e : ctx.fields().entrySet()) {
                g.writeStringField(e.getKey(), e.getValue());
            }
            if (fields != null) {
                for (Map.Entry<String, ?> e : fields.entrySet()) {
                    g.writeStringField(e.getKey(), String.valueOf(e.getValue()));
                }
            }
            if (error != null) {
                g.writeStringField("error", error.getClass().getName());
                g.writeStringField("errorMessage", String.valueOf(error.getMessage()));
            }
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return w.toString();
    }

    private void write(Level level, LogContext ctx, String message, Map<String, ?> fields, Throwable error) {
        if (muted.getAsBoolean()) {
            return;
        }
        out.println(render(level, ctx, message, fields, error));
    }
}
