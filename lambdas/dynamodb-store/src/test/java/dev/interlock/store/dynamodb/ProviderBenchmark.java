package dev.interlock.store.dynamodb;

import static dev.interlock.store.contract.StoreSamples.DATE;
import static dev.interlock.store.contract.StoreSamples.event;
import static dev.interlock.store.contract.StoreSamples.failedOnceMore;
import static dev.interlock.store.contract.StoreSamples.marker;
import static dev.interlock.store.contract.StoreSamples.pipeline;
import static dev.interlock.store.contract.StoreSamples.rerun;
import static dev.interlock.store.contract.StoreSamples.run;
import static dev.interlock.store.contract.StoreSamples.runLog;
import static dev.interlock.store.contract.StoreSamples.trait;
import static dev.interlock.store.contract.StoreSamples.withEntry;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.AlertKey;
import dev.interlock.store.Backoff;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.Retention;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.RunTransition;
import dev.interlock.store.StatusReader;
import dev.interlock.testing.Documents;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Prints what each store operation costs on DynamoDB Local (requests per call by API, and the capacity units
 * DynamoDB reports) and how many run-state CAS per second succeed as writers contend for one run. A benchmark, not a
 * test: it asserts nothing. Run with {@code ./mvnw -Pbenchmarks -pl lambdas/dynamodb-store -am verify}.
 */
public final class ProviderBenchmark {

    private static final int CALLS = 40;
    /** The fleet the overview is read for: the console's 1,000 pipelines. */
    private static final int OVERVIEW_PIPELINES = 1_000;
    /** Refreshes of the whole overview timed after the first (which warms the JVM). */
    private static final int OVERVIEW_REFRESHES = 3;

    private static final Duration CAS_WINDOW = Duration.ofSeconds(4);

    private final RequestCounter counter;
    private final Provider provider;

    private ProviderBenchmark(DynamoDbClient client, RequestCounter counter, String table) {
        this.counter = counter;
        this.provider = new DynamoDbProvider(client, table, Clock.systemUTC(), Retention.DEFAULT, Backoff.standard());
    }

    public static void main(String[] args) throws Exception {
        try (LocalDynamoDb local = LocalDynamoDb.start()) {
            RequestCounter counter = new RequestCounter();
            try (DynamoDbClient client = local.client(counter)) {
                InterlockTable.createIfAbsent(client, "benchmark", TableDefinition.INTERLOCK);
                ProviderBenchmark benchmark = new ProviderBenchmark(client, counter, "benchmark");
                System.out.printf(
                        "Interlock Provider benchmark on DynamoDB Local 2.6.1 over loopback HTTP, %d cores, %s%n%n",
                        Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
                if (!Boolean.getBoolean("bench.overviewOnly")) {
                    benchmark.costPerOperation();
                    benchmark.casUnderContention();
                }
                benchmark.overviewOfAFleet(Integer.getInteger("bench.overviewPipelines", OVERVIEW_PIPELINES));
            }
        }
        // DynamoDB Local keeps a non-daemon executor thread ("pool-N-thread-1") alive after stop(), which would
        // keep this JVM, and the Maven build waiting on it, running for minutes.
        System.exit(0);
    }

    private void costPerOperation() {
        System.out.println(
                "Cost per store operation (mean of " + CALLS + " calls; RCU/WCU as DynamoDB Local reports them)");
        System.out.printf("%-34s %-44s %8s %8s %9s%n", "store operation", "requests per call", "RCU", "WCU", "ms/call");
        provider.pipelines().put(pipeline("upstream"));
        measure("pipelines.put (new, 1 upstream)", i -> provider.pipelines().put(pipeline("p" + i, "upstream")));
        measure("pipelines.put (upstream changed)", i -> provider.pipelines().put(pipeline("p" + i, "other")));
        measure("pipelines.get", i -> provider.pipelines().get("p" + i));
        measure(
                "pipelines.getAll (40 ids)",
                i -> provider.pipelines()
                        .getAll(java.util.stream.IntStream.range(0, CALLS)
                                .mapToObj(n -> "p" + n)
                                .toList()));
        measure("pipelines.list (page of 20)", i -> provider.pipelines().list(PageRequest.first(20)));
        measure("cascade.downstreamOf", i -> provider.cascade().downstreamOf("other"));
        measure(
                "traits.put",
                i -> provider.traits().put(trait("p0", DATE, "daily", "t" + i, TraitStatus.PASS, now(), null)));
        measure("traits.list (40 results)", i -> provider.traits().list("p0", DATE, "daily"));
        measure("runs.create", i -> provider.runs().create(run("r" + i, "p0", now())));
        measure("runs.get", i -> provider.runs().get("r" + i));
        measure(
                "runs.compareAndSwap (wins)",
                i -> provider.runs().compareAndSwap(1, run("r" + i, "p0", now()).moveTo(RunStatus.TRIGGERING, now())));
        measure(
                "runs.compareAndSwap (loses)",
                i -> provider.runs().compareAndSwap(1, run("r" + i, "p0", now()).moveTo(RunStatus.TRIGGERING, now())));
        measure("runs.listByPipeline (page of 20)", i -> provider.runs().listByPipeline("p0", PageRequest.first(20)));
        measure(
                "runLogs.update (new entry)",
                i -> provider.runLogs()
                        .update(
                                new RunLogKey("p" + i, DATE, "daily"),
                                c -> runLog("p" + i, DATE, "daily", RunLogStatus.PENDING, 0, List.of(), now())));
        measure(
                "runLogs.update (existing entry)",
                i -> provider.runLogs()
                        .update(
                                new RunLogKey("p" + i, DATE, "daily"),
                                c -> failedOnceMore(c.orElseThrow(), "r" + i, now())));
        measure(
                "recordTransition (run+log+event)",
                i -> provider.recordTransition(RunTransition.of(
                        2,
                        run("r" + i, "p0", now())
                                .moveTo(RunStatus.TRIGGERING, now())
                                .moveTo(RunStatus.FAILED, now()),
                        new RunLogKey("p" + i, DATE, "daily"),
                        c -> failedOnceMore(c.orElseThrow(), "r" + i, now()),
                        event("p" + i, now(), "failed"))));
        measure("events.append", i -> provider.events().append(event("p0", now(), "e" + i)));
        measure("events.read (page of 20)", i -> provider.events().read("p0", PageRequest.first(20)));
        measure(
                "cascade.writeMarker (new)",
                i -> provider.cascade()
                        .writeMarker(marker(
                                "p0",
                                MarkerSource.CASCADE,
                                TableKeys.cascadeMarkerSuffix("upstream", "run-" + i),
                                DATE)));
        measure(
                "cascade.writeMarker (duplicate)",
                i -> provider.cascade()
                        .writeMarker(marker(
                                "p0",
                                MarkerSource.CASCADE,
                                TableKeys.cascadeMarkerSuffix("upstream", "run-" + i),
                                DATE)));
        measure(
                "locks.acquire",
                i -> provider.locks()
                        .acquire(
                                new LockKey("p" + i, "daily", java.time.LocalDate.of(2026, 3, 1)),
                                "exec-" + i,
                                Duration.ofHours(5)));
        measure(
                "locks.release",
                i -> provider.locks()
                        .release(new LockKey("p" + i, "daily", java.time.LocalDate.of(2026, 3, 1)), "exec-" + i));
        measure(
                "alerts.claim",
                i -> provider.alerts()
                        .claim(
                                new AlertKey(AlertKind.SLA_MISSED, "p" + i, DATE, "daily"),
                                "exec-" + i,
                                Duration.ofMinutes(5)));
        measure(
                "acceptRerun (rerun+copy+counter+marker+event)",
                i -> provider.acceptRerun(
                        rerun("ar" + i, "p" + i, DATE, "daily", now()),
                        marker("p" + i, MarkerSource.RERUN, "ar" + i, DATE),
                        event("p" + i, now(), "rerun requested"),
                        3));
        measure(
                "acceptRerun (budget spent)",
                i -> provider.acceptRerun(
                        rerun("ar-late" + i, "p0", DATE, "daily", now()),
                        marker("p0", MarkerSource.RERUN, "ar-late" + i, DATE),
                        event("p0", now(), "rerun requested"),
                        3));
        measure("reruns.count (3 reruns)", i -> provider.reruns().count("p0", DATE, "daily"));
        measure(
                "reruns.forExecution (3 reruns)",
                i -> provider.reruns().forExecution("p0", DATE, "daily", "exec-ar-late2"));
        measure(
                "moveRerun (PENDING -> STARTED)",
                i -> provider.moveRerun(
                        RerunStatus.PENDING,
                        rerun("ar" + i, "p" + i, DATE, "daily", now())
                                .movedTo(RerunStatus.STARTED, "", "run-" + i, now()),
                        event("p" + i, now(), "rerun started")));
        measure(
                "moveRerun (moved already)",
                i -> provider.moveRerun(
                        RerunStatus.PENDING,
                        rerun("ar" + i, "p" + i, DATE, "daily", now())
                                .movedTo(RerunStatus.STARTED, "", "run-" + i, now()),
                        event("p" + i, now(), "rerun started")));
        System.out.println();
    }

    /** A store call made {@link #CALLS} times. */
    @FunctionalInterface
    private interface Call {
        void run(int i);
    }

    private void measure(String name, Call call) {
        Map<String, RequestCounter.Count> total = new java.util.TreeMap<>();
        long nanos = 0;
        for (int i = 0; i < CALLS; i++) {
            counter.reset();
            long start = System.nanoTime();
            call.run(i);
            nanos += System.nanoTime() - start;
            counter.snapshot()
                    .forEach((k, c) -> total.merge(
                            k,
                            c,
                            (a, b) -> new RequestCounter.Count(
                                    a.requests() + b.requests(),
                                    a.readUnits() + b.readUnits(),
                                    a.writeUnits() + b.writeUnits())));
        }
        StringBuilder requests = new StringBuilder();
        double rcu = 0;
        double wcu = 0;
        for (var e : total.entrySet()) {
            String apiCall = e.getKey().substring(e.getKey().indexOf(' ') + 1);
            requests.append(requests.isEmpty() ? "" : " + ")
                    .append(String.format(
                            Locale.ROOT, "%.2g %s", (double) e.getValue().requests() / CALLS, apiCall));
            rcu += e.getValue().readUnits();
            wcu += e.getValue().writeUnits();
        }
        System.out.printf(
                Locale.ROOT,
                "%-34s %-44s %8.2f %8.2f %9.2f%n",
                name,
                requests,
                rcu / CALLS,
                wcu / CALLS,
                nanos / 1e6 / CALLS);
    }

    private void casUnderContention() throws Exception {
        System.out.println("Run-state CAS under contention (read + compareAndSwap until it wins; "
                + CAS_WINDOW.toSeconds() + " s per row)");
        System.out.printf("%-8s %-10s %14s %14s %12s%n", "writers", "runs", "swaps/s", "attempts/s", "conflicts");
        for (int writers : new int[] {1, 2, 4, 8, 16}) {
            cas(writers, true);
        }
        for (int writers : new int[] {4, 16}) {
            cas(writers, false);
        }
    }

    private void cas(int writers, boolean oneRun) throws Exception {
        String prefix = "cas-" + writers + "-" + oneRun;
        for (int w = 0; w < (oneRun ? 1 : writers); w++) {
            provider.runs().create(run(prefix + "-" + w, "bench", now()));
        }
        AtomicLong swaps = new AtomicLong();
        AtomicLong attempts = new AtomicLong();
        CyclicBarrier start = new CyclicBarrier(writers + 1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String runId = prefix + "-" + (oneRun ? 0 : w);
            int writer = w;
            futures.add(pool.submit(() -> {
                start.await();
                long end = System.nanoTime() + CAS_WINDOW.toNanos();
                while (System.nanoTime() < end) {
                    RunState current = provider.runs().get(runId).orElseThrow();
                    attempts.incrementAndGet();
                    if (provider.runs()
                            .compareAndSwap(
                                    current.version(),
                                    withEntry(current, "w" + writer + "-" + current.version(), now()))) {
                        swaps.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        start.await();
        long began = System.nanoTime();
        for (Future<?> f : futures) {
            f.get();
        }
        double seconds = (System.nanoTime() - began) / 1e9;
        pool.shutdown();
        System.out.printf(
                Locale.ROOT,
                "%-8d %-10s %14.0f %14.0f %11.0f%%%n",
                writers,
                oneRun ? "one" : "one each",
                swaps.get() / seconds,
                attempts.get() / seconds,
                100.0 * (attempts.get() - swaps.get()) / Math.max(1, attempts.get()));
    }

    /**
     * What a refresh of the web UI's overview costs for a fleet: every page of {@code GET /status} (100 pipelines a
     * page, as the UI asks) read by the API's {@link StatusReader} at once. Nine in ten pipelines are daily, one in ten
     * hourly (24 windows a day); every other one has a run log today. Prints requests per pipeline by API call, the
     * read units DynamoDB Local reports and the time of a whole refresh.
     */
    private void overviewOfAFleet(int pipelines) throws Exception {
        java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneOffset.UTC);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> puts = new ArrayList<>();
        for (int i = 0; i < pipelines; i++) {
            String name = String.format(Locale.ROOT, "fleet-%05d", i);
            boolean hourly = i % 10 == 9;
            boolean started = i % 2 == 0;
            puts.add(pool.submit(() -> {
                provider.pipelines()
                        .put(Documents.read(
                                """
                        name: %s
                        archetype: batch-ingestion
                        team: team-%d
                        trigger: {type: http, url: "http://127.0.0.1:9/job"}
                        schedules: [%s]
                        """.formatted(
                                                name,
                                                name.hashCode() % 10,
                                                hourly
                                                        ? "{name: hourly, cron: \"0 * * * *\"}"
                                                        : "{name: daily, deadline: \"23:30\"}"),
                                dev.interlock.model.pipeline.PipelineConfig.class));
                if (started && !hourly) {
                    provider.runLogs()
                            .update(
                                    new RunLogKey(name, today, "daily"),
                                    // No run id: a run a day's log names is among the recent runs read anyway, and
                                    // a fixture without runs would otherwise read each by id.
                                    c -> new RunLog(
                                            name,
                                            today,
                                            "daily",
                                            RunLogStatus.COMPLETED,
                                            0,
                                            null,
                                            null,
                                            null,
                                            null,
                                            List.of(),
                                            false,
                                            now(),
                                            now(),
                                            now(),
                                            List.of()));
                }
                return null;
            }));
        }
        for (Future<?> put : puts) {
            put.get();
        }
        pool.shutdown();
        StatusReader reader = new StatusReader(provider, Clock.systemUTC());
        System.out.printf(
                "Overview of %d pipelines (GET /status, pages of 100: 9 in 10 daily, 1 in 10 hourly; half the daily"
                        + " ones with a run log)%n",
                pipelines);
        System.out.printf("%-12s %10s %-70s %10s%n", "refresh", "ms", "requests per pipeline", "RCU/pipe");
        for (int refresh = 0; refresh <= OVERVIEW_REFRESHES; refresh++) {
            counter.reset();
            long start = System.nanoTime();
            int lines = 0;
            PageRequest page = PageRequest.first(100);
            while (page != null) {
                dev.interlock.store.Page<dev.interlock.model.status.StatusLine> read = reader.overview(null, page);
                lines += read.items().size();
                page = read.nextCursor() == null ? null : new PageRequest(100, read.nextCursor());
            }
            long millis = (System.nanoTime() - start) / 1_000_000;
            if (lines != pipelines) {
                throw new IllegalStateException("the overview read " + lines + " lines of " + pipelines);
            }
            Map<String, Double> perApi = new java.util.TreeMap<>();
            double rcu = 0;
            long requests = 0;
            for (var e : counter.snapshot().entrySet()) {
                String apiCall = e.getKey().substring(e.getKey().lastIndexOf(' ') + 1);
                perApi.merge(apiCall, (double) e.getValue().requests() / pipelines, Double::sum);
                rcu += e.getValue().readUnits();
                requests += e.getValue().requests();
            }
            StringBuilder shown =
                    new StringBuilder(String.format(Locale.ROOT, "%.2f =", (double) requests / pipelines));
            perApi.forEach((api, n) -> shown.append(String.format(Locale.ROOT, " %.2f %s", n, api)));
            System.out.printf(
                    Locale.ROOT,
                    "%-12s %10d %-70s %10.2f%n",
                    refresh == 0 ? "first (cold)" : "refresh " + refresh,
                    millis,
                    shown,
                    rcu / pipelines);
        }
        System.out.println();
    }

    private static java.time.Instant now() {
        return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }
}
