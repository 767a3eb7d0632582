package dev.interlock.testing;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.wiring.Deps;
import dev.interlock.wiring.priming.Priming;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Priming a real handler with its bundled events: Deps whose every AWS endpoint is a local server that counts what
 * reaches it (and answers 500), so a test proves priming ran every event without a failure and without a single
 * request leaving the process.
 */
public final class PrimingCheck implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger requests = new AtomicInteger();
    private final Deps deps;
    private final ByteArrayOutputStream logged = new ByteArrayOutputStream();

    private PrimingCheck(InterlockFunction function) {
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", exchange -> {
            requests.incrementAndGet();
            exchange.sendResponseHeaders(500, -1);
            exchange.close();
        });
        server.start();
        String endpoint = "http://127.0.0.1:" + server.getAddress().getPort();
        Map<String, String> env = new HashMap<>();
        for (EnvVar v : EnvVar.values()) {
            if (v.name().startsWith("INTERLOCK_ENDPOINT_")) {
                env.put(v.name(), endpoint);
            }
        }
        env.put(EnvVar.TABLE_NAME.name(), "interlock");
        env.put(EnvVar.STATE_MACHINE_ARN.name(), "arn:aws:states:us-east-1:123456789012:stateMachine:interlock");
        env.put(EnvVar.ALERT_TOPIC_ARN.name(), "arn:aws:sns:us-east-1:123456789012:interlock-alerts");
        env.put(EnvVar.AWS_REGION.name(), "us-east-1");
        deps = new Deps(Environment.of(env), Clock.systemUTC());
        deps.environment().requireFor(function);
    }

    public static PrimingCheck start(InterlockFunction function) {
        return new PrimingCheck(function);
    }

    /**
     * Primes the handler {@code rehearsal} builds over this check's Deps with the events bundled beside
     * {@code handlerClass}, and asserts {@link #assertClean} of the report.
     */
    public static void assertRehearsesCleanly(
            InterlockFunction function,
            Class<?> handlerClass,
            java.util.function.Function<Deps, Priming.Rehearsal> rehearsal,
            boolean callsAws,
            String... expectedErrors) {
        try (PrimingCheck check = start(function)) {
            // The handler is built inside the capture: its loggers take System.out when they are made.
            ByteArrayOutputStream printedWhilePriming = new ByteArrayOutputStream();
            PrintStream stdout = System.out;
            System.setOut(new PrintStream(
                    whilePriming(check.deps().offline(), printedWhilePriming, stdout), true, StandardCharsets.UTF_8));
            Priming.Report report;
            try {
                Priming.Rehearsal handler = rehearsal.apply(check.deps());
                report = Priming.prime(check.deps().offline(), function, handlerClass, handler, check.log());
            } finally {
                System.setOut(stdout);
            }
            check.assertClean(report, handlerClass, callsAws, expectedErrors);
            assertThat(printedWhilePriming.toString(StandardCharsets.UTF_8))
                    .as("what the handler logged while priming (every logger Deps makes is muted then)")
                    .isEmpty();
        }
    }

    /** Bytes written on a thread that {@code offline} primes go to {@code priming}, all others to {@code otherwise}. */
    private static OutputStream whilePriming(
            OfflineMode offline, ByteArrayOutputStream priming, PrintStream otherwise) {
        return new OutputStream() {
            @Override
            public void write(int b) {
                if (offline.active()) {
                    priming.write(b);
                } else {
                    otherwise.write(b);
                }
            }

            @Override
            public void write(byte[] bytes, int offset, int length) {
                if (offline.active()) {
                    priming.write(bytes, offset, length);
                } else {
                    otherwise.write(bytes, offset, length);
                }
            }
        };
    }

    public Deps deps() {
        return deps;
    }

    /** Where the priming report line goes (kept for assertions). */
    public StructuredLog log() {
        return new StructuredLog("priming", new PrintStream(logged, true, StandardCharsets.UTF_8), Clock.systemUTC());
    }

    public String logged() {
        return logged.toString(StandardCharsets.UTF_8);
    }

    /** Requests that reached the endpoints. */
    public int requests() {
        return requests.get();
    }

    /**
     * The report covers every bundled event, none failed, nothing reached an endpoint, and (for functions that call
     * AWS while answering them) the SDK's pipeline ran against the local answers. {@code expectedErrors} are the
     * failures an event must end in because an empty store cannot answer it further (each as the start of the
     * reported "class: message").
     */
    public void assertClean(Priming.Report report, Class<?> handlerClass, boolean callsAws, String... expectedErrors) {
        List<byte[]> events = Priming.events(handlerClass);
        assertThat(report.errors()).as("priming errors").hasSize(expectedErrors.length);
        for (int i = 0; i < expectedErrors.length; i++) {
            assertThat(report.errors().get(i)).startsWith(expectedErrors[i]);
        }
        assertThat(report.events()).isEqualTo(events.size());
        assertThat(requests())
                .as("requests that left the process while priming")
                .isZero();
        if (callsAws) {
            assertThat(deps.clients().answeredLocally())
                    .as("AWS requests answered locally")
                    .isPositive();
        }
        assertThat(logged())
                .contains("\"message\":\"primed\"")
                .contains("\"failures\":\"" + expectedErrors.length + "\"");
    }

    @Override
    public void close() {
        deps.close();
        server.stop(0);
    }
}
