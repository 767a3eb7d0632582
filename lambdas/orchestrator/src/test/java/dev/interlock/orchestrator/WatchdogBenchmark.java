package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.Backoff;
import dev.interlock.store.Retention;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.store.dynamodb.RequestCounter;
import dev.interlock.testing.Documents;
import dev.interlock.wiring.alert.AlertPublisher;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a watchdog tick costs as registrations grow: 2,400 / 24,000 / 240,000 registered schedules
 * (100 / 1,000 / 10,000 hourly pipelines), on DynamoDB Local over loopback HTTP with the real DynamoDB Provider and
 * the orchestrator's watchdog action. Prints, per size: the one-time first tick on a table (it adopts nothing here,
 * but lists every pipeline once), a steady tick with nothing due, and a tick with 1 % of the registered schedules
 * due: wall time, DynamoDB requests and the capacity DynamoDB Local reports. Run with
 * {@code ./mvnw -Pbenchmarks -pl lambdas/orchestrator -am verify -DskipTests -Dbench.provider.skip=true};
 * {@code -Dinterlock.bench.watchdogPipelines}
 * takes other sizes (comma-separated pipeline counts). Each size runs in both forms of an hourly pipeline: 24
 * {@code hNN} schedule entries, and one cron schedule ({@code MM * * * *}, one window per firing);
 * {@code -Dinterlock.bench.watchdogForms=cron} runs one.
 */
public final class WatchdogBenchmark {

    private static final Instant MIDNIGHT = Instant.parse("2026-03-02T00:00:00Z");
    private static final int REGISTRATION_THREADS = 8;

    private WatchdogBenchmark() {}

    /** What one tick cost. */
    private record Tick(long millis, long requests, double readUnits, double writeUnits, JsonNode summary) {}

    public static void main(String[] args) throws Exception {
        int[] sizes = Arrays.stream(System.getProperty("interlock.bench.watchdogPipelines", "100,1000,10000")
                        .split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .mapToInt(Integer::parseInt)
                .toArray();
        System.out.printf(
                "Watchdog tick on DynamoDB Local 2.6.1 over loopback HTTP, %d cores, Java %s%n",
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        System.out.println(
                "Hourly pipelines (24 schedules each: after HH:12 for 24 % of them, HH:40 for the rest, deadline +45m).");
        System.out.println(
                "'1 % due': the tick at 00:15, after the 00:12 windows of 24 % of the pipelines opened = 1 % of all schedules.");
        System.out.println();
        System.out.printf(
                "%-7s %9s %9s %14s | %-28s | %-28s | %-40s%n",
                "form",
                "schedules",
                "pipelines",
                "registration",
                "first tick (once per table)",
                "steady tick, nothing due",
                "tick with 1 % due");
        System.out.printf(
                "%-7s %9s %9s %14s | %9s %8s %9s | %9s %8s %9s | %9s %8s %7s %7s %6s%n",
                "",
                "",
                "",
                "s",
                "ms",
                "requests",
                "RCU",
                "ms",
                "requests",
                "RCU",
                "ms",
                "requests",
                "RCU",
                "WCU",
                "due");
        List<String> forms = Arrays.stream(System.getProperty("interlock.bench.watchdogForms", "entries,cron")
                        .split(","))
                .map(String::trim)
                .filter(s -> !s.isEmpty())
                .toList();
        try (LocalDynamoDb local = LocalDynamoDb.start()) {
            for (int pipelines : sizes) {
                for (String form : forms) {
                    run(local, pipelines, form.equals("cron"));
                }
            }
        }
        // DynamoDB Local keeps a non-daemon thread alive after stop(), which would keep the Maven build waiting.
        System.exit(0);
    }

    private static void run(LocalDynamoDb local, int pipelines, boolean cron) throws Exception {
        RequestCounter counter = new RequestCounter();
        String table = "watchdog-" + pipelines + (cron ? "-cron" : "");
        try (DynamoDbClient client = local.client(counter)) {
            InterlockTable.createIfAbsent(client, table, TableDefinition.INTERLOCK);
            ManualClock clock = new ManualClock(MIDNIGHT);
            DynamoDbProvider provider =
                    new DynamoDbProvider(client, table, clock, Retention.DEFAULT, Backoff.standard());
            long registering = System.nanoTime();
            register(provider, pipelines, cron);
            double registrationSeconds = (System.nanoTime() - registering) / 1e9;

            StructuredLog quiet =
                    new StructuredLog("orchestrator", new PrintStream(OutputStream.nullOutputStream()), clock);
            AtomicInteger alerts = new AtomicInteger();
            AlertPublisher publisher = alert -> alerts.incrementAndGet();
            Orchestrator orchestrator =
                    new Orchestrator(provider, clock, publisher, new OrchestratorSettings(14400, 3, 30), quiet);

            clock.set(MIDNIGHT.plus(Duration.ofMinutes(5)));
            Tick first = tick(orchestrator, counter);
            List<Tick> steady = new ArrayList<>();
            for (int minute = 6; minute <= 10; minute++) {
                clock.set(MIDNIGHT.plus(Duration.ofMinutes(minute)));
                steady.add(tick(orchestrator, counter));
            }
            Tick quietTick = steady.stream()
                    .sorted((a, b) -> Long.compare(a.millis(), b.millis()))
                    .toList()
                    .get(steady.size() / 2);
            clock.set(MIDNIGHT.plus(Duration.ofMinutes(15)));
            Tick due = tick(orchestrator, counter);

            System.out.printf(
                    "%-7s %9d %9d %14.1f | %9d %8d %9.1f | %9d %8d %9.1f | %9d %8d %7.1f %7.1f %6d%n",
                    cron ? "cron" : "entries",
                    pipelines * 24,
                    pipelines,
                    registrationSeconds,
                    first.millis(),
                    first.requests(),
                    first.readUnits(),
                    quietTick.millis(),
                    quietTick.requests(),
                    quietTick.readUnits(),
                    due.millis(),
                    due.requests(),
                    due.readUnits(),
                    due.writeUnits(),
                    due.summary().path("markersWritten").size());
            if (due.summary().path("markersWritten").size() != expectedDue(pipelines)
                    || quietTick.summary().path("dueEntries").asInt() != 0) {
                System.out.println("  (unexpected: " + due.summary() + ")");
            }
        }
    }

    /** The pipelines whose hourly windows open at :12 (24 % of them), each with one window open at 00:15. */
    private static int expectedDue(int pipelines) {
        int due = 0;
        for (int i = 0; i < pipelines; i++) {
            if (opensAt12(i)) {
                due++;
            }
        }
        return due;
    }

    private static boolean opensAt12(int i) {
        return i % 25 < 6;
    }

    private static void register(DynamoDbProvider provider, int pipelines, boolean cron) throws Exception {
        try (ExecutorService pool = Executors.newFixedThreadPool(REGISTRATION_THREADS)) {
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < pipelines; i++) {
                int n = i;
                done.add(pool.submit(() -> provider.pipelines().put(cron ? hourlyCron(n) : hourly(n))));
            }
            for (Future<?> f : done) {
                f.get();
            }
        }
    }

    private static PipelineConfig hourly(int i) {
        int minute = opensAt12(i) ? 12 : 40;
        StringBuilder yaml = new StringBuilder("name: p%05d\narchetype: batch-ingestion\n".formatted(i)
                + "trigger: {type: http, url: https://jobs.example.com/run}\nschedules:\n");
        for (int h = 0; h < 24; h++) {
            yaml.append("  - {name: h%02d, after: '%02d:%02d', deadline: '+45m'}\n".formatted(h, h, minute));
        }
        return Documents.read(yaml.toString(), PipelineConfig.class);
    }

    /** The same pipeline as {@link #hourly} in one line: a cron schedule, one window (pipeline day) per firing. */
    private static PipelineConfig hourlyCron(int i) {
        int minute = opensAt12(i) ? 12 : 40;
        return Documents.read(
                "name: p%05d\narchetype: batch-ingestion\n".formatted(i)
                        + "trigger: {type: http, url: https://jobs.example.com/run}\n"
                        + "schedules: [{name: hourly, cron: '%d * * * *', deadline: '+45m'}]\n".formatted(minute),
                PipelineConfig.class);
    }

    private static Tick tick(Orchestrator orchestrator, RequestCounter counter) {
        counter.reset();
        long start = System.nanoTime();
        var response = orchestrator.handle(
                InterlockJson.json().createObjectNode().put("action", OrchestratorAction.WATCHDOG.wireName()));
        long millis = (System.nanoTime() - start) / 1_000_000;
        long requests = 0;
        double read = 0;
        double write = 0;
        for (RequestCounter.Count c : counter.snapshot().values()) {
            requests += c.requests();
            read += c.readUnits();
            write += c.writeUnits();
        }
        return new Tick(millis, requests, read, write, response.payload());
    }
}
