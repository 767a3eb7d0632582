package dev.interlock.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.interlock.local.http.LoopbackHttpServer;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A job server for the demo and the end-to-end tests, on 127.0.0.1: {@code POST /jobs/{name}} runs a job
 * synchronously (an {@code http} trigger), and an Airflow-compatible REST API
 * ({@code POST /api/v1/dags/{dag}/dagRuns}, {@code GET …/dagRuns/{id}}, {@code PATCH …/dagRuns/{id}} to mark a run
 * failed, {@code GET …/dagRuns/{id}/taskInstances} with Airflow's {@code state}, {@code limit} and {@code offset}
 * filters) runs jobs that finish after a delay and are polled (an {@code airflow} trigger). A DAG run whose
 * {@code conf} holds {@value #FAILED_TASKS_KEY} ends {@code success} all the same while the task instances named there
 * are {@code failed} (or the state written after a colon, e.g. {@code publish:upstream_failed}): a DAG run that lies
 * about its success (the leaves that decide a DAG run's state passed, a trigger rule let them). Like Airflow it keeps the
 * {@code dag_run_id} a trigger asks for and refuses a second run with the same id (409). A synchronous job honours the
 * {@code Idempotency-Key} header: a second call with a key already seen starts nothing and answers what the first call
 * answers (waiting for it if it still runs). It records every trigger and every cancellation it receives and can be
 * told to fail, to hold a synchronous job's calls until released (a slow job whose start is in flight), or to make every
 * synchronous job take a while in real time, and it tells which synchronous jobs are running at the moment.
 */
public final class FakeJobServer implements AutoCloseable {

    private static final ObjectMapper JSON = InterlockJson.json();
    private static final Pattern DAG_RUNS = Pattern.compile("^/api/v1/dags/([^/]+)/dagRuns/?$");
    private static final Pattern DAG_RUN = Pattern.compile("^/api/v1/dags/([^/]+)/dagRuns/([^/]+)$");
    private static final Pattern TASK_INSTANCES =
            Pattern.compile("^/api/v1/dags/([^/]+)/dagRuns/([^/]+)/taskInstances/?$");
    private static final Pattern JOB = Pattern.compile("^/jobs/([^/]+)$");

    /** The DAG run {@code conf} key naming the task instances that failed in a run that still ends success. */
    public static final String FAILED_TASKS_KEY = FakeTaskInstances.FAILED_TASKS_KEY;

    /**
     * One request received: which job, its raw query string ({@code null} when none), its headers (first value per
     * name, names lower case), its body, when.
     */
    public record Received(String job, String query, Map<String, String> headers, String body, Instant at) {
        public Received {
            headers = Map.copyOf(headers);
        }

        /** A header by name, any case. */
        public String header(String name) {
            return headers.get(name.toLowerCase(java.util.Locale.ROOT));
        }
    }

    /** One DAG run marked failed through the API (how Interlock cancels an Airflow run): which DAG, which run, when. */
    public record Cancellation(String dag, String dagRunId, Instant at) {}

    /** The DAG run a path names ({@code dags/{dag}/dagRuns/{run}}), or null once 404 was answered. */
    private DagRun dagRunOrNotFound(HttpExchange exchange, Matcher m) throws IOException {
        DagRun run = runs.get(m.group(2));
        if (run == null || !run.dag().equals(m.group(1))) {
            send(exchange, 404, "{\"title\":\"DAGRun not found\"}");
            return null;
        }
        return run;
    }

    private record DagRun(
            String dag, Instant finishesAt, boolean fails, Instant cancelledAt, Map<String, String> failedTasks) {
        String state(Instant now) {
            if (cancelledAt != null) {
                return "failed";
            }
            return now.isBefore(finishesAt) ? "running" : fails ? "failed" : "success";
        }

        /** Task id → state: the tasks {@code --fake-failed-tasks} named (once the run ended), then the leaf. */
        Map<String, String> tasks(Instant now) {
            String run = state(now);
            Map<String, String> tasks = new java.util.LinkedHashMap<>();
            failedTasks.forEach((task, state) -> tasks.put(task, run.equals("running") ? "running" : state));
            tasks.put(FakeTaskInstances.LEAF_TASK, run);
            return tasks;
        }
    }

    private LoopbackHttpServer server;
    private final Clock clock;
    private final Duration asyncDuration;
    private final List<Received> received = new CopyOnWriteArrayList<>();
    private final List<Received> polls = new CopyOnWriteArrayList<>();
    private final List<Received> taskInstancePolls = new CopyOnWriteArrayList<>();
    private final List<Cancellation> cancellations = new CopyOnWriteArrayList<>();
    private final Map<String, Duration> durations = new ConcurrentHashMap<>();
    private final Map<String, DagRun> runs = new ConcurrentHashMap<>();
    private final Map<String, Integer> failuresToServe = new ConcurrentHashMap<>();
    private final Map<String, Integer> failureStatus = new ConcurrentHashMap<>();
    private final Map<String, Boolean> runsThatFail = new ConcurrentHashMap<>();
    private final AtomicInteger ids = new AtomicInteger();
    /** The answer of each synchronous job call by its {@code job/Idempotency-Key}, complete once the job finished. */
    private final Map<String, java.util.concurrent.CompletableFuture<String>> byIdempotencyKey =
            new ConcurrentHashMap<>();

    private final List<Received> replays = new CopyOnWriteArrayList<>();
    private final Map<String, java.util.concurrent.CountDownLatch> held = new ConcurrentHashMap<>();
    /** The synchronous calls that started a job and have not finished it yet, by job: how many of each. */
    private final Map<String, Integer> running = new ConcurrentHashMap<>();

    private volatile Duration syncDuration = Duration.ZERO;

    private FakeJobServer(Clock clock, Duration asyncDuration) {
        this.clock = clock;
        this.asyncDuration = asyncDuration;
    }

    /** Starts on 127.0.0.1:{@code port} (0 = any); async jobs finish {@code asyncDuration} after they start. */
    public static FakeJobServer start(int port, Clock clock, Duration asyncDuration) throws IOException {
        FakeJobServer s = new FakeJobServer(clock, asyncDuration);
        s.server = LoopbackHttpServer.start(port, s::handle);
        return s;
    }

    public URI endpoint() {
        return server.endpoint();
    }

    /** The next {@code count} triggers of {@code job} answer HTTP 503 (a transient failure). */
    public void failNext(String job, int count) {
        failNext(job, count, 503);
    }

    /**
     * The next {@code count} triggers of {@code job} answer HTTP {@code status}: 503 is retried inside one trigger
     * call, 500 fails the attempt at once (transient), a 4xx fails it for good (permanent).
     */
    public void failNext(String job, int count, int status) {
        failureStatus.put(job, status);
        failuresToServe.put(job, count);
    }

    /** Runs of {@code dag} started from now on end failed. */
    public void failRunsOf(String dag, boolean fail) {
        runsThatFail.put(dag, fail);
    }

    /** Runs of {@code dag} started from now on take {@code duration} instead of the server's default. */
    public void durationOf(String dag, Duration duration) {
        durations.put(dag, duration);
    }

    /** Every DAG run marked failed through the API, oldest first. */
    public List<Cancellation> cancellations() {
        return List.copyOf(cancellations);
    }

    /** Every trigger received, oldest first. */
    public List<Received> received() {
        return List.copyOf(received);
    }

    /** Every Airflow DAG-run poll received, oldest first. */
    public List<Received> polls() {
        return List.copyOf(polls);
    }

    /** Every task-instance listing received ({@code GET …/dagRuns/{id}/taskInstances}), oldest first. */
    public List<Received> taskInstancePolls() {
        return List.copyOf(taskInstancePolls);
    }

    /** Holds every synchronous call of {@code job} (the job runs) until {@link #release} is called. */
    public void hold(String job) {
        held.put(job, new java.util.concurrent.CountDownLatch(1));
    }

    /** Lets the held calls of {@code job} finish. */
    public void release(String job) {
        java.util.concurrent.CountDownLatch latch = held.remove(job);
        if (latch != null) {
            latch.countDown();
        }
    }

    /**
     * Every synchronous job started from now on runs for {@code duration} of real time before its call is answered (and
     * before a replay of its {@code Idempotency-Key} gets that answer); the caller may give up or die meanwhile, the job
     * still runs to its end. Real time, not the runtime's scaled clock: it is how long the trigger's call is in flight.
     */
    public void syncJobsTake(Duration duration) {
        syncDuration = duration;
    }

    /** The synchronous jobs running right now (started, not finished), one entry per running call, in no order. */
    public List<String> runningSyncJobs() {
        List<String> jobs = new java.util.ArrayList<>();
        running.forEach((job, count) -> {
            for (int i = 0; i < count; i++) {
                jobs.add(job);
            }
        });
        return jobs;
    }

    /** The calls of synchronous jobs that repeated an {@code Idempotency-Key} already seen: they started nothing. */
    public List<Received> replays() {
        return List.copyOf(replays);
    }

    /** The calls that started {@code job} (a replayed {@code Idempotency-Key} starts nothing and is not counted). */
    public long triggersOf(String job) {
        return received.stream().filter(r -> r.job().equals(job)).count();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            String method = exchange.getRequestMethod();
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher m;
            if ("POST".equals(method) && (m = JOB.matcher(path)).matches()) {
                String job = m.group(1);
                if (failOnce(job)) {
                    send(exchange, failureStatus.getOrDefault(job, 503), "{\"error\":\"job runner busy\"}");
                    return;
                }
                String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
                java.util.concurrent.CompletableFuture<String> answer = new java.util.concurrent.CompletableFuture<>();
                java.util.concurrent.CompletableFuture<String> first =
                        key == null ? null : byIdempotencyKey.putIfAbsent(job + "/" + key, answer);
                if (first != null) {
                    replays.add(received(exchange, job, body));
                    send(exchange, 200, first.join());
                    return;
                }
                received.add(received(exchange, job, body));
                running.merge(job, 1, Integer::sum);
                try {
                    java.util.concurrent.CountDownLatch hold = held.get(job);
                    if (hold != null) {
                        hold.await();
                    }
                    Duration takes = syncDuration;
                    if (!takes.isZero()) {
                        Thread.sleep(takes);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    answer.complete("{\"status\":\"done\",\"job\":\"" + job + "\"}");
                    running.computeIfPresent(job, (j, n) -> n == 1 ? null : n - 1);
                }
                send(exchange, 200, answer.join());
            } else if ("POST".equals(method) && (m = DAG_RUNS.matcher(path)).matches()) {
                String dag = m.group(1);
                if (failOnce(dag)) {
                    send(exchange, failureStatus.getOrDefault(dag, 503), "{\"title\":\"Service Unavailable\"}");
                    return;
                }
                JsonNode posted = body.isBlank() ? JSON.createObjectNode() : JSON.readTree(body);
                String requested = posted.path("dag_run_id").asText("");
                String id = requested.isBlank() ? "run_" + ids.incrementAndGet() : requested;
                Map<String, String> failedTasks;
                try {
                    failedTasks =
                            FakeTaskInstances.failedTasks(posted.path("conf").path(FAILED_TASKS_KEY));
                } catch (IllegalArgumentException e) {
                    send(
                            exchange,
                            400,
                            JSON.createObjectNode().put("title", e.getMessage()).toString());
                    return;
                }
                DagRun run = new DagRun(
                        dag,
                        clock.instant().plus(durations.getOrDefault(dag, asyncDuration)),
                        runsThatFail.getOrDefault(dag, false),
                        null,
                        failedTasks);
                if (runs.putIfAbsent(id, run) != null) {
                    send(
                            exchange,
                            409,
                            "{\"title\":\"DAGRun with DAG ID: '" + dag + "' and DAGRun ID: '" + id
                                    + "' already exists\"}");
                    return;
                }
                received.add(received(exchange, dag, body));
                ObjectNode out = JSON.createObjectNode()
                        .put("dag_run_id", id)
                        .put("dag_id", dag)
                        .put("state", "queued");
                send(exchange, 200, out.toString());
            } else if ("GET".equals(method) && (m = TASK_INSTANCES.matcher(path)).matches()) {
                taskInstancePolls.add(received(exchange, m.group(1), body));
                DagRun run = dagRunOrNotFound(exchange, m);
                if (run == null) {
                    return;
                }
                send(
                        exchange,
                        200,
                        FakeTaskInstances.page(
                                m.group(1), m.group(2), run.tasks(clock.instant()), exchange.getRequestURI()));
            } else if ("GET".equals(method) && (m = DAG_RUN.matcher(path)).matches()) {
                polls.add(received(exchange, m.group(1), body));
                DagRun run = dagRunOrNotFound(exchange, m);
                if (run == null) {
                    return;
                }
                send(
                        exchange,
                        200,
                        JSON.createObjectNode()
                                .put("dag_run_id", m.group(2))
                                .put("state", run.state(clock.instant()))
                                .toString());
            } else if ("PATCH".equals(method) && (m = DAG_RUN.matcher(path)).matches()) {
                String id = m.group(2);
                DagRun run = runs.get(id);
                if (run == null || !run.dag().equals(m.group(1))) {
                    send(exchange, 404, "{\"title\":\"DAGRun not found\"}");
                    return;
                }
                if (!"failed"
                        .equals(JSON.readTree(body.isBlank() ? "{}" : body)
                                .path("state")
                                .asText())) {
                    send(exchange, 400, "{\"title\":\"only state=failed is supported here\"}");
                    return;
                }
                Instant now = clock.instant();
                if (run.state(now).equals("running")) {
                    runs.put(id, new DagRun(run.dag(), run.finishesAt(), run.fails(), now, run.failedTasks()));
                    cancellations.add(new Cancellation(run.dag(), id, now));
                }
                send(
                        exchange,
                        200,
                        JSON.createObjectNode()
                                .put("dag_run_id", id)
                                .put("state", runs.get(id).state(now))
                                .toString());
            } else {
                send(exchange, 404, "{\"error\":\"no such endpoint\"}");
            }
        }
    }

    private Received received(HttpExchange exchange, String job, String body) {
        Map<String, String> headers = new java.util.HashMap<>();
        exchange.getRequestHeaders()
                .forEach((name, values) -> headers.put(
                        name.toLowerCase(java.util.Locale.ROOT), values.isEmpty() ? "" : values.getFirst()));
        return new Received(job, exchange.getRequestURI().getRawQuery(), headers, body, clock.instant());
    }

    private boolean failOnce(String job) {
        Integer left = failuresToServe.get(job);
        if (left != null && left > 0) {
            failuresToServe.put(job, left - 1);
            return true;
        }
        return false;
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        LoopbackHttpServer.send(exchange, status, Map.of("Content-Type", "application/json"), body);
    }

    /** Parses a JSON body, for callers that inspect what a trigger sent. */
    public static JsonNode json(String body) throws IOException {
        return JSON.readTree(body);
    }

    @Override
    public void close() {
        server.close();
    }
}
