package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A corpus of hostile and broken bodies fed to every write route: every answer is a 4xx problem document, never a
 * 5xx, and the store sees no write at all.
 */
class MalformedInputTest {

    /** A body as sent: text, its Content-Type (null = none), and whether API Gateway marked it base64. */
    record Body(String label, String text, String contentType, boolean base64) {
        static Body json(String label, String text) {
            return new Body(label, text, "application/json", false);
        }

        static Body yaml(String label, String text) {
            return new Body(label, text, "application/yaml", false);
        }
    }

    private static final List<String> WRITE_ROUTES = List.of(
            "PUT /pipelines/silver",
            "POST /pipelines/silver/validate",
            "POST /pipelines/silver/evaluations",
            "POST /pipelines/silver/reruns",
            "PUT /archetypes/house",
            "PUT /calendars/uk",
            "PUT /sensors/orders");

    private final ApiFixture api = new ApiFixture();
    private JsonNode pipelineBefore;

    @BeforeEach
    void register() {
        assertThat(api.call("PUT", "/pipelines/silver", ApiFixture.PIPELINE).status())
                .isEqualTo(201);
        pipelineBefore = api.call("GET", "/pipelines/silver").json();
        api.recording.clear();
    }

    static List<Body> hostileToEveryRoute() {
        String laughs = "a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
                + IntStream.range(1, 9)
                        .mapToObj(i -> {
                            char me = (char) ('a' + i);
                            char prev = (char) ('a' + i - 1);
                            return me + ": &" + me + " [" + ("*" + prev + ",").repeat(8) + "*" + prev + "]";
                        })
                        .collect(Collectors.joining("\n"));
        List<Body> corpus = new ArrayList<>(List.of(
                Body.json("broken JSON", "{\"name\": \"silver\", "),
                Body.json("broken JSON string", "{\"name\": \"sil"),
                Body.json("trailing garbage", "{\"name\":\"silver\"} {\"x\":1}"),
                Body.json(
                        "duplicate keys",
                        "{\"name\":\"silver\",\"name\":\"gold\",\"date\":\"2026-03-09\",\"date\":\"2026-03-10\"}"),
                Body.json("raw NUL in JSON", "{\"name\":\"sil\u0000ver\"}"),
                Body.json("array instead of object", "[{\"name\":\"silver\"}]"),
                Body.json("number instead of object", "42"),
                Body.json("null instead of object", "null"),
                Body.json("string instead of object", "\"silver\""),
                Body.json("deep nesting (arrays)", "[".repeat(100_000) + "]".repeat(100_000)),
                Body.json("deep nesting (objects)", "{\"a\":".repeat(40) + "1" + "}".repeat(40)),
                Body.json("number too long", "{\"count\":" + "9".repeat(5000) + "}"),
                Body.json("huge payload", "{\"name\":\"" + "x".repeat(300_000) + "\"}"),
                Body.json("huge payload of emoji", "{\"name\":\"" + "😀".repeat(70_000) + "\"}"),
                Body.json("emoji keys only", "{\"😀\":\"😀\",\"updatedAt\":\"😀\"}"),
                Body.json("lone surrogate", "{\"\\ud800\":\"\\udfff\",\"updatedAt\":0}"),
                Body.json(
                        "wrong types everywhere",
                        "{\"name\":{\"x\":1},\"archetype\":[],\"date\":[1],\"scheduleId\":7,"
                                + "\"reason\":false,\"requiredTraits\":\"x\",\"days\":5,\"trigger\":\"glue\",\"updatedAt\":1}"),
                Body.yaml("broken YAML", "name: [silver\narchetype: {"),
                Body.yaml("YAML tab indentation", "name: silver\n\tarchetype: x"),
                Body.yaml("YAML alias bomb", laughs),
                Body.yaml("YAML anchor and alias", "name: &n silver\narchetype: *n\ncount: 1"),
                Body.yaml("YAML merge key", "base: &b {count: 1}\nother:\n  <<: *b"),
                Body.yaml("YAML tag", "name: !!python/object/apply:os.system [\"rm -rf /\"]\ncount: 1"),
                Body.yaml("YAML custom tag", "count: !secret 1"),
                Body.yaml("YAML several documents", "count: 1\n---\ncount: 2\n"),
                Body.yaml("YAML deep nesting", "[".repeat(50_000) + "]".repeat(50_000)),
                Body.yaml("YAML raw NUL", "name: sil\u0000ver\ncount: 1"),
                Body.yaml("YAML scalar", "just words"),
                new Body("XML", "<pipeline name=\"silver\"/>", "application/xml", false),
                new Body("form", "name=silver", "application/x-www-form-urlencoded", false),
                new Body("sniffed broken", "name: silver: archetype", null, false),
                new Body("base64 that is not base64", "!!!not base64!!!", "application/json", true),
                new Body(
                        "base64 of invalid UTF-8",
                        Base64.getEncoder().encodeToString(new byte[] {'{', (byte) 0xC3, (byte) 0x28, '}'}),
                        "application/json",
                        true),
                new Body(
                        "base64 too large",
                        Base64.getEncoder().encodeToString(new byte[400_000]),
                        "application/json",
                        true)));
        return corpus;
    }

    @Test
    void everyHostileBodyIsRefusedByEveryWriteRouteWithoutAWrite() {
        List<String> failures = new ArrayList<>();
        int checked = 0;
        for (String route : WRITE_ROUTES) {
            for (Body body : hostileToEveryRoute()) {
                failures.addAll(refusal(route, body));
                checked++;
            }
        }
        assertThat(failures).isEmpty();
        assertThat(checked)
                .isEqualTo(WRITE_ROUTES.size() * hostileToEveryRoute().size());
        assertUnchanged();
    }

    @Test
    void routeSpecificBadBodiesAreRefusedWithoutAWrite() {
        String valid = ApiFixture.PIPELINE;
        String archetype =
                "{\"name\":\"house\",\"requiredTraits\":[{\"type\":\"ready\"}],\"readinessRule\":{\"type\":\"all-required-pass\"}}";
        Map<String, List<String>> cases = Map.of(
                "PUT /pipelines/silver",
                        List.of(
                                valid.replace("\"name\":\"silver\"", "\"name\":\"gold\""),
                                valid.replace("\"name\":\"silver\",", ""),
                                valid.replace(
                                        "\"trigger\":{\"type\":\"glue\",\"jobName\":\"orders\",\"arguments\":{\"--date\":\"${date}\"}}",
                                        "\"trigger\":{\"type\":\"glue\"}"),
                                valid.replace(
                                        "\"name\":\"silver\"",
                                        "\"name\":\"silver\",\"retry\":{\"maxAttempts\":\"3x\"}"),
                                valid.replace(
                                        "\"name\":\"silver\"",
                                        "\"name\":\"silver\",\"exclusions\":{\"dates\":[\"2026-02-30\"]}"),
                                valid.replace("\"name\":\"silver\"", "\"name\":\"sïlver\""),
                                valid.replace("\"name\":\"silver\"", "\"name\":\"sil\\u0000ver\""),
                                valid.replace(
                                        "\"name\":\"silver\"",
                                        "\"name\":\"silver\",\"schedules\":[{\"name\":\"h😀\"}]"),
                                valid.replace("\"name\":\"silver\"", "\"name\":\"silver\",\"tier\":1e400"),
                                valid.replace("\"upstreamPipeline\":\"bronze\"", "\"upstreamPipeline\":\"bron#ze\""),
                                valid.replace("\"upstreamPipeline\":\"bronze\"", "\"upstreamPipeline\":\"\""),
                                valid.replace("\"upstreamPipeline\":\"bronze\"", "\"upstreamPipeline\":[\"bronze\"]")),
                "PUT /archetypes/house",
                        List.of(
                                archetype.replace("\"house\"", "\"home\""),
                                archetype.replace("\"requiredTraits\":[{\"type\":\"ready\"}],", ""),
                                archetype.replace("{\"type\":\"ready\"}", "{\"type\":\"ready\",\"defaultTtl\":\"1m\"}"),
                                archetype.replace("all-required-pass", "majority")),
                "PUT /calendars/uk",
                        List.of(
                                "{\"name\":\"us\"}",
                                "{\"name\":\"uk\",\"dates\":[\"2026-13-01\"]}",
                                "{\"name\":\"uk\",\"days\":\"monday\"}",
                                "{\"name\":\"uk\",\"days\":[\"funday\"]}",
                                "{\"dates\":[]}"),
                "PUT /sensors/orders",
                        List.of(
                                "{}",
                                "{\"updatedAt\":\"2020-01-01T00:00:00.000Z\"}",
                                "{\"a\\u0000\":1}",
                                "{\"😀\":1}",
                                "{\"count\":null}",
                                "{\"count\":1e400}",
                                "{\"nested\":{\"deep\":[-1e999]}}",
                                IntStream.range(0, 101)
                                        .mapToObj(i -> "\"f" + i + "\":1")
                                        .collect(Collectors.joining(",", "{", "}"))),
                "POST /pipelines/silver/evaluations",
                        List.of(
                                "{\"extra\":1}",
                                "{\"date\":\"2026-13-01\"}",
                                "{\"date\":\"yesterday\"}",
                                "{\"date\":20260310}",
                                "{\"scheduleId\":\"h07\"}",
                                "{\"date\":\"2026-03-01\"}",
                                "{\"date\":\"2026-04-01\"}",
                                "{\"date\":\"+2026-03-10\"}"),
                "POST /pipelines/silver/reruns",
                        List.of(
                                "{}",
                                "{\"date\":\"2026-03-09\"}",
                                "{\"date\":\"2026-02-30\",\"reason\":\"x\"}",
                                "{\"date\":\"2026-03-11\",\"reason\":\"x\"}",
                                "{\"date\":\"2026-03-09\",\"reason\":\"" + "r".repeat(1001) + "\"}",
                                "{\"date\":\"2026-03-09\",\"reason\":\"a\\u0000b\"}",
                                "{\"date\":\"2026-03-09\",\"reason\":[\"x\"]}",
                                "{\"date\":\"2026-03-09\",\"reason\":\"x\",\"priority\":\"high\"}"));
        List<String> failures = new ArrayList<>();
        cases.forEach((route, bodies) ->
                bodies.forEach(body -> failures.addAll(refusal(route, Body.json(body, body)))));

        assertThat(failures).isEmpty();
        assertUnchanged();
    }

    @Test
    void wrongPathIdsAreRefusedEvenWithAValidBody() {
        List<String> failures = new ArrayList<>();
        for (String route : List.of(
                "PUT /pipelines/Silver",
                "PUT /pipelines/s",
                "PUT /pipelines/a%23b",
                "PUT /pipelines/%00",
                "POST /pipelines/-silver/evaluations",
                "POST /pipelines/silver%20/reruns",
                "PUT /archetypes/House",
                "PUT /calendars/uk%23x",
                "PUT /sensors/a%23b",
                "PUT /sensors/%F0%9F%98%80",
                "PUT /sensors/😀x",
                "PUT /pipelines/%E0%A4%A",
                "POST /pipelines/ghost/evaluations",
                "POST /pipelines/ghost/reruns")) {
            failures.addAll(refusal(route, Body.json("valid pipeline", ApiFixture.PIPELINE)));
        }
        assertThat(failures).isEmpty();
        assertUnchanged();
    }

    @Test
    void badCursorsAndLimitsAreRefusedByEveryListing() {
        List<String> failures = new ArrayList<>();
        for (String listing : List.of(
                "/pipelines",
                "/pipelines/silver/runs",
                "/pipelines/silver/runlogs",
                "/pipelines/silver/events",
                "/pipelines/silver/traits")) {
            for (Map<String, String> query : List.of(
                    Map.of("limit", "0"),
                    Map.of("limit", "101"),
                    Map.of("limit", "-1"),
                    Map.of("limit", "1e3"),
                    Map.of("limit", "99999999999"),
                    Map.of("limit", ""),
                    Map.of("cursor", "garbage"),
                    Map.of("cursor", "Zm9v"),
                    Map.of("cursor", "x".repeat(5000)),
                    Map.of("cursor", "😀"),
                    Map.of("cursor", " "))) {
                ApiFixture.Reply reply = api.call("GET", listing, null, null, query);
                if (reply.status() != 400 || !"application/problem+json".equals(reply.contentType())) {
                    failures.add(listing + " " + query + " → " + reply.status() + " "
                            + reply.response().body());
                }
            }
        }
        assertThat(failures).isEmpty();
    }

    /** Sends one body; returns what is wrong with the answer (empty when it is a proper 4xx problem and nothing was written). */
    private List<String> refusal(String route, Body body) {
        String[] parts = route.split(" ", 2);
        api.recording.clear();
        ApiResponse response = ApiFixture.documented(
                parts[0],
                parts[1],
                api.api.handle(new ApiRequest(
                        parts[0],
                        parts[1],
                        Map.of(),
                        body.contentType() == null ? Map.of() : Map.of("Content-Type", body.contentType()),
                        body.text(),
                        body.base64(),
                        null)));
        List<String> problems = new ArrayList<>();
        String label =
                route + " ← " + (body.label().length() > 80 ? body.label().substring(0, 80) + "…" : body.label());
        if (response.status() < 400 || response.status() >= 500) {
            problems.add(label + ": status " + response.status() + " " + response.body());
            return problems;
        }
        if (!"application/problem+json".equals(response.headers().get("Content-Type"))) {
            problems.add(label + ": content type " + response.headers().get("Content-Type"));
        }
        JsonNode problem = InterlockJson.tree(response.body());
        if (!problem.path("type").asText().startsWith(ProblemType.URI_PREFIX)
                || problem.path("status").asInt() != response.status()
                || problem.path("title").asText().isBlank()
                || problem.path("detail").asText().isBlank()
                || !problem.path("errors").isArray()) {
            problems.add(label + ": not a problem document: " + response.body());
        }
        if (response.status() == 400 && problem.path("errors").isEmpty()) {
            problems.add(label + ": a 400 without errors");
        }
        problem.path("errors").forEach(e -> {
            if (e.path("path").asText().isBlank() || e.path("message").asText().isBlank()) {
                problems.add(label + ": an error without path or message: " + e);
            }
        });
        if (!api.recording.writes().isEmpty()) {
            problems.add(label + ": wrote " + api.recording.writes());
        }
        return problems;
    }

    private void assertUnchanged() {
        assertThat(api.call("GET", "/pipelines/silver").json()).isEqualTo(pipelineBefore);
        assertThat(api.call("GET", "/pipelines").json().get("items"))
                .extracting(JsonNode::asText)
                .hasSize(2);
        assertThat(api.store.sensors().get("orders")).isEmpty();
        assertThat(api.store.calendars().get("uk")).isEmpty();
        assertThat(api.store.archetypes().get("house")).isEmpty();
        assertThat(api.store.cascade().markers("silver", java.time.LocalDate.of(2026, 3, 10)))
                .isEmpty();
        assertThat(api.store
                        .reruns()
                        .list(dev.interlock.store.PageRequest.first(10))
                        .items())
                .isEmpty();
    }
}
