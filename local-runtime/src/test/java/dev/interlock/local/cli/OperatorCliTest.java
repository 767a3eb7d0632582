package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.api.LocalApiServer;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The operator's commands against an API that answers what the real one does (the bodies are the API's shapes):
 * tables for people, the API's JSON with {@code --output json}, and the commands an operator asks for.
 */
class OperatorCliTest {

    /** "METHOD path" (query left out, or "METHOD path?cursor=c" for a second page) → status and body. */
    private final Map<String, APIGatewayProxyResponseEvent> answers = new ConcurrentHashMap<>();

    private final List<APIGatewayProxyRequestEvent> received = new CopyOnWriteArrayList<>();
    private LocalApiServer server;
    private String url;

    @BeforeEach
    void start() throws Exception {
        server = LocalApiServer.start(0, (event, ctx) -> {
            received.add(event);
            String key = event.getHttpMethod() + " " + event.getPath();
            Map<String, String> query =
                    event.getQueryStringParameters() == null ? Map.of() : event.getQueryStringParameters();
            if (query.containsKey("cursor")) {
                key += "?cursor=" + query.get("cursor");
            }
            APIGatewayProxyResponseEvent answer = answers.get(key);
            return answer != null
                    ? answer
                    : new APIGatewayProxyResponseEvent()
                            .withStatusCode(404)
                            .withHeaders(Map.of("Content-Type", "application/problem+json"))
                            .withBody("{\"title\":\"Not found\",\"status\":404,\"detail\":\"no " + key + "\"}");
        });
        url = server.endpoint().toString();
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private void answer(String key, int status, String body) {
        answers.put(
                key, new APIGatewayProxyResponseEvent().withStatusCode(status).withBody(body));
    }

    record Printed(int code, String out, String err) {}

    private Printed cli(String... args) {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintStream out = System.out;
        PrintStream err = System.err;
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int code = InterlockCli.run(args);
            return new Printed(code, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }

    private static final String EVALUATION = """
            {"marker":{"pipelineId":"silver","scheduleId":"h06","date":"2026-03-01","source":"manual",
              "suffix":"01J0","replay":false,"origin":"cli","createdAt":"2026-03-01T07:00:00.000Z"},
             "executionName":"silver-h06-2026-03-01-manual-01J0"}""";
    private static final String RERUN_ACCEPTED = """
            {"rerun":{"rerunId":"rr-7","pipelineId":"silver","scheduleId":"daily","date":"2026-03-01",
              "source":"manual","reason":"late data","status":"PENDING",
              "executionName":"silver-daily-2026-03-01-rerun-rr-7","requestedAt":"2026-03-02T08:00:00.000Z"},
             "marker":{"pipelineId":"silver","scheduleId":"daily","date":"2026-03-01","source":"rerun"},
             "executionName":"silver-daily-2026-03-01-rerun-rr-7"}""";

    @Test
    void evaluateAndRerunPrintWhatTheyStartedAsTablesAndTheApisJsonOnRequest() throws Exception {
        answer("POST /pipelines/silver/evaluations", 202, EVALUATION);
        answer("POST /pipelines/silver/reruns", 202, RERUN_ACCEPTED);

        Printed evaluate = cli("evaluate", "silver", "--schedule", "h06", "--date", "2026-03-01", "--endpoint", url);
        assertThat(evaluate.code()).as(evaluate.err()).isZero();
        assertThat(evaluate.out())
                .doesNotContain("{")
                .containsPattern("(?m)^PIPELINE +DATE +SCHEDULE +EXECUTION$")
                .containsPattern("(?m)^silver +2026-03-01 +h06 +silver-h06-2026-03-01-manual-01J0$");

        Printed rerun = cli("rerun", "silver", "--date", "2026-03-01", "--reason", "late data", "--endpoint", url);
        assertThat(rerun.code()).as(rerun.err()).isZero();
        assertThat(rerun.out())
                .doesNotContain("{")
                .containsPattern("(?m)^PIPELINE +DATE +SCHEDULE +RERUN +STATUS +EXECUTION$")
                .containsPattern("(?m)^silver +2026-03-01 +daily +rr-7 +PENDING +silver-daily-2026-03-01-rerun-rr-7$");

        Printed json = cli("rerun", "silver", "--reason", "late data", "--output", "json", "--endpoint", url);
        assertThat(json.code()).isZero();
        assertThat(Output.parse(json.out())).isEqualTo(Output.parse(RERUN_ACCEPTED));
        Printed evaluateJson = cli("evaluate", "silver", "-o", "json", "--endpoint", url);
        assertThat(Output.parse(evaluateJson.out())).isEqualTo(Output.parse(EVALUATION));
    }

    @Test
    void alertsReadsTheApisAlertHistoryWithFiltersAndSaysSoWhenThereAreNone() {
        answer("GET /alerts", 200, "{\"items\":[]}");
        Printed none = cli("alerts", "--pipeline", "silver", "--kind", "sla-missed", "--endpoint", url);
        assertThat(none.code()).isZero();
        assertThat(none.out().strip()).startsWith("no alerts").contains("pipeline=silver", "kind=SLA_MISSED", url);
        assertThat(received.getLast().getQueryStringParameters())
                .containsEntry("pipeline", "silver")
                .containsEntry("kind", "SLA_MISSED");

        answer("GET /alerts", 200, """
                {"items":[{"level":"warning","kind":"SLA_MISSED","pipelineId":"silver","scheduleId":"daily",
                "date":"2026-03-01","message":"silver daily missed its 07:30 deadline",
                "timestamp":"2026-03-01T15:31:00.000Z"}]}""");
        answer("GET /pipelines/silver", 200, """
                {"name":"silver","traits":{},"trigger":{"type":"http","url":"http://jobs/silver"},
                 "schedules":[{"name":"daily","timezone":"America/Los_Angeles"}]}""");
        Printed some = cli("alerts", "--since", "2026-03-01", "--endpoint", url);
        assertThat(received.stream()
                        .filter(r -> r.getPath().equals("/alerts"))
                        .toList()
                        .getLast()
                        .getQueryStringParameters())
                .containsEntry("since", "2026-03-01");
        assertThat(some.out())
                .containsPattern("(?m)^TIME +KIND +LEVEL +PIPELINE +DATE +SCHEDULE +MESSAGE$")
                .as("sent at 07:31 in the schedule's zone, with its offset")
                .containsPattern("(?m)^2026-03-01 07:31 -08:00 +SLA_MISSED +warning +silver +2026-03-01 +daily "
                        + "+silver daily missed its 07:30 deadline$")
                .contains("1 alert(s)");
        assertThat(Output.parse(cli("alerts", "-o", "json", "--endpoint", url).out())
                        .at("/items/0/kind")
                        .asText())
                .isEqualTo("SLA_MISSED");
    }

    @Test
    void runsShowStartAndEndTimesAndTheJobSystemsIds() {
        answer("GET /pipelines/silver", 200, "{\"name\":\"silver\"}");
        answer("GET /pipelines/silver/runlogs", 200, """
                {"items":[{"pipelineId":"silver","date":"2026-03-01","scheduleId":"daily","status":"COMPLETED",
                  "attemptNumber":1,"runId":"run-1","startedAt":"2026-03-01T06:00:00.000Z",
                  "completedAt":"2026-03-01T06:20:00.000Z"}]}""");
        answer("GET /pipelines/silver/runs", 200, """
                {"items":[{"runId":"run-2","pipelineId":"silver","scheduleId":"daily","date":"2026-03-02",
                  "status":"RUNNING","version":2,"triggerType":"glue","metadata":{"glue_job_run_id":"jr_9"},
                  "createdAt":"2026-03-02T06:00:01.000Z","updatedAt":"2026-03-02T06:05:00.000Z"},
                 {"runId":"run-1","pipelineId":"silver","scheduleId":"daily","date":"2026-03-01",
                  "status":"COMPLETED","version":3,"triggerType":"glue",
                  "metadata":{"glue_job_name":"silver-etl","glue_job_run_id":"jr_0123abcd"},
                  "createdAt":"2026-03-01T06:00:01.000Z","updatedAt":"2026-03-01T06:20:00.000Z"},
                 {"runId":"run-0","pipelineId":"silver","scheduleId":"daily","date":"2026-02-28",
                  "status":"FAILED","version":2,"triggerType":"airflow",
                  "metadata":{"airflow_url":"http://airflow:8080","airflow_dag_id":"silver","airflow_dag_run_id":"manual__1"},
                  "failureMessage":"dag run failed","createdAt":"2026-02-28T06:00:01.000Z",
                  "updatedAt":"2026-02-28T06:30:00.000Z"}]}""");

        Printed runs = cli("runs", "silver", "--endpoint", url);

        assertThat(runs.code()).as(runs.err()).isZero();
        assertThat(runs.out())
                .containsPattern("(?m)^DATE +SCHEDULE +STATUS +FAILED +ENDED +RUN +FAILURE$")
                .containsPattern("(?m)^2026-03-01 +daily +COMPLETED +1 +2026-03-01 06:20 \\+00:00 +run-1$")
                .containsPattern("(?m)^RUN +DATE +SCHEDULE +STATUS +STARTED +ENDED +JOB +FAILURE$")
                .containsPattern("(?m)^run-2 +2026-03-02 +daily +RUNNING +2026-03-02 06:00:01 \\+00:00 +- +glue jr_9$")
                .containsPattern("(?m)^run-1 +2026-03-01 +daily +COMPLETED +2026-03-01 06:00:01 \\+00:00 "
                        + "+2026-03-01 06:20 \\+00:00 +glue jr_0123abcd$")
                .containsPattern(
                        "(?m)^run-0 .* airflow manual__1 http://airflow:8080/dags/silver/grid\\?dag_run_id=manual__1"
                                + " +dag run failed$");
        JsonNode json = Output.parse(
                cli("runs", "silver", "--output", "json", "--endpoint", url).out());
        assertThat(json.at("/runs/1/metadata/glue_job_run_id").asText()).isEqualTo("jr_0123abcd");
        assertThat(json.at("/runLogs/0/completedAt").asText()).isEqualTo("2026-03-01T06:20:00.000Z");
    }

    @Test
    void eventsReadsEveryPageAndKeepsTheDayAndKindsAskedFor() {
        answer("GET /pipelines/silver/events", 200, """
                {"items":[
                  {"kind":"TRAIT_EVALUATED","pipelineId":"silver","scheduleId":"daily","date":"2026-03-01",
                   "traitType":"source-freshness","status":"FAIL","message":"12 rows, needs 1000",
                   "timestamp":"2026-03-01T05:00:00.000Z"},
                  {"kind":"TRIGGER_FIRED","pipelineId":"silver","scheduleId":"daily","date":"2026-02-28",
                   "status":"RUNNING","message":"glue jr_1","timestamp":"2026-02-28T06:00:00.000Z"}],
                 "nextCursor":"p2"}""");
        answer("GET /pipelines/silver/events?cursor=p2", 200, """
                {"items":[{"kind":"TRIGGER_FIRED","pipelineId":"silver","scheduleId":"daily","date":"2026-03-01",
                   "status":"RUNNING","message":"glue jr_2","timestamp":"2026-03-01T06:00:00.000Z"}]}""");

        Printed all = cli("events", "silver", "--endpoint", url);
        assertThat(all.code()).as(all.err()).isZero();
        assertThat(all.out())
                .containsPattern("(?m)^TIME +DATE +SCHEDULE +KIND +STATUS +MESSAGE$")
                .containsPattern("(?m)^2026-03-01 05:00 \\+00:00 +2026-03-01 +daily +TRAIT_EVALUATED +FAIL "
                        + "+source-freshness: 12 rows, needs 1000$")
                .contains("3 event(s)");
        assertThat(received.stream().filter(r -> r.getPath().endsWith("/events")))
                .extracting(APIGatewayProxyRequestEvent::getQueryStringParameters)
                .containsExactly(Map.of("limit", "100"), Map.of("limit", "100", "cursor", "p2"));

        Printed day = cli("events", "silver", "--date", "2026-03-01", "--kind", "trigger_fired", "--endpoint", url);
        assertThat(day.out())
                .contains("glue jr_2", "1 event(s)")
                .doesNotContain("glue jr_1")
                .doesNotContain("TRAIT_EVALUATED");

        Printed json = cli("events", "silver", "--kind", "TRIGGER_FIRED", "-o", "json", "--endpoint", url);
        assertThat(Output.parse(json.out()).path("items")).hasSize(2);

        Printed none = cli("events", "silver", "--date", "2026-01-01", "--endpoint", url);
        assertThat(none.out().strip()).isEqualTo("no events of silver on 2026-01-01");

        Printed typo = cli("events", "silver", "--kind", "TRIGER_FIRED", "--endpoint", url);
        assertThat(typo.code()).isEqualTo(2);
        assertThat(typo.err()).contains("'TRIGER_FIRED' is not an event kind", "did you mean 'TRIGGER_FIRED'");
    }

    @Test
    void statusStateKeepsOnlyThePipelineDaysInThatState() {
        answer("GET /status", 200, """
                {"items":[
                  {"pipelineId":"bronze","date":"2026-03-01","state":"COMPLETED","reason":"done"},
                  {"pipelineId":"gold","date":"2026-03-01","state":"FAILED","reason":"retries exhausted"},
                  {"pipelineId":"silver","date":"2026-03-01","state":"NOT_READY","reason":"waiting for source-freshness"}]}""");

        Printed notReady = cli("status", "--state", "not_ready", "--endpoint", url);
        assertThat(notReady.code()).as(notReady.err()).isZero();
        assertThat(notReady.out().lines().filter(l -> !l.startsWith("PIPELINE")))
                .containsExactly(
                        "silver    2026-03-01  NOT_READY  -    -     waiting for source-freshness",
                        "1 pipeline(s) NOT_READY");

        Printed two = cli("status", "--state", "FAILED,NOT_READY", "--endpoint", url);
        assertThat(two.out()).contains("gold", "silver", "2 pipeline(s)").doesNotContain("bronze");

        Printed none = cli("status", "--state", "RUNNING", "--endpoint", url);
        assertThat(none.out().strip())
                .isEqualTo("no pipeline day is RUNNING (the states now: COMPLETED, FAILED, NOT_READY)");

        Printed json = cli("status", "--state", "FAILED", "-o", "json", "--endpoint", url);
        assertThat(Output.parse(json.out()).path("items"))
                .singleElement()
                .satisfies(line -> assertThat(line.path("pipelineId").asText()).isEqualTo("gold"));

        Printed onePipeline = cli("status", "silver", "--state", "FAILED", "--endpoint", url);
        assertThat(onePipeline.code()).isEqualTo(2);
    }

    @Test
    void diffSaysPerDocumentWhatApplyWouldChangeComparingWhatTheApiWouldStore(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("pipelines.yaml"), """
                name: fresh
                archetype: batch-ingestion
                trigger: {type: glue, jobName: fresh-etl}
                ---
                name: same
                archetype: batch-ingestion
                trigger: {type: glue, jobName: same-etl}
                ---
                name: moved
                archetype: batch-ingestion
                trigger: {type: glue, jobName: moved-etl-v2}
                """);
        // The API's normalised form: what validate answers and what GET answers for the stored document.
        answer("POST /pipelines/fresh/validate", 200, "{\"valid\":true,\"pipeline\":{\"name\":\"fresh\"}}");
        answer("POST /pipelines/same/validate", 200, """
                {"valid":true,"pipeline":{"name":"same","archetype":"batch-ingestion","retry":{"maxAttempts":3},
                 "trigger":{"type":"glue","jobName":"same-etl"}}}""");
        answer("GET /pipelines/same", 200, """
                {"name":"same","archetype":"batch-ingestion","retry":{"maxAttempts":3},
                 "trigger":{"type":"glue","jobName":"same-etl"}}""");
        answer("POST /pipelines/moved/validate", 200, """
                {"valid":true,"pipeline":{"name":"moved","archetype":"batch-ingestion","retry":{"maxAttempts":3},
                 "trigger":{"type":"glue","jobName":"moved-etl-v2"},"labels":null}}""");
        answer("GET /pipelines/moved", 200, """
                {"name":"moved","archetype":"batch-ingestion","retry":{"maxAttempts":5},
                 "trigger":{"type":"glue","jobName":"moved-etl"}}""");

        Printed diff = cli("diff", "-f", dir.toString(), "--endpoint", url);

        assertThat(diff.code()).as(diff.err()).isZero();
        assertThat(diff.out())
                .containsPattern("(?m)^KIND +NAME +CHANGE +SOURCE +FIELDS$")
                .containsPattern("(?m)^pipeline +fresh +new +\\S*pipelines.yaml$")
                .containsPattern("(?m)^pipeline +same +unchanged +\\S*pipelines.yaml$")
                .containsPattern(
                        "(?m)^pipeline +moved +changed +\\S*pipelines.yaml +retry.maxAttempts, trigger.jobName$")
                .contains("1 new, 1 changed, 1 unchanged; nothing was registered");
        assertThat(received).extracting(e -> e.getHttpMethod()).doesNotContain("PUT", "DELETE");

        JsonNode json = Output.parse(cli("diff", "-f", dir.toString(), "-o", "json", "--endpoint", url)
                .out());
        assertThat(json.at("/items/2/change").asText()).isEqualTo("changed");
        assertThat(json.at("/items/2/fields").toString()).isEqualTo("[\"retry.maxAttempts\",\"trigger.jobName\"]");
    }

    @Test
    void diffOfAnInvalidDocumentPrintsItsProblemsAndFails(@TempDir Path dir) throws Exception {
        Files.writeString(
                dir.resolve("broken.yaml"), "name: broken\narchetype: batch-ingestion\ntrigger: {type: http}\n");
        answers.put(
                "POST /pipelines/broken/validate",
                new APIGatewayProxyResponseEvent()
                        .withStatusCode(400)
                        .withHeaders(Map.of("Content-Type", "application/problem+json"))
                        .withBody("{\"title\":\"Invalid pipeline\",\"status\":400,\"errors\":"
                                + "[{\"path\":\"$.trigger.url\",\"message\":\"is required for http triggers\"}]}"));

        Printed diff = cli("diff", "-f", dir.toString(), "--endpoint", url);

        assertThat(diff.code()).isEqualTo(1);
        assertThat(diff.out()).containsPattern("(?m)^pipeline +broken +invalid ");
        assertThat(diff.err()).contains("broken.yaml:3  $.trigger.url: is required for http triggers");
    }

    @Test
    void validateOfflineChecksTheFilesWithNoRunningSystem(@TempDir Path dir) throws Exception {
        server.close();
        String nowhere = url; // nothing listens there any more
        Files.writeString(dir.resolve("good.yaml"), """
                kind: calendar
                name: team-holidays
                dates: ["2026-12-25"]
                ---
                kind: archetype
                name: team-batch
                requiredTraits:
                  - {type: source-freshness, evaluator: "builtin:always-pass"}
                readinessRule: {type: all-required-pass}
                ---
                name: orders
                archetype: team-batch
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: orders-etl}
                exclusions: {calendar: team-holidays}
                """);

        Printed good = cli("validate", "--offline", "-f", dir.toString(), "--endpoint", nowhere);
        assertThat(good.code()).as(good.err()).isZero();
        assertThat(good.out())
                .contains(
                        "calendar team-holidays is valid",
                        "archetype team-batch is valid",
                        "pipeline orders is valid",
                        "3 document(s) valid (checked offline");

        Path bad = Files.createDirectory(dir.resolve("bad"));
        Files.writeString(bad.resolve("broken.yaml"), """
                name: broken
                archetype: nosuch-archetype
                trigger: {type: http}
                """);
        Printed broken = cli("validate", "--offline", "-f", bad.toString(), "--endpoint", nowhere);
        assertThat(broken.code()).isEqualTo(1);
        assertThat(broken.err())
                .contains("pipeline broken is invalid", "broken.yaml:2  $.archetype:", "$.trigger.url")
                .contains("(checked offline)");

        Printed online = cli("validate", "-f", dir.resolve("good.yaml").toString(), "--endpoint", nowhere);
        assertThat(online.code())
                .as("without --offline, validate needs the API")
                .isNotZero();
    }
}
