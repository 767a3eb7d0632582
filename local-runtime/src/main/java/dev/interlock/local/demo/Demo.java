package dev.interlock.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.statemachine.engine.ExecutionSummary;
import dev.interlock.statemachine.engine.HistoryEvent;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code interlock up --demo}: registers a silver → gold cascade through the API, pushes sensor values so silver
 * is first NOT READY and then READY, and narrates what happens — evaluations, triggers, the cascade, polling, the
 * run logs — until gold completes.
 */
public final class Demo {

    public static final String SILVER = "silver-orders";
    public static final String GOLD = "gold-orders";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final LocalRuntime runtime;
    private final FakeJobServer jobs;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newHttpClient();
    private final Map<String, Integer> eventsPrinted = new HashMap<>();
    private final Map<String, String> lastExecutionLine = new HashMap<>();
    private final Instant started = Instant.now();

    public Demo(LocalRuntime runtime, FakeJobServer jobs, PrintStream out) {
        this.runtime = runtime;
        this.jobs = jobs;
        this.out = out;
    }

    /** Runs the demo; true when gold completed within {@code timeout} (real time). */
    public boolean run(Duration timeout) throws IOException, InterruptedException {
        say("registering " + SILVER + " (http trigger) and " + GOLD + " (Airflow trigger, polled), cascade " + SILVER + " -> " + GOLD);
        put("/pipelines/" + SILVER, resource("silver-orders.yaml"));
        put("/pipelines/" + GOLD, resource("gold-orders.yaml"));
        // No evaluation request: the data's arrival starts silver's evaluation, as it would in production.
        say("bronze sensor: 500 rows, 12 of 24 partitions -> its arrival starts silver's evaluation, which is NOT READY");
        put("/sensors/bronze-orders", "{\"count\":500,\"partitions\":12}");

        Instant deadline = Instant.now().plus(timeout);
        boolean sensorsComplete = false;
        int silverEvaluations = 0;
        while (Instant.now().isBefore(deadline)) {
            silverEvaluations += narrateEvents(SILVER);
            narrateEvents(GOLD);
            narrateExecutions();
            if (!sensorsComplete && silverEvaluations >= 6) {
                say("bronze sensor: 1,500 rows, 24 of 24 partitions -> silver becomes READY at its next evaluation");
                put("/sensors/bronze-orders", "{\"count\":1500,\"partitions\":24}");
                sensorsComplete = true;
            }
            if ("COMPLETED".equals(runLogStatus(GOLD))) {
                narrateEvents(GOLD);
                narrateExecutions();
                summary();
                return true;
            }
            Thread.sleep(200);
        }
        say("the demo did not finish in " + timeout.toSeconds() + " s; silver run log " + runLogStatus(SILVER)
                + ", gold run log " + runLogStatus(GOLD));
        return false;
    }

    /** Prints the events not printed yet (events are append-only, oldest first); returns how many were evaluations. */
    private int narrateEvents(String pipeline) throws IOException, InterruptedException {
        List<JsonNode> all = new java.util.ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get("/pipelines/" + pipeline + "/events?limit=100" + (cursor == null ? "" : "&cursor=" + enc(cursor)));
            page.path("items").forEach(all::add);
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null);
        int printed = eventsPrinted.getOrDefault(pipeline, 0);
        int evaluations = 0;
        for (JsonNode e : all.subList(Math.min(printed, all.size()), all.size())) {
            String kind = e.path("kind").asText();
            if (kind.equals("TRAIT_EVALUATED")) {
                evaluations++;
            }
            say(String.format("%-14s %-24s %s%s", pipeline, kind,
                    e.hasNonNull("traitType") ? e.get("traitType").asText() + " " : "",
                    e.hasNonNull("status") ? e.get("status").asText() + (e.hasNonNull("message") ? " (" + e.get("message").asText() + ")" : "")
                            : e.path("message").asText("")));
        }
        eventsPrinted.put(pipeline, all.size());
        return evaluations;
    }

    private void narrateExecutions() {
        for (ExecutionSummary s : runtime.stateMachine().listExecutions(null)) {
            List<HistoryEvent> history = runtime.stateMachine().getExecutionHistory(s.executionArn());
            String state = history.reversed().stream()
                    .filter(h -> h.type().name().endsWith("StateEntered"))
                    .map(h -> JSON.valueToTree(h.details()).path("name").asText())
                    .findFirst().orElse("-");
            String line = s.status() + " at " + state;
            if (!line.equals(lastExecutionLine.put(s.name(), line))) {
                say(String.format("execution %-48s %s", s.name(), line));
            }
        }
    }

    private void summary() throws IOException, InterruptedException {
        say("done: " + GOLD + " completed after " + SILVER + " cascaded to it");
        for (String p : List.of(SILVER, GOLD)) {
            for (JsonNode l : get("/pipelines/" + p + "/runlogs").path("items")) {
                say(String.format("run log %-14s %s %-6s %-10s failed attempts %d", p, l.path("date").asText(), l.path("scheduleId").asText(),
                        l.path("status").asText(), l.path("attemptNumber").asInt()));
            }
        }
        say("jobs triggered: " + jobs.received().stream().map(FakeJobServer.Received::job).toList());
    }

    private String runLogStatus(String pipeline) throws IOException, InterruptedException {
        JsonNode items = get("/pipelines/" + pipeline + "/runlogs").path("items");
        return items.isEmpty() ? "none" : items.get(0).path("status").asText();
    }

    private String resource(String name) throws IOException {
        try (InputStream in = Demo.class.getResourceAsStream("/demo/" + name)) {
            if (in == null) {
                throw new IOException("demo resource " + name + " is missing from the build");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("{{jobs}}", jobs.endpoint().toString());
        }
    }

    private void say(String line) {
        long s = Duration.between(started, Instant.now()).toMillis();
        out.printf("[%5.1fs] %s%n", s / 1000.0, line);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET().build(), path);
    }

    private void put(String path, String body) throws IOException, InterruptedException {
        send(HttpRequest.newBuilder(uri(path)).header("Content-Type", body.startsWith("{") ? "application/json" : "application/yaml")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), path);
    }

    private URI uri(String path) {
        return URI.create(runtime.apiEndpoint() + path);
    }

    private JsonNode send(HttpRequest request, String path) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IOException(request.method() + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body() == null || r.body().isBlank() ? JSON.createObjectNode() : JSON.readTree(r.body());
    }
}
