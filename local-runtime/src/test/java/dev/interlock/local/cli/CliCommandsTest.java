package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import dev.interlock.local.api.LocalApiServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CliCommandsTest {

    private static final String RERUN_NEWER = """
            {"rerunId":"rr-2","pipelineId":"silver","scheduleId":"daily","date":"2026-03-01","source":"late-arrival",
             "reason":"late arrival detected: row-count","status":"SKIPPED","statusReason":"rerun budget spent (3 of 3 reruns today)",
             "requestedAt":"2026-03-02T10:00:00.000Z"}""";
    private static final String RERUN_OLDER = """
            {"rerunId":"rr-1","pipelineId":"silver","scheduleId":"daily","date":"2026-02-27","source":"manual",
             "reason":"vendor resent","status":"COMPLETED","requestedAt":"2026-03-02T09:00:00.000Z"}""";

    private final List<APIGatewayProxyRequestEvent> received = new CopyOnWriteArrayList<>();
    private LocalApiServer server;
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream originalErr = System.err;

    @BeforeEach
    void start() throws Exception {
        server = LocalApiServer.start(0, (event, ctx) -> {
            received.add(event);
            if (event.getPath().startsWith("/pipelines/broken")) {
                return new APIGatewayProxyResponseEvent()
                        .withStatusCode(400)
                        .withHeaders(Map.of("Content-Type", "application/problem+json"))
                        .withBody(
                                "{\"title\":\"Invalid pipeline\",\"status\":400,\"errors\":[{\"path\":\"$.trigger.url\",\"message\":\"is required for http triggers\"}]}");
            }
            if (event.getPath().equals("/pipelines/silver/reruns") && "GET".equals(event.getHttpMethod())) {
                Map<String, String> query =
                        event.getQueryStringParameters() == null ? Map.of() : event.getQueryStringParameters();
                return new APIGatewayProxyResponseEvent()
                        .withStatusCode(200)
                        .withBody(
                                query.containsKey("cursor")
                                        ? "{\"items\":[" + RERUN_OLDER + "]}"
                                        : "{\"items\":[" + RERUN_NEWER + "],\"nextCursor\":\"page-2\"}");
            }
            return new APIGatewayProxyResponseEvent()
                    .withStatusCode(200)
                    .withBody(event.getBody() == null ? "{}" : event.getBody());
        });
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @AfterEach
    void stop() {
        System.setErr(originalErr);
        server.close();
    }

    private int run(String... args) {
        return InterlockCli.run(args);
    }

    @Test
    void applyRegistersEveryDocumentOfADirectoryCalendarsAndArchetypesFirst(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pipelines.yaml"), """
                name: silver
                archetype: batch-ingestion
                trigger: {type: http, url: "http://127.0.0.1:9/run"}
                ---
                name: gold
                archetype: batch-ingestion
                trigger: {type: glue, jobName: gold-etl}
                """);
        Files.createDirectories(dir.resolve("shared"));
        Files.writeString(
                dir.resolve("shared/holidays.json"),
                "{\"kind\":\"calendar\",\"name\":\"us-holidays\",\"dates\":[\"2026-12-25\"]}");
        Files.writeString(dir.resolve("shared/readme.txt"), "not a document");

        int code = run(
                "apply", "-f", dir.toString(), "--endpoint", server.endpoint().toString());

        assertThat(code).isZero();
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath())
                .containsExactly(
                        "POST /calendars/us-holidays/validate",
                        "POST /pipelines/silver/validate",
                        "POST /pipelines/gold/validate",
                        "PUT /calendars/us-holidays",
                        "PUT /pipelines/silver",
                        "PUT /pipelines/gold");
        assertThat(received.get(3).getBody()).doesNotContain("kind").contains("\"dates\":[\"2026-12-25\"]");
        assertThat(received.get(5).getBody()).contains("\"jobName\":\"gold-etl\"");
    }

    @Test
    void applyRegistersAnUpstreamBeforeThePipelinesThatWaitForIt(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("a-gold.yaml"), """
                name: gold
                archetype: batch-ingestion
                traits: {upstream-dependency: {config: {upstreamPipeline: silver}}}
                trigger: {type: glue, jobName: gold-etl}
                """);
        Files.writeString(dir.resolve("b-silver.yaml"), """
                name: silver
                archetype: batch-ingestion
                trigger: {type: glue, jobName: silver-etl}
                """);

        int code = run(
                "apply", "-f", dir.toString(), "--endpoint", server.endpoint().toString());

        assertThat(code).isZero();
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath())
                .endsWith("PUT /pipelines/silver", "PUT /pipelines/gold");
    }

    @Test
    void applyRefusesACycleAmongItsPipelinesBeforeSendingAnything(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pipelines.yaml"), """
                name: gold
                archetype: batch-ingestion
                traits: {upstream-dependency: {config: {upstreamPipeline: silver}}}
                trigger: {type: glue, jobName: gold-etl}
                ---
                name: silver
                archetype: batch-ingestion
                traits: {upstream-dependency: {config: {upstreamPipeline: gold}}}
                trigger: {type: glue, jobName: silver-etl}
                """);

        int code = run(
                "apply", "-f", dir.toString(), "--endpoint", server.endpoint().toString());

        assertThat(code).isEqualTo(1);
        assertThat(received).isEmpty();
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("pipelines.yaml:3: pipelines wait for each other in a cycle: gold -> silver -> gold")
                .contains("nothing was registered");
    }

    @Test
    void aRejectedDocumentFailsTheCommandAndPrintsEveryErrorPath(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("broken.yaml"), "name: broken\narchetype: batch-ingestion\ntrigger: {type: http}\n");

        int code = run(
                "apply",
                "-f",
                dir.resolve("broken.yaml").toString(),
                "--endpoint",
                server.endpoint().toString());

        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains(
                        "pipeline broken is invalid",
                        "HTTP 400 Invalid pipeline",
                        "broken.yaml:3  $.trigger.url: is required for http triggers");
        assertThat(received).extracting(e -> e.getHttpMethod()).containsOnly("POST");
    }

    @Test
    void evaluateAndRerunPostTheirBodies() {
        String url = server.endpoint().toString();
        assertThat(run("evaluate", "silver", "--schedule", "h06", "--date", "2026-03-01", "--endpoint", url))
                .isZero();
        assertThat(run("rerun", "silver", "--date", "2026-03-01", "--reason", "late data", "--endpoint", url))
                .isZero();
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath() + " " + e.getBody())
                .containsExactly(
                        "POST /pipelines/silver/evaluations {\"scheduleId\":\"h06\",\"date\":\"2026-03-01\"}",
                        "POST /pipelines/silver/reruns {\"date\":\"2026-03-01\",\"reason\":\"late data\"}");
    }

    @Test
    void rerunsListsEveryPageNewestFirstWithStatusAndReason() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream originalOut = System.out;
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        int code;
        try {
            code = run("reruns", "silver", "--endpoint", server.endpoint().toString());
        } finally {
            System.setOut(originalOut);
        }

        assertThat(code).isZero();
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath())
                .as("the pipeline read once for the zone its times are shown in")
                .containsExactly(
                        "GET /pipelines/silver/reruns", "GET /pipelines/silver", "GET /pipelines/silver/reruns");
        assertThat(received.stream().filter(r -> r.getPath().endsWith("/reruns")))
                .extracting(APIGatewayProxyRequestEvent::getQueryStringParameters)
                .containsExactly(Map.of("limit", "100"), Map.of("limit", "100", "cursor", "page-2"));
        List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0))
                .contains("2026-03-01", "SKIPPED", "late-arrival", "rr-2", "rerun budget spent (3 of 3 reruns today)");
        assertThat(lines.get(1)).contains("2026-02-27", "COMPLETED", "manual", "rr-1", "vendor resent");
        assertThat(lines.get(2)).isEqualTo("2 rerun(s)");
    }

    @Test
    void unlockDeletesTheLockOfTheDayWithItsReasonAndDefaultsTheSchedule() {
        String url = server.endpoint().toString();
        assertThat(run("unlock", "silver", "--date", "2026-03-01", "--reason", "aborted at 3 am", "--endpoint", url))
                .isZero();
        assertThat(run("unlock", "silver", "--schedule", "h06", "--date", "2026-03-01", "--endpoint", url))
                .isZero();
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath() + " " + e.getQueryStringParameters())
                .containsExactly(
                        "DELETE /pipelines/silver/locks/daily/2026-03-01 {reason=aborted at 3 am}",
                        "DELETE /pipelines/silver/locks/h06/2026-03-01 null");
        assertThat(run("unlock", "silver", "--endpoint", url))
                .as("the day must be named")
                .isNotZero();
    }

    @Test
    void sigv4SignsRequestsForExecuteApi() {
        System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        try {
            assertThat(run(
                            "pipelines",
                            "--sigv4",
                            "--region",
                            "eu-west-1",
                            "--endpoint",
                            server.endpoint().toString()))
                    .isZero();
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
        Map<String, String> headers = received.getFirst().getHeaders();
        assertThat(headers.get("Authorization"))
                .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/eu-west-1/execute-api/aws4_request");
        assertThat(headers).containsKey("X-amz-date");
    }

    @Test
    void theUiServerServesTheUiAndForwardsOnlyReadsSignedWithSigV4() throws Exception {
        System.setProperty("aws.accessKeyId", "AKIDEXAMPLE");
        System.setProperty("aws.secretAccessKey", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        try (var ui = UiCommand.start(0, ApiClient.forEndpoint(server.endpoint().toString(), true, "eu-west-1"))) {
            var page = http.send(
                    java.net.http.HttpRequest.newBuilder(ui.endpoint().resolve("/ui/"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(page.statusCode()).isEqualTo(200);
            assertThat(page.body()).contains("<script type=\"module\" src=\"app.js\">");
            assertThat(page.headers().firstValue("Content-Security-Policy"))
                    .hasValueSatisfying(csp -> assertThat(csp).contains("default-src 'self'"));
            var status = http.send(
                    java.net.http.HttpRequest.newBuilder(ui.endpoint().resolve("/status?date=2026-03-10"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(status.statusCode()).isEqualTo(200);
            var write = http.send(
                    java.net.http.HttpRequest.newBuilder(ui.endpoint().resolve("/pipelines/silver"))
                            .PUT(java.net.http.HttpRequest.BodyPublishers.ofString("{}"))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(write.statusCode())
                    .as("a page can never write through the UI server")
                    .isEqualTo(405);
        } finally {
            System.clearProperty("aws.accessKeyId");
            System.clearProperty("aws.secretAccessKey");
        }
        assertThat(received)
                .extracting(e -> e.getHttpMethod() + " " + e.getPath())
                .containsExactly("GET /status");
        assertThat(received.getFirst().getQueryStringParameters()).containsEntry("date", "2026-03-10");
        assertThat(received.getFirst().getHeaders().get("Authorization"))
                .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                .contains("/eu-west-1/execute-api/aws4_request");
    }

    @Test
    void theLocalApiServesTheUiFilesAndNothingOutsideThem() throws Exception {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        for (String file : List.of("/ui/", "/ui/app.js", "/ui/style.css")) {
            var r = http.send(
                    java.net.http.HttpRequest.newBuilder(server.endpoint().resolve(file))
                            .build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(file).isEqualTo(200);
            assertThat(r.body())
                    .as(file + " loads nothing from another origin")
                    .doesNotContainPattern(
                            "(src|href)\\s*=\\s*[\"']?(https?:)?//|url\\(\\s*[\"']?(https?:)?//|fetch\\(\\s*[\"'`](https?:)?//|from\\s+[\"'](https?:)?//");
        }
        var traversal = http.send(
                java.net.http.HttpRequest.newBuilder(server.endpoint().resolve("/ui/..%2F..%2Fopenapi.yaml"))
                        .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(traversal.statusCode()).isEqualTo(404);
        assertThat(received).as("UI files never reach the API function").isEmpty();
    }

    @Test
    void kindIsExplicitOrInferredFromTheShape() throws Exception {
        var json = Output.json();
        assertThat(DocumentFiles.kindOf((com.fasterxml.jackson.databind.node.ObjectNode)
                        json.readTree("{\"name\":\"a\",\"requiredTraits\":[]}")))
                .contains("archetype");
        assertThat(DocumentFiles.kindOf((com.fasterxml.jackson.databind.node.ObjectNode)
                        json.readTree("{\"name\":\"c\",\"days\":[\"saturday\"]}")))
                .contains("calendar");
        assertThat(DocumentFiles.kindOf((com.fasterxml.jackson.databind.node.ObjectNode)
                        json.readTree("{\"kind\":\"Pipeline\",\"name\":\"p\"}")))
                .contains("pipeline");
        assertThat(DocumentFiles.kindOf((com.fasterxml.jackson.databind.node.ObjectNode)
                        json.readTree("{\"kind\":\"job\",\"name\":\"p\"}")))
                .isEmpty();
    }
}
