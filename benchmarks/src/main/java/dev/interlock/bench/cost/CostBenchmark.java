package dev.interlock.bench.cost;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.infra.FunctionProfile;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.local.jobs.FakeJob;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.statemachine.engine.EventDetails;
import dev.interlock.statemachine.engine.ExecutionStatus;
import dev.interlock.statemachine.engine.ExecutionSummary;
import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import dev.interlock.store.dynamodb.RequestCounter;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * The cost of a run, in numbers (a benchmark, never a test): each scenario runs on the local runtime — the real ASL
 * on the local Step Functions service, the production handlers, DynamoDB Local — while the benchmark counts what AWS
 * would bill: state transitions from the execution histories, Lambda requests and GB-seconds (each invocation's
 * duration here times the memory {@link FunctionProfile} gives the function), DynamoDB requests with the capacity
 * DynamoDB Local reports, SNS publishes and the API request that starts the run. It prices them at
 * {@link ListPrices#US_EAST_1}, per run and per 1,000 pipeline-days, and then measures cascade latency (upstream job
 * end → downstream execution start) on a runtime in real time. See {@code benchmarks/README.md}.
 */
public final class CostBenchmark {

    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final Duration RUN_TIMEOUT = Duration.ofMinutes(10);
    private static final String ARCHETYPE = "archetype: batch-ingestion\n";
    private static final String PASS = "{evaluator: \"builtin:always-pass\"}";
    /** The long day's wait on NOT READY and its monitoring after completion. */
    static final Duration LONG_DAY_WAIT = Duration.ofHours(6);

    static final Duration LONG_DAY_MONITORING = Duration.ofHours(8);
    private static final String LONG_DAY = "long day: 6 h NOT READY, 8 h monitoring";

    private final LocalRuntime rt;
    private final FakeJobServer jobs;
    private final URI notReadyEvaluator;
    private final NotReadyEvaluator evaluator;
    private final Meter meter = Meter.GLOBAL;
    private final AtomicInteger ids = new AtomicInteger();

    private CostBenchmark(LocalRuntime rt, FakeJobServer jobs, NotReadyEvaluator evaluator) {
        this.rt = rt;
        this.jobs = jobs;
        this.evaluator = evaluator;
        this.notReadyEvaluator = evaluator == null ? null : evaluator.endpoint();
    }

    /** One scenario: its pipelines (YAML by id, in registration order); the first is started, the last ends it. */
    private record Plan(Map<String, String> pipelines) {
        String first() {
            return pipelines.keySet().iterator().next();
        }
    }

    private interface Scenario {
        Plan plan(String prefix);
    }

    /** One measured run of a scenario. */
    private record Run(Usage usage, Meter.Reading reading, List<String> executions) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> options = options(args);
        int runs = Integer.parseInt(options.getOrDefault("runs", "2"));
        double scale = Double.parseDouble(options.getOrDefault("time-scale", "60"));
        int latencySamples = Integer.parseInt(options.getOrDefault("latency-samples", "20"));
        // Substrings of the scenario names to run, comma-separated (all when empty); the long day runs once, it is 14
        // product hours.
        String only = options.getOrDefault("scenarios", "");
        Path json = Path.of(options.getOrDefault("json", "target/cost-of-a-run.json"));
        PrintStream report = System.out;
        Path functionLog = json.resolveSibling("cost-of-a-run-functions.log");
        Files.createDirectories(functionLog.toAbsolutePath().getParent());
        // The functions log a JSON line per action; keep them out of the report.
        System.setOut(new PrintStream(Files.newOutputStream(functionLog), true));
        String loadBefore = load();

        ObjectNode out = InterlockJson.json().createObjectNode();
        out.put("pricesReadOn", ListPrices.READ_ON);
        out.put("timeScale", scale);
        out.put("runs", runs);
        Map<String, List<Run>> results = new LinkedHashMap<>();
        Map<String, Integer> pipelinesPer = new LinkedHashMap<>();
        Map<String, Scenario> scenarios = new LinkedHashMap<>();

        try (NotReadyEvaluator evaluator = NotReadyEvaluator.start(3);
                LocalRuntime rt = LocalRuntime.start(
                        options(scale),
                        new MeteredFunctions(new ProductionFunctions(), Meter.GLOBAL),
                        s -> {},
                        alert -> Meter.GLOBAL.snsPublished());
                FakeJobServer jobs = FakeJobServer.start(0, rt.clock(), Duration.ofMinutes(5))) {
            rt.awaitHealthy(Duration.ofSeconds(120));
            evaluator.clock(rt.clock());
            CostBenchmark bench = new CostBenchmark(rt, jobs, evaluator);
            scenarios.put("happy sync (http)", bench::happySync);
            scenarios.put("async glue, 5-min job", p -> bench.glue(p, 300));
            scenarios.put("async glue, 60-min job", p -> bench.glue(p, 3600));
            scenarios.put("async airflow, 5-min job", p -> bench.airflow(p, Duration.ofMinutes(5)));
            scenarios.put("async airflow, 60-min job", p -> bench.airflow(p, Duration.ofMinutes(60)));
            scenarios.put("NOT READY x3, then ready", bench::notReadyThenReady);
            scenarios.put("3-level cascade, glue 5-min", bench::cascade);
            scenarios.put(LONG_DAY, bench::longDay);
            List<String> chosen = List.of(only.split(","));
            scenarios.keySet().removeIf(name -> chosen.stream().noneMatch(part -> name.contains(part.trim())));
            // Warm-up: the first invocation of each handler in a fresh JVM loads its classes (SnapStart's restore on
            // AWS); measured runs are of warm functions, as most invocations of a busy deployment are.
            bench.run(bench.happySync("warm-sync"));
            bench.run(bench.glue("warm-glue", 60));
            bench.run(bench.airflow("warm-airflow", Duration.ofMinutes(1)));
            bench.run(bench.notReadyThenReady("warm-nr"));
            for (var s : scenarios.entrySet()) {
                List<Run> rs = new ArrayList<>();
                for (int i = 0; i < (s.getKey().equals(LONG_DAY) ? 1 : runs); i++) {
                    Plan plan = s.getValue().plan("r" + bench.ids.incrementAndGet());
                    pipelinesPer.put(s.getKey(), plan.pipelines().size());
                    rs.add(bench.run(plan));
                }
                results.put(s.getKey(), rs);
            }
        }

        Map<String, List<Long>> latency = new LinkedHashMap<>();
        // A run of chosen scenarios (--scenarios) skips the latency runtime.
        if (only.isEmpty()) {
            try (LocalRuntime rt = LocalRuntime.start(
                            options(1.0),
                            new MeteredFunctions(new ProductionFunctions(), Meter.GLOBAL),
                            s -> {},
                            alert -> {});
                    FakeJobServer jobs = FakeJobServer.start(0, rt.clock(), Duration.ofSeconds(2))) {
                rt.awaitHealthy(Duration.ofSeconds(120));
                CostBenchmark bench = new CostBenchmark(rt, jobs, null);
                latency.put("glue (callback type)", bench.cascadeLatency("lg", latencySamples, true));
                latency.put("airflow (poll type)", bench.cascadeLatency("la", latencySamples, false));
            }
        }

        print(report, results, pipelinesPer, latency, scale, runs, loadBefore, load(), out);
        Files.writeString(
                json, InterlockJson.json().writerWithDefaultPrettyPrinter().writeValueAsString(out));
        report.println("  (JSON: " + json.toAbsolutePath() + "; function logs: " + functionLog.toAbsolutePath() + ")");
        System.exit(0);
    }

    private static RuntimeOptions options(double scale) {
        // The watchdog and the TTL sweep are the deployment's, not a run's: they stay out of the measured windows (the
        // watchdog's own cost is WatchdogBenchmark's). Product time starts early in a UTC day so that no run
        // crosses midnight however far the scaled clock runs.
        Instant dawn = LocalDate.now(ZoneOffset.UTC)
                .atStartOfDay(ZoneOffset.UTC)
                .toInstant()
                .plus(Duration.ofMinutes(5));
        return RuntimeOptions.ephemeral(null, scale)
                .withWatchdogInterval(Duration.ofDays(365))
                .withSweepInterval(Duration.ofDays(365))
                .withClockStart(dawn);
    }

    // ---- scenarios ----

    private Plan happySync(String prefix) {
        String id = prefix + "-sync";
        return new Plan(Map.of(id, pipeline(id, PASS, httpTrigger(id), "")));
    }

    private Plan glue(String prefix, int seconds) {
        String id = prefix + "-glue" + seconds;
        return new Plan(Map.of(id, pipeline(id, PASS, glueTrigger(id, seconds), "pollLimit: 240\n")));
    }

    private Plan airflow(String prefix, Duration duration) {
        String id = prefix + "-airflow" + duration.toMinutes();
        jobs.durationOf(id, duration);
        return new Plan(Map.of(
                id,
                pipeline(
                        id,
                        PASS,
                        "{type: airflow, url: \"" + jobs.endpoint() + "\", dagId: " + id + "}",
                        "pollLimit: 240\n")));
    }

    private Plan notReadyThenReady(String prefix) {
        String id = prefix + "-notready";
        String trait = "{evaluator: \"" + notReadyEvaluator + "/readiness\"}";
        return new Plan(Map.of(id, pipeline(id, trait, httpTrigger(id), "evaluationIntervalSeconds: 60\n")));
    }

    /**
     * The long day: the window opens now, its data lands after {@link #LONG_DAY_WAIT} of NOT READY rounds at the default
     * 60-second interval (a validation window of 7 h, longer than one execution), then the day is monitored for
     * {@link #LONG_DAY_MONITORING} without drift.
     */
    private Plan longDay(String prefix) {
        String id = prefix + "-longday";
        Instant opens = rt.clock().instant().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        evaluator.readyAt(id, opens.plus(LONG_DAY_WAIT));
        String trait = "{evaluator: \"" + notReadyEvaluator + "/readiness\"}";
        String after =
                java.time.LocalTime.ofInstant(opens, ZoneOffset.UTC).toString().substring(0, 5);
        return new Plan(Map.of(
                id,
                pipeline(
                        id,
                        trait,
                        httpTrigger(id),
                        "schedules: [{name: daily, after: \"" + after + "\"}]\n"
                                + "sla: {validationTimeout: \"+7h\"}\n"
                                + "monitoring: {enabled: true, duration: " + LONG_DAY_MONITORING.toHours() + "h}\n")));
    }

    private Plan cascade(String prefix) {
        Map<String, String> p = new LinkedHashMap<>();
        String a = prefix + "-bronze";
        String b = prefix + "-silver";
        String c = prefix + "-gold";
        p.put(a, pipeline(a, PASS, glueTrigger(a, 300), "pollLimit: 240\n"));
        p.put(b, pipeline(b, upstream(a), glueTrigger(b, 300), "pollLimit: 240\n"));
        p.put(c, pipeline(c, upstream(b), glueTrigger(c, 300), "pollLimit: 240\n"));
        return new Plan(p);
    }

    private static String upstream(String pipeline) {
        return "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: " + pipeline + "}}";
    }

    private String httpTrigger(String id) {
        return "{type: http, url: \"" + jobs.endpoint() + "/jobs/" + id + "\"}";
    }

    private static String glueTrigger(String id, int seconds) {
        return "{type: glue, jobName: " + id + "-job, arguments: {\"" + FakeJob.DURATION_KEY + "\": \"" + seconds
                + "\"}}";
    }

    /** Three traits, as the batch-ingestion archetype asks; {@code upstreamTrait} decides readiness. */
    private static String pipeline(String id, String upstreamTrait, String trigger, String extra) {
        return "name: " + id + "\n" + ARCHETYPE + "traits:\n"
                + "  upstream-dependency: " + upstreamTrait + "\n"
                + "  source-freshness: " + PASS + "\n"
                + "  resource-availability: " + PASS + "\n"
                + "trigger: " + trigger + "\n" + extra;
    }

    // ---- measuring ----

    private Run run(Plan plan) throws Exception {
        for (var p : plan.pipelines().entrySet()) {
            put("/pipelines/" + p.getKey(), p.getValue());
        }
        awaitQuiet();
        meter.reset();
        post("/pipelines/" + plan.first() + "/evaluations");
        List<String> last = new ArrayList<>(plan.pipelines().keySet());
        ExecutionSummary end = rt.awaitExecution(e -> e.name().startsWith(last.getLast() + "_"), RUN_TIMEOUT);
        rt.stateMachine().execution(end.executionArn()).await(RUN_TIMEOUT);
        awaitDayCompleted(last.getLast());
        awaitQuiet();
        Meter.Reading reading = meter.read();
        List<String> executions = new ArrayList<>();
        long transitions = 0;
        for (ExecutionSummary e : rt.stateMachine().listExecutions(null)) {
            if (plan.pipelines().keySet().stream().noneMatch(id -> e.name().startsWith(id + "_"))) {
                continue;
            }
            if (e.status() != ExecutionStatus.SUCCEEDED) {
                throw new IllegalStateException("execution " + e.name() + " ended " + e.status()
                        + ": the scenario did not run as planned (function logs have the story)");
            }
            executions.add(e.name());
            transitions += Transitions.of(rt.stateMachine().getExecutionHistory(e.executionArn()));
        }
        Usage usage = Usage.of(reading, transitions, 1);
        return new Run(usage, reading, executions);
    }

    /**
     * Waits until the execution that completed the day (it entered {@code LogCompleted}) has ended: a day whose wait
     * outlasts one execution is worked by successor executions, and the first one ends long before the day does.
     */
    private void awaitDayCompleted(String pipelineId) throws InterruptedException {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(90));
        while (Instant.now().isBefore(deadline)) {
            for (ExecutionSummary e : rt.stateMachine().listExecutions(null)) {
                if (e.name().startsWith(pipelineId + "_")
                        && e.status() != ExecutionStatus.RUNNING
                        && entered(e, "LogCompleted")) {
                    return;
                }
            }
            Thread.sleep(500);
        }
        throw new IllegalStateException(pipelineId + ": no execution completed the day");
    }

    private boolean entered(ExecutionSummary execution, String state) {
        for (HistoryEvent h : rt.stateMachine().getExecutionHistory(execution.executionArn())) {
            if (h.details() instanceof EventDetails.StateEntered s && s.name().equals(state)) {
                return true;
            }
        }
        return false;
    }

    /** Waits until no function has been invoked and no DynamoDB request made for a second (stream batches drained). */
    private void awaitQuiet() throws InterruptedException {
        String before = fingerprint();
        Instant stableSince = Instant.now();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        while (Instant.now().isBefore(deadline)) {
            Thread.sleep(100);
            String now = fingerprint();
            if (!now.equals(before)) {
                before = now;
                stableSince = Instant.now();
            } else if (Duration.between(stableSince, Instant.now()).toMillis() >= 1000) {
                return;
            }
        }
        throw new IllegalStateException("the runtime never went quiet");
    }

    private String fingerprint() {
        Meter.Reading r = meter.read();
        return r.invocations() + " "
                + r.functionRequests().values().stream()
                        .mapToLong(RequestCounter.Count::requests)
                        .sum();
    }

    /**
     * Upstream job end → downstream execution start over {@code samples} cascade pairs started together, the upstream
     * on a 2-second Glue (callback type) or Airflow (poll type) job. The job's end is taken as the moment the trigger
     * Lambda was scheduled plus the job's duration: never later than the real end, so the latency is never flattered.
     */
    private List<Long> cascadeLatency(String prefix, int samples, boolean glue) throws Exception {
        List<String[]> pairs = new ArrayList<>();
        for (int i = 0; i < samples; i++) {
            String up = prefix + i + "-up";
            String down = prefix + i + "-down";
            String trigger;
            if (glue) {
                trigger = glueTrigger(up, 2);
            } else {
                jobs.durationOf(up, Duration.ofSeconds(2));
                trigger = "{type: airflow, url: \"" + jobs.endpoint() + "\", dagId: " + up + "}";
            }
            put("/pipelines/" + up, pipeline(up, PASS, trigger, ""));
            put("/pipelines/" + down, pipeline(down, upstream(up), httpTrigger(down), ""));
            pairs.add(new String[] {up, down});
        }
        for (String[] pair : pairs) {
            post("/pipelines/" + pair[0] + "/evaluations");
        }
        List<Long> latencies = new ArrayList<>();
        for (String[] pair : pairs) {
            ExecutionSummary down = rt.awaitExecution(e -> e.name().startsWith(pair[1] + "_"), RUN_TIMEOUT);
            ExecutionSummary up = rt.awaitExecution(e -> e.name().startsWith(pair[0] + "_"), RUN_TIMEOUT);
            Instant jobEnd = triggerScheduled(up).plusSeconds(2);
            latencies.add(Duration.between(jobEnd, down.startDate()).toMillis());
        }
        return latencies;
    }

    private Instant triggerScheduled(ExecutionSummary execution) {
        boolean inTrigger = false;
        for (HistoryEvent h : rt.stateMachine().getExecutionHistory(execution.executionArn())) {
            if (h.type() == HistoryEventType.TaskStateEntered && h.details() instanceof EventDetails.StateEntered s) {
                inTrigger = s.name().equals("TriggerPipeline");
            }
            if (inTrigger && h.type() == HistoryEventType.LambdaFunctionScheduled) {
                return h.timestamp();
            }
        }
        throw new IllegalStateException(execution.name() + " never scheduled its trigger");
    }

    // ---- report ----

    private static void print(
            PrintStream report,
            Map<String, List<Run>> results,
            Map<String, Integer> pipelinesPer,
            Map<String, List<Long>> latency,
            double scale,
            int runs,
            String loadBefore,
            String loadAfter,
            ObjectNode out) {
        ListPrices prices = ListPrices.US_EAST_1;
        report.println();
        report.printf(
                "Cost of a run (local runtime, %d cores, load %s -> %s; time scale %.0f; median of %d runs;"
                        + " us-east-1 list prices read %s, Lambda arm64, DynamoDB on-demand)%n",
                Runtime.getRuntime().availableProcessors(), loadBefore, loadAfter, scale, runs, ListPrices.READ_ON);
        report.printf(
                "%-30s %5s %7s %7s %8s %7s %7s %7s %4s %11s %12s%n",
                "scenario",
                "pipes",
                "transit",
                "lambda",
                "GB-s",
                "ddb req",
                "RRU",
                "WRU",
                "sns",
                "$ per run",
                "$ per 1k p-d");
        ArrayNode rows = out.putArray("scenarios");
        for (var e : results.entrySet()) {
            List<Run> rs = e.getValue();
            int pipes = pipelinesPer.get(e.getKey());
            Usage u = new Usage(
                    (long) median(rs, r -> r.usage().transitions()),
                    (long) median(rs, r -> r.usage().lambdaInvocations()),
                    median(rs, r -> r.usage().gbSeconds()),
                    (long) median(rs, r -> r.usage().dynamoDbRequests()),
                    median(rs, r -> r.usage().readUnits()),
                    median(rs, r -> r.usage().writeUnits()),
                    (long) median(rs, r -> r.usage().snsPublishes()),
                    1);
            report.printf(
                    "%-30s %5d %7d %7d %8.3f %7d %7.1f %7.1f %4d %11.6f %12.4f%n",
                    e.getKey(),
                    pipes,
                    u.transitions(),
                    u.lambdaInvocations(),
                    u.gbSeconds(),
                    u.dynamoDbRequests(),
                    u.readUnits(),
                    u.writeUnits(),
                    u.snsPublishes(),
                    u.cost(prices).total(),
                    u.perThousandPipelineDays(prices, pipes));
            ObjectNode row = rows.addObject();
            row.put("scenario", e.getKey());
            row.put("pipelines", pipes);
            row.set("median", InterlockJson.json().valueToTree(u));
            row.set("costUsd", InterlockJson.json().valueToTree(u.cost(prices)));
            row.put("perThousandPipelineDaysUsd", u.perThousandPipelineDays(prices, pipes));
            ArrayNode samples = row.putArray("runs");
            for (Run r : rs) {
                ObjectNode s = samples.addObject();
                s.set("usage", InterlockJson.json().valueToTree(r.usage()));
                s.set(
                        "invocations",
                        InterlockJson.json().valueToTree(r.reading().invocations()));
                s.set("dynamoDb", InterlockJson.json().valueToTree(r.reading().dynamoDb()));
                s.set("executions", InterlockJson.json().valueToTree(r.executions()));
            }
        }

        printGoals(report, results, latency);
        boolean first = true;
        for (var e : results.entrySet()) {
            Run r = e.getValue().getFirst();
            report.println();
            report.println("Where they go: " + e.getKey() + " (run 1)");
            StringBuilder fns = new StringBuilder("  lambda:");
            r.reading()
                    .invocations()
                    .forEach((f, n) -> fns.append(' ')
                            .append(f.moduleName())
                            .append(' ')
                            .append(n)
                            .append(" (")
                            .append(r.reading().billedMillis().get(f))
                            .append(" ms, ")
                            .append(FunctionProfile.of(f).memoryMb())
                            .append(" MB)"));
            report.println(fns);
            if (!first) {
                continue;
            }
            first = false;
            Map<String, Long> perOperation = new TreeMap<>();
            r.reading().functionRequests().forEach((k, c) -> perOperation.merge(k, c.requests(), Long::sum));
            StringBuilder ops = new StringBuilder("  dynamodb:");
            perOperation.forEach(
                    (k, n) -> ops.append("\n    ").append(n).append(" x ").append(k));
            report.println(ops);
        }

        report.println();
        report.println(
                "Cascade latency, upstream job end -> downstream execution start (time scale 1, pairs started together):");
        ObjectNode lat = out.putObject("cascadeLatencyMillis");
        for (var e : latency.entrySet()) {
            report.printf(
                    "  %-22s median %6d ms  p95 %6d ms  (n=%d)%n",
                    e.getKey(),
                    pct(e.getValue(), 50),
                    pct(e.getValue(), 95),
                    e.getValue().size());
            ObjectNode l = lat.putObject(e.getKey());
            l.put("median", pct(e.getValue(), 50));
            l.put("p95", pct(e.getValue(), 95));
            l.set("samples", InterlockJson.json().valueToTree(e.getValue()));
        }
    }

    /** The goals, next to what was measured (printed, never asserted). */
    private static void printGoals(
            PrintStream report, Map<String, List<Run>> results, Map<String, List<Long>> latency) {
        report.println();
        List<Run> sync = results.get("happy sync (http)");
        if (sync != null) {
            long transitions = (long) median(sync, r -> r.usage().transitions());
            long requests = (long) median(sync, r -> r.usage().dynamoDbRequests());
            long startRequests =
                    (long) median(
                            sync,
                            r -> r
                                    .reading()
                                    .dynamoDb()
                                    .getOrDefault(InterlockFunction.API.moduleName(), Map.of())
                                    .values()
                                    .stream()
                                    .mapToLong(RequestCounter.Count::requests)
                                    .sum());
            report.printf(
                    "Goal: happy sync <= 24 transitions: %d (%s); <= 15 DynamoDB requests: %d by the execution (%s),"
                            + " %d in all with the API call that starts it (%s)%n",
                    transitions,
                    transitions <= 24 ? "met" : "NOT met",
                    requests - startRequests,
                    requests - startRequests <= 15 ? "met" : "NOT met",
                    requests,
                    requests <= 15 ? "met" : "NOT met");
        }
        for (String type : List.of("glue", "airflow")) {
            List<Run> shortJob = results.get("async " + type + ", 5-min job");
            List<Run> longJob = results.get("async " + type + ", 60-min job");
            if (shortJob != null && longJob != null) {
                long a = (long) median(shortJob, r -> r.usage().transitions());
                long b = (long) median(longJob, r -> r.usage().transitions());
                // Only the callback types complete by event; the poll types are polled by design.
                boolean polled = type.equals("airflow");
                report.printf(
                        "Goal: async transitions independent of job duration, %s: %d (5 min) vs %d (60 min) (%s)%n",
                        type, a, b, a == b ? "met" : polled ? "a poll type: grows with the job by design" : "NOT met");
            }
        }
        List<Run> longDay = results.get(LONG_DAY);
        if (sync != null && longDay != null) {
            long a = (long) median(sync, r -> r.usage().transitions());
            long b = (long) median(longDay, r -> r.usage().transitions());
            report.printf(
                    "Goal: a long day (%d h NOT READY at 60 s, %d h monitoring) costs at most a few short days:"
                            + " %d transitions vs %d (%.1fx), %d DynamoDB requests vs %d%n",
                    LONG_DAY_WAIT.toHours(),
                    LONG_DAY_MONITORING.toHours(),
                    b,
                    a,
                    a == 0 ? 0.0 : (double) b / a,
                    (long) median(longDay, r -> r.usage().dynamoDbRequests()),
                    (long) median(sync, r -> r.usage().dynamoDbRequests()));
        }
        List<Long> glue = latency.get("glue (callback type)");
        if (glue != null && !glue.isEmpty()) {
            report.printf(
                    "Goal: cascade latency <= 2 s for callback job types: glue median %d ms, p95 %d ms (%s)%n",
                    pct(glue, 50), pct(glue, 95), pct(glue, 95) <= 2000 ? "met" : "NOT met");
        }
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> f) {
        List<Double> values =
                new ArrayList<>(runs.stream().map(f::applyAsDouble).toList());
        Collections.sort(values);
        int n = values.size();
        return n % 2 == 1 ? values.get(n / 2) : (values.get(n / 2 - 1) + values.get(n / 2)) / 2;
    }

    private static long pct(List<Long> values, int p) {
        List<Long> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int idx = (int) Math.ceil(p / 100.0 * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, idx)));
    }

    // ---- plumbing ----

    private void put(String path, String yaml) throws Exception {
        send(HttpRequest.newBuilder(URI.create(rt.apiEndpoint() + path))
                .header("Content-Type", "application/yaml")
                .PUT(HttpRequest.BodyPublishers.ofString(yaml))
                .build());
    }

    private void post(String path) throws Exception {
        send(HttpRequest.newBuilder(URI.create(rt.apiEndpoint() + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{}"))
                .build());
    }

    private static void send(HttpRequest request) throws Exception {
        HttpResponse<String> r = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(
                    request.method() + " " + request.uri() + " -> " + r.statusCode() + " " + r.body());
        }
    }

    private static Map<String, String> options(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String a : args) {
            if (!a.startsWith("--") || !a.contains("=")) {
                throw new IllegalArgumentException("expected --name=value, got " + a);
            }
            options.put(a.substring(2, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
        }
        return options;
    }

    private static String load() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException e) {
            return "n/a";
        }
    }

    /**
     * An HTTP evaluator that answers FAIL (NOT READY) to a pipeline's first {@code failures} calls, then PASS; a
     * pipeline given a {@link #readyAt} answers FAIL until that product time instead.
     */
    private static final class NotReadyEvaluator implements AutoCloseable {
        private final LoopbackHttpServer server;
        private final Map<String, Instant> readyAt;
        private final java.util.concurrent.atomic.AtomicReference<java.time.Clock> clock;

        private NotReadyEvaluator(
                LoopbackHttpServer server,
                Map<String, Instant> readyAt,
                java.util.concurrent.atomic.AtomicReference<java.time.Clock> clock) {
            this.server = server;
            this.readyAt = readyAt;
            this.clock = clock;
        }

        static NotReadyEvaluator start(int failures) throws java.io.IOException {
            Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();
            Map<String, Instant> readyAt = new ConcurrentHashMap<>();
            java.util.concurrent.atomic.AtomicReference<java.time.Clock> clock =
                    new java.util.concurrent.atomic.AtomicReference<>(java.time.Clock.systemUTC());
            return new NotReadyEvaluator(
                    LoopbackHttpServer.start(0, exchange -> {
                        JsonNode body = InterlockJson.json().readTree(exchange.getRequestBody());
                        String pipeline = body.path("pipelineId").asText();
                        int n = calls.computeIfAbsent(pipeline, k -> new AtomicInteger())
                                .incrementAndGet();
                        Instant ready = readyAt.get(pipeline);
                        boolean failing = ready != null ? clock.get().instant().isBefore(ready) : n <= failures;
                        String answer = failing
                                ? "{\"status\":\"FAIL\",\"reason\":\"partition not landed yet\"}"
                                : "{\"status\":\"PASS\"}";
                        LoopbackHttpServer.send(exchange, 200, Map.of("Content-Type", "application/json"), answer);
                    }),
                    readyAt,
                    clock);
        }

        void clock(java.time.Clock productClock) {
            clock.set(productClock);
        }

        void readyAt(String pipelineId, Instant at) {
            readyAt.put(pipelineId, at);
        }

        URI endpoint() {
            return server.endpoint();
        }

        @Override
        public void close() {
            server.close();
        }
    }
}
