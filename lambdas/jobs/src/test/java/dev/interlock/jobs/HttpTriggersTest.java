package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.store.Backoff;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The http, Airflow and Databricks types against a real HTTP server on 127.0.0.1. */
class HttpTriggersTest {

    private static final Map<String, String> ENV = Map.of(
            "INTERLOCK_AIRFLOW_TOKEN",
            "af-token",
            "INTERLOCK_DBX_TOKEN",
            "dbx-token",
            "INTERLOCK_ELSEWHERE_TOKEN",
            "elsewhere-token",
            "AWS_SECRET_ACCESS_KEY",
            "wJalrXUtnFEMI",
            "INTERLOCK_SECRET_HOSTS",
            "INTERLOCK_AIRFLOW_*=127.0.0.1;INTERLOCK_DBX_*=127.0.0.1;"
                    + "INTERLOCK_ELSEWHERE_TOKEN=elsewhere.example.com");

    private final LocalHttpServer server = LocalHttpServer.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));

    private TriggerRunners runners(boolean allowPrivate) {
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(allowPrivate, HostResolver.system()),
                clock,
                new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance));
        Environment environment = Environment.of(ENV);
        return new TriggerRunners(
                () -> null,
                () -> null,
                () -> null,
                () -> null,
                () -> null,
                http,
                OutboundTemplates.create(environment, new AwsClients(environment)),
                clock);
    }

    private final TriggerRunners runners = runners(true);

    @AfterEach
    void stop() {
        server.close();
    }

    private TriggerResult start(TriggerConfig trigger) {
        return start("daily", trigger);
    }

    private TriggerResult start(String scheduleId, TriggerConfig trigger) {
        return runners.start(new TriggerRequest("orders", scheduleId, "2026-03-01", "run-42", trigger));
    }

    private String base() {
        return "http://127.0.0.1:" + server.port();
    }

    // ---- http ----

    @Test
    void httpSendsTheRenderedRequestAndCompletesOnA2xx() {
        server.answer("PUT /hooks/start", Answer.status(204, ""));
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", "Bearer ${INTERLOCK_DBX_TOKEN}");
        headers.put("X-Run", "${runId}");
        TriggerResult result = start(
                "h07",
                new HttpTrigger(
                        "put",
                        base() + "/hooks/start?date=${date}&hour=${hour}",
                        headers,
                        "{\"token\":\"$INTERLOCK_DBX_TOKEN\",\"secret\":\"$AWS_SECRET_ACCESS_KEY\","
                                + "\"schedule\":\"${scheduleId}\",\"pipeline\":\"${pipelineId}\",\"spark\":\"$${spark.x}\"}",
                        5));

        assertThat(result).isEqualTo(TriggerResult.completed(Map.of("http_status", "204")));
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.method()).isEqualTo("PUT");
        assertThat(sent.query()).isEqualTo("date=2026-03-01&hour=07");
        assertThat(sent.headers())
                .containsEntry("Authorization", "Bearer dbx-token")
                .containsEntry("X-Run", "run-42")
                .containsEntry("Idempotency-Key", "run-42")
                .containsEntry("Content-Type", "application/json");
        // Only INTERLOCK_* variables are credentials; other $NAME text is sent as written, $${ is a literal ${.
        assertThat(sent.body())
                .isEqualTo("{\"token\":\"dbx-token\",\"secret\":\"$AWS_SECRET_ACCESS_KEY\","
                        + "\"schedule\":\"h07\",\"pipeline\":\"orders\",\"spark\":\"${spark.x}\"}");
    }

    @Test
    void aResumedHttpTriggerSendsTheRunsIdempotencyKeyAndSaysTheJobWasStartedByIt() {
        server.answer("POST /hooks/start", Answer.status(200, "{}"));
        TriggerResult result = runners.start(new TriggerRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                new HttpTrigger("post", base() + "/hooks/start", null, null, 5),
                true));

        assertThat(result)
                .isEqualTo(TriggerResult.completed(Map.of("http_status", "200"))
                        .withEarlierStart(EarlierStart.byToken("http Idempotency-Key header")));
        assertThat(server.requests().getFirst().headers()).containsEntry("Idempotency-Key", "run-42");
    }

    @Test
    void anUnknownPlaceholderIsRefusedNeverSentLiterally() {
        assertThat(start(
                        new HttpTrigger(null, base() + "/hook", Map.of("X-Leak", "${AWS_SECRET_ACCESS_KEY}"), null, 5)))
                .satisfies(r -> assertThat(r.failureCategory()).isEqualTo(FailureCategory.PERMANENT))
                .satisfies(r -> assertThat(r.error())
                        .startsWith("header 'X-Leak': unknown placeholder ${AWS_SECRET_ACCESS_KEY}"));
        assertThat(start(new HttpTrigger(null, base() + "/hook/${dat}", null, null, 5))
                        .error())
                .startsWith("url: unknown placeholder ${dat}");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aCredentialIsNeverSentToAHostTheDeploymentDoesNotAllowForIt() {
        assertThat(start(new HttpTrigger(
                        null,
                        base() + "/hook",
                        Map.of("Authorization", "Bearer ${INTERLOCK_ELSEWHERE_TOKEN}"),
                        null,
                        5)))
                .isEqualTo(TriggerResult.failed(
                        "${INTERLOCK_ELSEWHERE_TOKEN} may not be sent to host '127.0.0.1': "
                                + "INTERLOCK_SECRET_HOSTS allows it only to elsewhere.example.com",
                        FailureCategory.PERMANENT));
        assertThat(start(new HttpTrigger(null, base() + "/hook", null, "{\"t\":\"${INTERLOCK_UNLISTED}\"}", 5))
                        .error())
                .isEqualTo(
                        "${INTERLOCK_UNLISTED} may not be sent to host '127.0.0.1': INTERLOCK_SECRET_HOSTS names no host "
                                + "for INTERLOCK_UNLISTED");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aCredentialValueTheServerEchoesIsMaskedInTheFailure() {
        server.answer("POST /hook", Answer.status(401, "token dbx-token is not valid"));
        TriggerResult result = start(new HttpTrigger(
                null, base() + "/hook", Map.of("Authorization", "Bearer ${INTERLOCK_DBX_TOKEN}"), null, 5));
        assertThat(result)
                .isEqualTo(TriggerResult.failed(
                        "POST " + base() + "/hook returned status 401: token *** is not valid",
                        FailureCategory.PERMANENT));
    }

    @Test
    void httpStatusesAreClassified() {
        server.answer("POST /hook", Answer.status(404, "no such hook"));
        assertThat(start(new HttpTrigger(null, base() + "/hook", null, null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "POST " + base() + "/hook returned status 404: no such hook", FailureCategory.PERMANENT));
        server.answer("POST /hook", Answer.status(500, "boom"));
        assertThat(start(new HttpTrigger(null, base() + "/hook", null, null, 5)).failureCategory())
                .isEqualTo(FailureCategory.TRANSIENT);
        // A POST that may have started the job is not repeated after a 500.
        assertThat(server.requests()).hasSize(2);
    }

    @Test
    void httpTimeoutIsATimeout() {
        server.answer("POST /slow", Answer.hang());
        TriggerResult result = start(new HttpTrigger(null, base() + "/slow", null, null, 1));
        server.releaseHungRequests();
        assertThat(result.status()).isEqualTo(TriggerStatus.FAILED);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(result.error()).isEqualTo("POST " + base() + "/slow: no answer within 1000 ms");
    }

    @Test
    void theUrlGuardRefusesLoopbackUnlessAllowedAndMetadataAlways() {
        server.answer("POST /hook", Answer.status(200, "ok"));
        TriggerResult refused = runners(false)
                .start(new TriggerRequest(
                        "orders",
                        "daily",
                        "2026-03-01",
                        "run-42",
                        new HttpTrigger(null, base() + "/hook", null, null, 5)));
        assertThat(refused)
                .isEqualTo(TriggerResult.failed(
                        "address 127.0.0.1 is loopback; private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true",
                        FailureCategory.PERMANENT));
        assertThat(server.requests()).isEmpty();

        assertThat(start(new HttpTrigger("GET", "http://169.254.169.254/latest/meta-data/iam/", null, null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "address 169.254.169.254 is metadata and never allowed", FailureCategory.PERMANENT));
    }

    @Test
    void aMissingOrMalformedUrlIsAPermanentConfigurationError() {
        assertThat(start(new HttpTrigger(null, null, null, null, 5)))
                .isEqualTo(TriggerResult.failed("http trigger needs 'url'", FailureCategory.PERMANENT));
        assertThat(start(new HttpTrigger(null, "file:///etc/passwd", null, null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "http 'url' must be an http(s) URL with a host", FailureCategory.PERMANENT));
        assertThat(start(new HttpTrigger(null, "http://exa mple/", null, null, 5)))
                .isEqualTo(TriggerResult.failed("http 'url' is not a valid URL", FailureCategory.PERMANENT));
    }

    @Test
    void anUnsetInterlockVariableFailsTheTriggerNamingIt() {
        assertThat(start(new HttpTrigger(
                        null, base() + "/hook", Map.of("Authorization", "Bearer $INTERLOCK_DBX_NOPE"), null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "variable INTERLOCK_DBX_NOPE is referenced but not set", FailureCategory.PERMANENT));
    }

    // ---- airflow ----

    @Test
    void airflowStartsADagRunWithConfAndTheTriggerHeaders() {
        server.answer(
                "POST /api/v1/dags/orders_dag/dagRuns",
                Answer.json(200, "{\"dag_run_id\":\"interlock__run-42\",\"state\":\"queued\"}"));
        TriggerResult result = start(new AirflowTrigger(
                base() + "/",
                "orders_dag",
                Map.of("Authorization", "Basic $INTERLOCK_AIRFLOW_TOKEN"),
                "{\"date\":\"2026-03-01\",\"key\":\"${INTERLOCK_DBX_TOKEN}\"}",
                null,
                5));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of(
                        "airflow_dag_run_id",
                        "interlock__run-42",
                        "airflow_dag_id",
                        "orders_dag",
                        "airflow_url",
                        base(),
                        "airflow_failed_task_check",
                        "true")));
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.headers()).containsEntry("Authorization", "Basic af-token");
        assertThat(sent.body())
                .isEqualTo(
                        "{\"conf\":{\"date\":\"2026-03-01\",\"key\":\"dbx-token\"},\"dag_run_id\":\"interlock__run-42\"}");
    }

    @Test
    void airflowTreatsItsOwnExistingDagRunAsStarted() {
        server.answer(
                "POST /api/v1/dags/d/dagRuns",
                Answer.json(
                        409,
                        "{\"title\":\"DAGRun with DAG ID: 'd' and DAGRun ID: 'interlock__run-42' already exists\"}"));
        assertThat(start(new AirflowTrigger(base(), "d", null, null, null, 5)))
                .isEqualTo(TriggerResult.running(Map.of(
                                "airflow_dag_run_id",
                                "interlock__run-42",
                                "airflow_dag_id",
                                "d",
                                "airflow_url",
                                base(),
                                "airflow_failed_task_check",
                                "true"))
                        .withEarlierStart(EarlierStart.found("airflow dag_run_id interlock__run-42")));
    }

    @Test
    void airflowConfFieldWinsAndAnEmptyConfIsAnObject() {
        server.answer("POST /api/v1/dags/d/dagRuns", Answer.json(200, "{\"dag_run_id\":\"r1\"}"));
        start(new AirflowTrigger(base(), "d", null, null, Map.of("n", 3), 5));
        start(new AirflowTrigger(base(), "d", null, null, null, 5));
        assertThat(server.requests())
                .extracting(LocalHttpServer.Request::body)
                .containsExactly(
                        "{\"conf\":{\"n\":3},\"dag_run_id\":\"interlock__run-42\"}",
                        "{\"conf\":{},\"dag_run_id\":\"interlock__run-42\"}");
    }

    @Test
    void airflowAnswersWithoutARunIdOrWithABadBodyAreErrors() {
        server.answer("POST /api/v1/dags/d/dagRuns", Answer.json(200, "{\"state\":\"queued\"}"));
        assertThat(start(new AirflowTrigger(base(), "d", null, null, null, 5)))
                .isEqualTo(TriggerResult.failed("airflow answered without a dag_run_id", FailureCategory.TRANSIENT));
        assertThat(start(new AirflowTrigger(base(), "d", null, "[1,2]", null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "airflow 'body' must be a JSON object (it becomes the DAG run's conf)",
                        FailureCategory.PERMANENT));
        assertThat(start(new AirflowTrigger(base(), null, null, null, null, 5)))
                .isEqualTo(TriggerResult.failed("airflow trigger needs 'dagId'", FailureCategory.PERMANENT));
        server.answer("POST /api/v1/dags/d/dagRuns", Answer.json(401, "{\"title\":\"Unauthorized\"}"));
        assertThat(start(new AirflowTrigger(base(), "d", null, null, null, 5)).failureCategory())
                .isEqualTo(FailureCategory.PERMANENT);
    }

    @ParameterizedTest
    @CsvSource({
        "queued,running,,queued",
        "running,running,,running",
        "success,succeeded,,success",
        "failed,failed,TRANSIENT,failed",
        "up_for_retry,running,,unrecognised airflow state 'up_for_retry'"
    })
    void airflowPollsWithTheTriggerHeadersAndMapsEveryState(
            String airflowState, String state, FailureCategory category, String message) {
        String runId = "manual__2026-03-01T00:00:00+00:00";
        server.answer(
                "GET /api/v1/dags/orders_dag/dagRuns/manual__2026-03-01T00%3A00%3A00%2B00%3A00",
                Answer.json(200, "{\"dag_run_id\":\"" + runId + "\",\"state\":\"" + airflowState + "\"}"));
        RunCheck check = runners.check(new RunCheckRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                TriggerType.AIRFLOW,
                Map.of("airflow_url", base(), "airflow_dag_id", "orders_dag", "airflow_dag_run_id", runId),
                Map.of("Authorization", "Bearer ${INTERLOCK_AIRFLOW_TOKEN}")));

        assertThat(check).isEqualTo(new RunCheck(RunCheckState.fromJson(state), message, category));
        assertThat(server.requests().getFirst().headers())
                .containsEntry("Authorization", "Bearer af-token")
                .containsEntry("Accept", "application/json")
                .doesNotContainKey("Content-Type");
    }

    @Test
    void airflowPollErrorsAreRetriedAtTheNextPollUnlessPermanent() {
        Map<String, String> metadata = Map.of("airflow_url", base(), "airflow_dag_id", "d", "airflow_dag_run_id", "r1");
        server.answer("GET /api/v1/dags/d/dagRuns/r1", Answer.status(503, "restarting"));
        RunCheck unavailable = runners.check(
                new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", TriggerType.AIRFLOW, metadata, null));
        assertThat(unavailable.state()).isEqualTo(RunCheckState.RUNNING);
        assertThat(unavailable.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);

        server.answer("GET /api/v1/dags/d/dagRuns/r1", Answer.json(200, "not json"));
        assertThat(runners.check(new RunCheckRequest(
                                "orders", "daily", "2026-03-01", "run-42", TriggerType.AIRFLOW, metadata, null))
                        .state())
                .isEqualTo(RunCheckState.RUNNING);

        server.answer("GET /api/v1/dags/d/dagRuns/r1", Answer.status(401, "unauthorized"));
        RunCheck unauthorized = runners.check(
                new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", TriggerType.AIRFLOW, metadata, null));
        assertThat(unauthorized)
                .isEqualTo(RunCheck.failed(
                        "GET " + base() + "/api/v1/dags/d/dagRuns/r1 returned status 401: unauthorized",
                        FailureCategory.PERMANENT));
    }

    @Test
    void airflowCancelMarksTheDagRunFailedWithTheTriggerHeaders() throws Exception {
        Map<String, String> metadata = Map.of("airflow_url", base(), "airflow_dag_id", "d", "airflow_dag_run_id", "r1");
        server.answer(
                "PATCH /api/v1/dags/d/dagRuns/r1", Answer.json(200, "{\"dag_run_id\":\"r1\",\"state\":\"failed\"}"));

        JobCanceller.Cancellation cancelled = runners.cancel(new RunCheckRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                TriggerType.AIRFLOW,
                metadata,
                Map.of("Authorization", "Bearer ${INTERLOCK_AIRFLOW_TOKEN}")));

        assertThat(cancelled.requested()).isTrue();
        assertThat(cancelled.message()).isEqualTo("airflow dag run r1 marked failed (state now failed)");
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.method()).isEqualTo("PATCH");
        assertThat(sent.headers()).containsEntry("Authorization", "Bearer af-token");
        assertThat(InterlockJson.json().readTree(sent.body()))
                .isEqualTo(InterlockJson.json().readTree("{\"state\":\"failed\"}"));

        server.answer("PATCH /api/v1/dags/d/dagRuns/r1", Answer.status(403, "forbidden"));
        JobCanceller.Cancellation refused = runners.cancel(
                new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", TriggerType.AIRFLOW, metadata, null));
        assertThat(refused.requested()).isFalse();
        assertThat(refused.message()).startsWith("cancel failed: PATCH ").contains("403");
    }

    @Test
    void synchronousJobsHaveNothingToCancel() {
        JobCanceller.Cancellation none = runners.cancel(
                new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", TriggerType.HTTP, Map.of(), null));
        assertThat(none.requested()).isFalse();
        assertThat(none.message()).contains("nothing to cancel");
        assertThat(server.requests()).isEmpty();
    }

    // ---- databricks ----

    @Test
    void databricksRunsAJobByIdWithNotebookParamsAndAnIdempotencyToken() throws Exception {
        server.answer("POST /api/2.1/jobs/run-now", Answer.json(200, "{\"run_id\":455644833,\"number_in_job\":1}"));
        TriggerResult result = start(new DatabricksTrigger(
                base() + "/",
                null,
                1234L,
                Map.of("date", "2026-03-01"),
                Map.of("Authorization", "Bearer ${INTERLOCK_DBX_TOKEN}"),
                5));

        assertThat(result)
                .isEqualTo(TriggerResult.running(
                        Map.of("databricks_workspace_url", base(), "databricks_run_id", "455644833")));
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.headers()).containsEntry("Authorization", "Bearer dbx-token");
        assertThat(InterlockJson.json().readTree(sent.body()))
                .isEqualTo(
                        InterlockJson.json()
                                .readTree(
                                        "{\"job_id\":1234,\"notebook_params\":{\"date\":\"2026-03-01\"},\"idempotency_token\":\"run-42\"}"));
    }

    @Test
    void databricksCancelsTheRunById() throws Exception {
        server.answer("POST /api/2.1/jobs/runs/cancel", Answer.json(200, "{}"));

        JobCanceller.Cancellation cancelled = runners.cancel(new RunCheckRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                TriggerType.DATABRICKS,
                Map.of("databricks_workspace_url", base(), "databricks_run_id", "455644833"),
                Map.of("Authorization", "Bearer ${INTERLOCK_DBX_TOKEN}")));

        assertThat(cancelled.requested()).isTrue();
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.headers()).containsEntry("Authorization", "Bearer dbx-token");
        assertThat(InterlockJson.json().readTree(sent.body()))
                .isEqualTo(InterlockJson.json().readTree("{\"run_id\":455644833}"));
    }

    @Test
    void databricksSubmitsAOneTimeRunByName() throws Exception {
        server.answer("POST /api/2.1/jobs/runs/submit", Answer.json(200, "{\"run_id\":7}"));
        assertThat(start(new DatabricksTrigger(base(), "orders-notebook", null, null, null, 5))
                        .metadata())
                .containsEntry("databricks_run_id", "7");
        JsonNode body =
                InterlockJson.json().readTree(server.requests().getFirst().body());
        assertThat(body.get("run_name").asText()).isEqualTo("orders-notebook");
        assertThat(body.has("notebook_params")).isFalse();

        server.answer("POST /api/2.1/jobs/runs/submit", Answer.json(200, "{\"run_id\":0}"));
        assertThat(start(new DatabricksTrigger(base(), "orders-notebook", null, null, null, 5)))
                .isEqualTo(TriggerResult.failed("databricks answered without a run_id", FailureCategory.TRANSIENT));
        assertThat(start(new DatabricksTrigger(base(), null, null, null, null, 5)))
                .isEqualTo(TriggerResult.failed(
                        "databricks trigger needs 'jobId' or 'jobName'", FailureCategory.PERMANENT));
    }

    @ParameterizedTest
    @CsvSource({
        "QUEUED,,running,",
        "PENDING,,running,",
        "RUNNING,,running,",
        "TERMINATING,,running,",
        "BLOCKED,,running,",
        "WAITING_FOR_RETRY,,running,",
        "TERMINATED,SUCCESS,succeeded,",
        "TERMINATED,SUCCESS_WITH_FAILURES,succeeded,",
        "TERMINATED,FAILED,failed,TRANSIENT",
        "TERMINATED,TIMEDOUT,failed,TIMEOUT",
        "TERMINATED,CANCELED,failed,PERMANENT",
        "TERMINATED,MAXIMUM_CONCURRENT_RUNS_REACHED,failed,TRANSIENT",
        "TERMINATED,UPSTREAM_FAILED,failed,TRANSIENT",
        "SKIPPED,,failed,PERMANENT",
        "INTERNAL_ERROR,,failed,TRANSIENT"
    })
    void databricksPollsWithTheTriggerHeadersAndMapsLifeCycleAndResult(
            String life, String result, String state, FailureCategory category) {
        String resultJson = result == null ? "" : ",\"result_state\":\"" + result + "\"";
        server.answer(
                "GET /api/2.1/jobs/runs/get",
                Answer.json(
                        200,
                        "{\"run_id\":7,\"state\":{\"life_cycle_state\":\"" + life + "\"" + resultJson
                                + ",\"state_message\":\"\"}}"));
        RunCheck check = runners.check(new RunCheckRequest(
                "orders",
                "daily",
                "2026-03-01",
                "run-42",
                TriggerType.DATABRICKS,
                Map.of("databricks_workspace_url", base(), "databricks_run_id", "7"),
                Map.of("Authorization", "Bearer $INTERLOCK_DBX_TOKEN")));

        assertThat(check)
                .isEqualTo(new RunCheck(
                        RunCheckState.fromJson(state),
                        life + "/" + (result == null ? "" : result),
                        category,
                        "CANCELED".equals(result) ? "CANCELED" : null));
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.query()).isEqualTo("run_id=7");
        assertThat(sent.headers()).containsEntry("Authorization", "Bearer dbx-token");
    }

    @Test
    void missingHttpMetadataFailsPermanently() {
        assertThat(runners.check(new RunCheckRequest(
                        "orders",
                        "daily",
                        "2026-03-01",
                        "run-42",
                        TriggerType.AIRFLOW,
                        Map.of("airflow_url", base()),
                        null)))
                .isEqualTo(RunCheck.failed(
                        "missing airflow metadata: airflow_dag_id, airflow_dag_run_id", FailureCategory.PERMANENT));
        assertThat(runners.check(new RunCheckRequest(
                        "orders", "daily", "2026-03-01", "run-42", TriggerType.DATABRICKS, Map.of(), null)))
                .isEqualTo(RunCheck.failed(
                        "missing databricks metadata: databricks_workspace_url, databricks_run_id",
                        FailureCategory.PERMANENT));
    }

    @Test
    void synchronousTypesReportSucceededIfEverPolled() {
        for (TriggerType type : new TriggerType[] {TriggerType.HTTP, TriggerType.LAMBDA}) {
            assertThat(runners.check(
                            new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", type, Map.of(), null)))
                    .isEqualTo(RunCheck.succeeded(type.wireName() + " triggers complete when started"));
        }
    }
}
