package dev.interlock.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.model.json.InterlockJson;
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
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code interlock up --demo}: registers a silver → gold cascade through the API, pushes sensor values so silver
 * is first NOT READY and then READY, and says what it does; the runtime's own narration tells the evaluations,
 * triggers, the cascade and the completions in between, and the demo ends with the run logs once gold completes.
 */
public final class Demo {

    public static final String SILVER = "silver-orders";
    public static final String GOLD = "gold-orders";
    private static final ObjectMapper JSON = InterlockJson.json();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final LocalRuntime runtime;
    private final FakeJobServer jobs;
    private final PrintStream out;
    private final HttpClient http = HttpClient.newHttpClient();
    private final Map<String, Integer> eventsSeen = new HashMap<>();

    public Demo(LocalRuntime runtime, FakeJobServer jobs, PrintStream out) {
        this.runtime = runtime;
        this.jobs = jobs;
        this.out = out;
    }

    /** Runs the demo; true when gold completed within {@code timeout} (real time). */
    public boolean run(Duration timeout) throws IOException, InterruptedException {
        say("registering " + SILVER + " (http trigger) and " + GOLD + " (Airflow trigger, polled), cascade " + SILVER
                + " -> " + GOLD);
        put("/pipelines/" + SILVER, resource("silver-orders.yaml"));
        put("/pipelines/" + GOLD, resource("gold-orders.yaml"));
        // No evaluation request: the data's arrival starts silver's evaluation, as it would in production.
        say(
                "bronze sensor: 500 rows, 12 of 24 partitions -> its arrival starts silver's evaluation, which is NOT READY");
        put("/sensors/bronze-orders", "{\"count\":500,\"partitions\":12}");

        Instant deadline = Instant.now().plus(timeout);
        boolean sensorsComplete = false;
        int silverEvaluations = 0;
        while (Instant.now().isBefore(deadline)) {
            silverEvaluations += newEvaluations(SILVER);
            if (!sensorsComplete && silverEvaluations >= 6) {
                say("bronze sensor: 1,500 rows, 24 of 24 partitions -> silver becomes READY at its next evaluation");
                put("/sensors/bronze-orders", "{\"count\":1500,\"partitions\":24}");
                sensorsComplete = true;
            }
            if ("COMPLETED".equals(runLogStatus(GOLD))) {
                summary();
                return true;
            }
            Thread.sleep(200);
        }
        say("the demo did not finish in " + timeout.toSeconds() + " s; silver run log " + runLogStatus(SILVER)
                + ", gold run log " + runLogStatus(GOLD));
        return false;
    }

    /** Counts the trait evaluations not seen yet (events are append-only, oldest first). */
    private int newEvaluations(String pipeline) throws IOException, InterruptedException {
        List<JsonNode> all = new java.util.ArrayList<>();
        String cursor = null;
        do {
            JsonNode page = get(
                    "/pipelines/" + pipeline + "/events?limit=100" + (cursor == null ? "" : "&cursor=" + enc(cursor)));
            page.path("items").forEach(all::add);
            cursor = page.hasNonNull("nextCursor") ? page.get("nextCursor").asText() : null;
        } while (cursor != null);
        int seen = eventsSeen.getOrDefault(pipeline, 0);
        int evaluations = 0;
        for (JsonNode e : all.subList(Math.min(seen, all.size()), all.size())) {
            if (e.path("kind").asText().equals("TRAIT_EVALUATED")) {
                evaluations++;
            }
        }
        eventsSeen.put(pipeline, all.size());
        return evaluations;
    }

    private void summary() throws IOException, InterruptedException {
        say("done: " + GOLD + " completed after " + SILVER + " cascaded to it");
        for (String p : List.of(SILVER, GOLD)) {
            for (JsonNode l : get("/pipelines/" + p + "/runlogs").path("items")) {
                say(String.format(
                        "run log %-14s %s %-6s %-10s failed attempts %d",
                        p,
                        l.path("date").asText(),
                        l.path("scheduleId").asText(),
                        l.path("status").asText(),
                        l.path("attemptNumber").asInt()));
            }
        }
        say("jobs triggered: "
                + jobs.received().stream().map(FakeJobServer.Received::job).toList());
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
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .replace("{{jobs}}", jobs.endpoint().toString());
        }
    }

    /** In the narration's format: the system's (scaled) time, then what the demo does. */
    private void say(String line) {
        out.println(
                LocalTime.ofInstant(runtime.clock().instant(), ZoneOffset.UTC).format(TIME) + "  demo: " + line);
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private JsonNode get(String path) throws IOException, InterruptedException {
        return send(HttpRequest.newBuilder(uri(path)).GET().build(), path);
    }

    private void put(String path, String body) throws IOException, InterruptedException {
        send(
                HttpRequest.newBuilder(uri(path))
                        .header("Content-Type", body.startsWith("{") ? "application/json" : "application/yaml")
                        .PUT(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                path);
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
