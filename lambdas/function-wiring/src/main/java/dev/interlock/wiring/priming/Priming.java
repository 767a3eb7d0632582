package dev.interlock.wiring.priming;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.runtime.priming.PrimingHttpClient;
import dev.interlock.wiring.Deps;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Warms a function before its first real event: the handler answers its bundled priming events
 * ({@code priming-events.json} next to the handler class) while every AWS call is answered locally by
 * {@link PrimingHttpClient} and outbound HTTP is answered by {@code GuardedHttp} without a connection — so the
 * classes, the SDK's request pipeline, Jackson's serializers and the function's own code paths are loaded and run
 * once, with no connection opened, no credentials fetched, nothing written and nothing logged.
 *
 * <p>When it runs ({@code INTERLOCK_PRIMING}): {@code auto} (the default) primes where init time is not on the
 * request path — before a SnapStart snapshot (a CRaC {@code beforeCheckpoint} hook, so every restored copy starts
 * warm) and in provisioned-concurrency init; on-demand cold starts stay lazy. {@code always} primes during every
 * init; {@code never} turns it off.
 */
public final class Priming {

    /** {@code INTERLOCK_PRIMING}. */
    public enum Mode {
        AUTO,
        ALWAYS,
        NEVER;

        static Mode parse(String raw) {
            try {
                return valueOf(raw.trim().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new IllegalStateException(
                        EnvVar.INTERLOCK_PRIMING.name() + " must be auto, always or never, got '" + raw + "'", e);
            }
        }
    }

    /** What {@link #onInit} decided. */
    public enum Decision {
        /** Primed during this init. */
        PRIMED_NOW,
        /** Registered to prime before the SnapStart snapshot. */
        BEFORE_SNAPSHOT,
        /** Not primed (on-demand init under {@code auto}, or {@code never}). */
        SKIPPED
    }

    /** One priming pass: the events rehearsed, how many threw and what (class: message), and how long it took. */
    public record Report(int events, int failures, List<String> errors, long millis) {
        public Report {
            errors = List.copyOf(errors);
        }
    }

    /** CRaC holds registered resources weakly; these must live as long as the container. */
    private static final List<SnapshotHook> HOOKS = new CopyOnWriteArrayList<>();

    private Priming() {}

    /** The hook registered last (tests run it the way SnapStart would). */
    static SnapshotHook lastHook() {
        return HOOKS.getLast();
    }

    /**
     * Called by a handler's Lambda constructor (after its fields are set): primes now, registers a pre-snapshot hook,
     * or does nothing, by {@code INTERLOCK_PRIMING} and Lambda's {@code AWS_LAMBDA_INITIALIZATION_TYPE}.
     *
     * <p>How every handler boots, said once here: the Lambda constructor {@code ()} takes the container's lazy
     * {@code Deps} (checked for every variable its function needs) and calls this; before a SnapStart snapshot (or in
     * provisioned-concurrency init) the handler rehearses its function's bundled priming events, so the classes and
     * the code paths of a first request are loaded before the snapshot, with no connection and no clock reading kept
     * in it. The {@code (Deps)} constructor is the local runtime's, and the third, over the function's domain
     * operation, is the tests'.
     */
    public static Decision onInit(Deps deps, InterlockFunction function, RequestStreamHandler handler) {
        return onInit(deps, function, handler.getClass(), rehearsal(handler));
    }

    /** {@link #onInit(Deps, InterlockFunction, RequestStreamHandler)} for a handler of typed events. */
    public static <I> Decision onInit(
            Deps deps, InterlockFunction function, RequestHandler<I, ?> handler, Class<I> eventType) {
        return onInit(deps, function, handler.getClass(), rehearsal(handler, eventType));
    }

    /** How a handler answers one priming event (its output is discarded). */
    @FunctionalInterface
    public interface Rehearsal {
        void answer(byte[] event, Context context) throws Exception;
    }

    /** A stream handler's rehearsal: the event as its input stream, the answer written nowhere. */
    public static Rehearsal rehearsal(RequestStreamHandler handler) {
        return (event, context) ->
                handler.handleRequest(new ByteArrayInputStream(event), OutputStream.nullOutputStream(), context);
    }

    /** A typed handler's rehearsal: the event read into its type with the shared codec. */
    public static <I> Rehearsal rehearsal(RequestHandler<I, ?> handler, Class<I> eventType) {
        return (event, context) -> handler.handleRequest(InterlockJson.json().readValue(event, eventType), context);
    }

    private static Decision onInit(Deps deps, InterlockFunction function, Class<?> handlerClass, Rehearsal rehearsal) {
        Environment env = deps.environment();
        Mode mode = Mode.parse(env.get(EnvVar.INTERLOCK_PRIMING));
        String initType = env.get(EnvVar.AWS_LAMBDA_INITIALIZATION_TYPE);
        StructuredLog log = deps.log("priming");
        if (mode == Mode.NEVER
                || (mode == Mode.AUTO
                        && !initType.equals("snap-start")
                        && !initType.equals("provisioned-concurrency"))) {
            return Decision.SKIPPED;
        }
        if (mode == Mode.AUTO && initType.equals("snap-start")) {
            HOOKS.add(SnapshotHook.register(() -> primeAll(deps, function, handlerClass, rehearsal, log)));
            return Decision.BEFORE_SNAPSHOT;
        }
        primeAll(deps, function, handlerClass, rehearsal, log);
        return Decision.PRIMED_NOW;
    }

    /** The handler's events, then — for the functions that resolve credentials — a rehearsed secret and parameter read. */
    private static void primeAll(
            Deps deps, InterlockFunction function, Class<?> handlerClass, Rehearsal rehearsal, StructuredLog log) {
        prime(deps.offline(), function, handlerClass, rehearsal, log);
        if (EnvVar.usedBy(function).contains(EnvVar.INTERLOCK_SECRET_CACHE_SECONDS)) {
            primeCredentialReads(deps, function, log);
        }
    }

    /**
     * Rehearses reading a secret and a parameter (only for the stores the deployment may read); a failure costs only
     * speed and is logged by exception class.
     */
    public static void primeCredentialReads(Deps deps, InterlockFunction function, StructuredLog log) {
        long started = System.nanoTime();
        String error = "";
        try {
            deps.offline().run(() -> {
                deps.outboundTemplates().rehearseCredentialReads();
                return null;
            });
        } catch (Throwable e) {
            error = e.getClass().getName();
        }
        log.info(
                LogContext.NONE,
                "primed credential reads",
                Map.of(
                        "function",
                        function.moduleName(),
                        "errors",
                        error,
                        "millis",
                        (System.nanoTime() - started) / 1_000_000));
    }

    /**
     * Runs the handler over each of its priming events while {@code offline} primes this thread; a failing event is
     * counted, never thrown, so a priming problem can only cost speed. Logs one line with the outcome.
     */
    public static Report prime(
            OfflineMode offline,
            InterlockFunction function,
            Class<?> handlerClass,
            Rehearsal rehearsal,
            StructuredLog log) {
        long started = System.nanoTime();
        int failures = 0;
        List<String> errors = new ArrayList<>();
        List<byte[]> events = List.of();
        try {
            events = events(handlerClass);
        } catch (RuntimeException e) {
            failures++;
            errors.add(e.getClass().getName() + ": " + e.getMessage());
        }
        for (byte[] event : events) {
            try {
                offline.run(() -> {
                    rehearsal.answer(event, new PrimingContext(function));
                    return null;
                });
            } catch (Throwable e) {
                failures++;
                errors.add(e.getClass().getName() + ": " + e.getMessage());
            }
        }
        Report report = new Report(events.size(), failures, errors, (System.nanoTime() - started) / 1_000_000);
        // Exception classes only: a message could quote configuration.
        log.info(
                LogContext.NONE,
                "primed",
                Map.of(
                        "function",
                        function.moduleName(),
                        "events",
                        report.events(),
                        "failures",
                        report.failures(),
                        "errors",
                        String.join(
                                ",",
                                errors.stream()
                                        .map(e -> e.substring(0, e.indexOf(':')))
                                        .toList()),
                        "millis",
                        report.millis()));
        return report;
    }

    /** The handler's bundled priming events: a JSON array in {@code priming-events.json} beside its class. */
    public static List<byte[]> events(Class<?> handlerClass) {
        try (InputStream in = handlerClass.getResourceAsStream("priming-events.json")) {
            if (in == null) {
                throw new IllegalStateException("no priming-events.json beside " + handlerClass.getName());
            }
            JsonNode array = InterlockJson.json().readTree(in);
            if (!array.isArray() || array.isEmpty()) {
                throw new IllegalStateException("priming-events.json of " + handlerClass.getName()
                        + " must be a non-empty JSON array of events");
            }
            List<byte[]> events = new ArrayList<>();
            for (JsonNode event : array) {
                events.add(InterlockJson.json().writeValueAsString(event).getBytes(StandardCharsets.UTF_8));
            }
            return events;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Lambda context of a priming event: the function's name, a generous deadline, a silent logger. */
    record PrimingContext(InterlockFunction function) implements Context {
        @Override
        public String getAwsRequestId() {
            return "interlock-priming";
        }

        @Override
        public String getLogGroupName() {
            return "";
        }

        @Override
        public String getLogStreamName() {
            return "";
        }

        @Override
        public String getFunctionName() {
            return function.moduleName();
        }

        @Override
        public String getFunctionVersion() {
            return "$LATEST";
        }

        @Override
        public String getInvokedFunctionArn() {
            return "";
        }

        @Override
        public com.amazonaws.services.lambda.runtime.CognitoIdentity getIdentity() {
            return null;
        }

        @Override
        public com.amazonaws.services.lambda.runtime.ClientContext getClientContext() {
            return null;
        }

        @Override
        public int getRemainingTimeInMillis() {
            return 60_000;
        }

        @Override
        public int getMemoryLimitInMB() {
            return 512;
        }

        @Override
        public com.amazonaws.services.lambda.runtime.LambdaLogger getLogger() {
            return new com.amazonaws.services.lambda.runtime.LambdaLogger() {
                @Override
                public void log(String message) {}

                @Override
                public void log(byte[] message) {}
            };
        }
    }
}
