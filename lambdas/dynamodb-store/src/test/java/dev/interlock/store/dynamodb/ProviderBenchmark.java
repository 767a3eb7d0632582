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
                benchmark.costPerOperation();
                benchmark.casUnderContention();
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

    private static java.time.Instant now() {
        return java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MILLIS);
    }
}
