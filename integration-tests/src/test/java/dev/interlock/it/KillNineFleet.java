package dev.interlock.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import software.amazon.awssdk.core.SdkBytes;

/**
 * Restarts lose no wait, at fleet scale with a real {@code kill -9}: a fleet of cascades runs on
 * {@code interlock up} as a child process ({@link RuntimeProcess}) whose synchronous HTTP jobs run on a
 * {@link FakeJobServer} in this JVM (outside the runtime, so a job goes on when the runtime dies, as a real job system
 * does). Each cascade is {@code a → b → c, d}: {@code b} waits on {@code builtin:upstream-run-log} of {@code a}, and
 * {@code c} and {@code d} on {@code b}'s; the roots are evaluated through the API, the rest run when their upstream's
 * {@code notifyDownstream} cascades to them. At each chosen level the runtime is SIGKILLed while jobs of that level run
 * (their triggers' calls in flight: each run TRIGGERING, its Task attempt unrecorded), then restarted on the same
 * {@code --data-dir}: DynamoDB Local's files, the execution journals, the stream checkpoints, the alert file and the
 * log are whatever the kill left — and one interrupted execution's journal ends in a torn line, as a kill in the middle
 * of a long line leaves it. What it reports, day by day, is what an operator would look at: the run log, the
 * runs, how many times the job server started the day's job (a replayed {@code Idempotency-Key} starts nothing), the
 * alerts, and every execution's end.
 *
 * <p>Shared by {@link KillNineFleetTest} (the regular suite, which asserts) and {@link KillNineSoak} (the
 * {@code benchmarks} profile, 240 pipelines, which prints).
 */
final class KillNineFleet {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The pipelines of one cascade; the index of each one's level (0: the root). */
    static final List<String> MEMBERS = List.of("a", "b", "c", "d");

    private static final Map<String, Integer> LEVEL = Map.of("a", 0, "b", 1, "c", 2, "d", 2);

    /**
     * @param groups       how many cascades ({@code 4 × groups} pipelines)
     * @param jobDuration  how long each synchronous job runs, in real time (how long its trigger's call is in flight)
     * @param timeScale    the runtime's {@code --time-scale}
     * @param killAtLevels for each kill, the level whose jobs must be running when it comes (0: roots, 1: b, 2: c/d)
     * @param jvmOptions   options of the runtime's JVM
     * @param within       the longest wait for anything: a start, a kill's moment, the days' completion
     */
    record Settings(
            int groups,
            Duration jobDuration,
            double timeScale,
            List<Integer> killAtLevels,
            List<String> jvmOptions,
            Duration within) {
        int pipelines() {
            return groups * MEMBERS.size();
        }

        /** How many pipelines a level holds. */
        int atLevel(int level) {
            return groups * (level == 2 ? 2 : 1);
        }
    }

    /**
     * One kill: the level it waited for, the jobs running at that moment, the execution journal torn after it (see
     * {@link #tear}), when it came (since the roots were evaluated), the exit code of the killed process, how long the restarted runtime took to say it was running, how
     * many executions it resumed, and how long after the kill every day whose job was running had completed (null: not
     * within the wait).
     */
    record Kill(
            int number,
            int level,
            List<String> runningJobs,
            String tornJournal,
            Duration at,
            int exitCode,
            Duration restartStartup,
            int resumedExecutions,
            Duration recovered) {}

    /**
     * One pipeline day as it ended: its run log's status ("none" when there is none), its runs' statuses, how many
     * times its job was started, how many calls replayed its {@code Idempotency-Key}, how many times a trigger retry
     * re-claimed its run, and the kinds of its alerts.
     */
    record Day(
            String pipeline,
            int level,
            String runLog,
            List<String> runs,
            long jobStarts,
            long replays,
            long reclaims,
            List<String> alerts) {}

    /** Everything the scenario saw. */
    record Report(
            Settings settings,
            LocalDate date,
            Duration firstStartup,
            List<Kill> kills,
            List<Day> days,
            Map<String, Long> executionsByStatus,
            Duration total,
            Duration lastKillToAllDone) {

        List<Day> lost() {
            return days.stream().filter(d -> !d.runLog().equals("COMPLETED")).toList();
        }

        long jobsStarted() {
            return days.stream().mapToLong(Day::jobStarts).sum();
        }

        /** Starts beyond the first of each day's job. */
        long duplicates() {
            return days.stream().mapToLong(d -> Math.max(0, d.jobStarts() - 1)).sum();
        }

        long replays() {
            return days.stream().mapToLong(Day::replays).sum();
        }

        long reclaims() {
            return days.stream().mapToLong(Day::reclaims).sum();
        }

        /** The alerts an interrupted day must not cause, by kind. */
        Map<String, Long> forbiddenAlerts() {
            return days.stream()
                    .flatMap(d -> d.alerts().stream())
                    .filter(FORBIDDEN_ALERTS::contains)
                    .collect(Collectors.groupingBy(k -> k, TreeMap::new, Collectors.counting()));
        }
    }

    static final Set<String> FORBIDDEN_ALERTS = Set.of("EXECUTION_ERROR", "TRIGGER_FAILED", "STUCK_RUN");

    private final Settings settings;
    private final PrintStream progress;
    private final HttpClient http = HttpClient.newHttpClient();
    private RuntimeProcess runtime;
    private FakeJobServer jobs;

    KillNineFleet(Settings settings, PrintStream progress) {
        this.settings = settings;
        this.progress = progress;
    }

    static String pipeline(int group, String member) {
        return "k9-g%03d-%s".formatted(group, member);
    }

    static int levelOf(String pipeline) {
        return LEVEL.get(pipeline.substring(pipeline.length() - 1));
    }

    private List<String> pipelines() {
        List<String> all = new ArrayList<>();
        for (String member : MEMBERS) {
            for (int g = 0; g < settings.groups(); g++) {
                all.add(pipeline(g, member));
            }
        }
        return all;
    }

    /** Runs the scenario on {@code dataDir} (empty) and reports; the runtime and the job server are stopped after. */
    Report run(Path dataDir) throws Exception {
        Instant begin = Instant.now();
        jobs = FakeJobServer.start(0, Clock.systemUTC(), Duration.ofMinutes(2));
        try {
            jobs.syncJobsTake(settings.jobDuration());
            runtime = RuntimeProcess.start(dataDir, settings.timeScale(), settings.jvmOptions(), settings.within());
            Duration firstStartup = runtime.startup();
            say("interlock up (pid " + runtime.pid() + ") running after " + seconds(firstStartup));
            LocalDate date = LocalDate.now(ZoneOffset.UTC);
            for (String p : pipelines()) {
                register(p);
            }
            Instant evaluated = Instant.now();
            for (int g = 0; g < settings.groups(); g++) {
                call("POST", "/pipelines/" + pipeline(g, "a") + "/evaluations", "{\"date\":\"" + date + "\"}", 202);
            }
            say(settings.pipelines() + " pipelines registered, " + settings.groups() + " roots evaluated for " + date);

            List<Kill> kills = new ArrayList<>();
            Instant lastKill = evaluated;
            for (int level : settings.killAtLevels()) {
                awaitTrue(
                        "jobs of level " + level + " running (kill " + (kills.size() + 1) + ")", () -> killDue(level));
                List<String> running = jobs.runningSyncJobs();
                Instant killedAt = Instant.now();
                runtime.kill();
                lastKill = killedAt;
                int exit = runtime.exitValue();
                String torn = tear(dataDir, running);
                say("kill -9 #" + (kills.size() + 1) + " at " + seconds(Duration.between(evaluated, killedAt))
                        + " with " + running.size() + " jobs running "
                        + running.stream().sorted().toList()
                        + "; journal torn: " + torn);
                runtime = RuntimeProcess.start(dataDir, settings.timeScale(), settings.jvmOptions(), settings.within());
                say("restarted (pid " + runtime.pid() + ") after " + seconds(runtime.startup()) + ", "
                        + runtime.resumedExecutions() + " executions resumed");
                Instant recoveredAt = awaitCompleted(new LinkedHashSet<>(running), date);
                Duration recovered = recoveredAt == null ? null : Duration.between(killedAt, recoveredAt);
                say("the days whose jobs were running at the kill "
                        + (recovered == null ? "did NOT all complete" : "completed " + seconds(recovered))
                        + " after it");
                kills.add(new Kill(
                        kills.size() + 1,
                        level,
                        running,
                        torn,
                        Duration.between(evaluated, killedAt),
                        exit,
                        runtime.startup(),
                        runtime.resumedExecutions(),
                        recovered));
            }

            Instant allDone = awaitCompleted(new LinkedHashSet<>(pipelines()), date);
            Duration lastKillToAllDone = allDone == null ? null : Duration.between(lastKill, allDone);
            Map<String, Long> executions = awaitExecutionsEnded();
            watchdogTick();
            List<Day> days = days(date);
            return new Report(
                    settings,
                    date,
                    firstStartup,
                    kills,
                    days,
                    executions,
                    Duration.between(begin, Instant.now()),
                    lastKillToAllDone);
        } catch (Exception | Error e) {
            if (runtime != null) {
                progress.println("interlock up printed:\n" + String.join("\n", runtime.output()));
            }
            throw e;
        } finally {
            if (runtime != null) {
                runtime.close();
            }
            jobs.close();
        }
    }

    /**
     * What a kill in the middle of a journal line leaves (a line longer than the writer's 8 KB buffer reaches the file
     * in several writes): the first part of a line without its newline, at the end of the execution journal of a day
     * whose job was running. Answers the journal's name (null: none found).
     */
    private static String tear(Path dataDir, List<String> running) throws IOException {
        Path executions = dataDir.resolve("executions");
        for (String job : running.stream().sorted().toList()) {
            Optional<Path> journal;
            try (Stream<Path> files = Files.walk(executions)) {
                journal = files.filter(f -> f.getFileName().toString().startsWith(job + "_"))
                        .findFirst();
            }
            if (journal.isPresent()) {
                Files.writeString(
                        journal.get(),
                        "{\"event\":{\"id\":9999,\"previousEventId\":9998,\"timestamp\":\"20",
                        StandardCharsets.UTF_8,
                        StandardOpenOption.APPEND);
                return journal.get().getFileName().toString();
            }
        }
        return null;
    }

    /** Whether the jobs of {@code level} are running enough for a kill: a quarter of them at once, or the last one. */
    private boolean killDue(int level) {
        long running =
                jobs.runningSyncJobs().stream().filter(j -> levelOf(j) == level).count();
        long started = jobs.received().stream()
                .map(FakeJobServer.Received::job)
                .filter(j -> levelOf(j) == level)
                .distinct()
                .count();
        int all = settings.atLevel(level);
        return running >= 1 && (running >= Math.max(1, all / 4) || started == all);
    }

    private void register(String name) {
        int level = levelOf(name);
        String upstream = level == 0 ? null : name.substring(0, name.length() - 1) + (level == 1 ? "a" : "b");
        String dependency = upstream == null
                ? "{evaluator: \"builtin:always-pass\"}"
                : "{evaluator: \"builtin:upstream-run-log\", config: {upstreamPipeline: " + upstream + "}}";
        String yaml = """
                name: %s
                archetype: batch-ingestion
                traits:
                  upstream-dependency: %s
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                """.formatted(name, dependency, jobs.endpoint(), name);
        int status = send("PUT", "/pipelines/" + name, "application/yaml", yaml).statusCode();
        if (status != 200 && status != 201) {
            throw new AssertionError("PUT /pipelines/" + name + " answered " + status);
        }
    }

    /**
     * Waits until every day of {@code pipelines} has a COMPLETED run log; answers when, or null if not within the
     * wait (what did not complete is in the report).
     */
    private Instant awaitCompleted(Set<String> pipelines, LocalDate date) {
        Set<String> pending = new LinkedHashSet<>(pipelines);
        Instant deadline = Instant.now().plus(settings.within());
        while (true) {
            pending.removeIf(p -> runLogStatus(p, date).equals("COMPLETED"));
            if (pending.isEmpty()) {
                return Instant.now();
            }
            if (Instant.now().isAfter(deadline)) {
                say(pending.size() + " days not COMPLETED within " + settings.within() + ": " + pending);
                return null;
            }
            LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
        }
    }

    /** Waits until no execution runs (a day's run log is COMPLETED just before its execution ends); by status. */
    private Map<String, Long> awaitExecutionsEnded() throws Exception {
        try (AwsClients aws = aws()) {
            String machine = aws.stepFunctions()
                    .listStateMachines()
                    .stateMachines()
                    .getFirst()
                    .stateMachineArn();
            Map<String, Long> byStatus = Map.of();
            Instant deadline = Instant.now().plus(settings.within());
            while (true) {
                byStatus = new TreeMap<>();
                for (var e : aws.stepFunctions()
                        .listExecutionsPaginator(b -> b.stateMachineArn(machine))
                        .executions()) {
                    byStatus.merge(e.statusAsString(), 1L, Long::sum);
                }
                if (!byStatus.containsKey("RUNNING") || Instant.now().isAfter(deadline)) {
                    return byStatus;
                }
                LockSupport.parkNanos(Duration.ofMillis(200).toNanos());
            }
        }
    }

    /** One watchdog tick, as the EventBridge schedule invokes it: it would flag a run stuck in a non-final state. */
    private void watchdogTick() throws Exception {
        try (AwsClients aws = aws()) {
            var answer = aws.lambda()
                    .invoke(b -> b.functionName("orchestrator")
                            .payload(SdkBytes.fromUtf8String(
                                    InterlockJson.write(OrchestratorAction.WATCHDOG.invocation(null)))));
            if (answer.functionError() != null) {
                throw new AssertionError(
                        "the watchdog failed: " + answer.payload().asUtf8String());
            }
        }
    }

    private AwsClients aws() {
        return new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_STEPFUNCTIONS", runtime.stepFunctions().toString(),
                "INTERLOCK_ENDPOINT_LAMBDA", runtime.lambda().toString())));
    }

    private List<Day> days(LocalDate date) {
        Map<String, List<String>> alerts = new TreeMap<>();
        for (JsonNode alert : list("/alerts?limit=100").reversed()) {
            alerts.computeIfAbsent(alert.path("pipelineId").asText(), k -> new ArrayList<>())
                    .add(alert.path("kind").asText());
        }
        List<Day> days = new ArrayList<>();
        for (String p : pipelines()) {
            List<String> runs = list("/pipelines/" + p + "/runs").stream()
                    .filter(r -> r.path("date").asText().equals(date.toString()))
                    .map(r -> r.path("status").asText())
                    .toList();
            long reclaims = list("/pipelines/" + p + "/events").stream()
                    .filter(e -> e.path("kind").asText().equals("RUN_STATE_CHANGED")
                            && e.path("details").path("from").asText().equals("TRIGGERING")
                            && e.path("details").path("to").asText().equals("TRIGGERING"))
                    .count();
            days.add(new Day(
                    p,
                    levelOf(p),
                    runLogStatus(p, date),
                    runs,
                    jobs.triggersOf(p),
                    jobs.replays().stream().filter(r -> r.job().equals(p)).count(),
                    reclaims,
                    alerts.getOrDefault(p, List.of())));
        }
        return days;
    }

    private String runLogStatus(String pipeline, LocalDate date) {
        return list("/pipelines/" + pipeline + "/runlogs").stream()
                .filter(l -> l.path("date").asText().equals(date.toString())
                        && l.path("scheduleId").asText().equals("daily"))
                .map(l -> l.path("status").asText())
                .findFirst()
                .orElse("none");
    }

    /** Every item of a paginated listing. */
    private List<JsonNode> list(String path) {
        List<JsonNode> items = new ArrayList<>();
        String cursor = null;
        do {
            String page = cursor == null
                    ? path
                    : path + (path.contains("?") ? "&" : "?") + "cursor="
                            + URLEncoder.encode(cursor, StandardCharsets.UTF_8);
            JsonNode body = call("GET", page, null, 200);
            body.path("items").forEach(items::add);
            cursor = body.hasNonNull("nextCursor") ? body.get("nextCursor").asText() : null;
        } while (cursor != null);
        return items;
    }

    private JsonNode call(String method, String path, String json, int expected) {
        HttpResponse<String> r = send(method, path, json == null ? null : "application/json", json);
        if (r.statusCode() != expected) {
            throw new AssertionError(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        try {
            return r.body().isBlank() ? JSON.nullNode() : JSON.readTree(r.body());
        } catch (java.io.IOException e) {
            throw new AssertionError(method + " " + path + " answered no JSON: " + r.body(), e);
        }
    }

    private HttpResponse<String> send(String method, String path, String contentType, String body) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(runtime.api() + path))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        try {
            return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.io.IOException e) {
            throw new IllegalStateException(method + " " + path + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(method + " " + path + " interrupted", e);
        }
    }

    private void awaitTrue(String what, BooleanSupplier condition) {
        Instant deadline = Instant.now().plus(settings.within());
        while (!condition.getAsBoolean()) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError(
                        what + " not reached within " + settings.within() + "; running: " + jobs.runningSyncJobs()
                                + ", started: " + jobs.received().size());
            }
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
    }

    private void say(String line) {
        progress.println("kill -9 fleet: " + line);
    }

    static String seconds(Duration d) {
        return String.format(java.util.Locale.ROOT, "%.1f s", d.toMillis() / 1000.0);
    }
}
