package dev.interlock.local.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.alerts.AlertSink;
import dev.interlock.local.aws.FunctionRegistry;
import dev.interlock.local.aws.LocalAwsServer;
import dev.interlock.local.aws.LocalSecrets;
import dev.interlock.local.events.EventBridgeApi;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.sfn.LocalStepFunctionsServer;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.statemachine.engine.ScaledRealClock;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.emr.model.ActionOnFailure;
import software.amazon.awssdk.services.emr.model.StepState;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.glue.model.InvalidInputException;
import software.amazon.awssdk.services.glue.model.JobRunState;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The job fakes over the real AWS protocols, through the SDK clients the trigger and run checker use: duration and
 * outcome from each job's own arguments, idempotency where AWS has it, cancellation, and the job-state events each
 * publishes to the local EventBridge in AWS's shape.
 */
class JobFakesTest {

    /** A fake's default 30 s take 30 ms. */
    /**
     * A job still running when this module's tests are over (the fakes' longest, a week: ten minutes at 1000×): a
     * fake's run that ends after its test publishes its end to a closed endpoint and writes that failure to the stderr
     * later tests share (CliErrorsTest read it as the CLI's error once).
     */
    private static final String NEVER_ENDS = "604800";

    private final ScaledRealClock clock = new ScaledRealClock(1000.0);

    private final LocalEventBus bus = new LocalEventBus();
    private LocalAwsServer aws;
    private LocalStepFunctionsServer sfn;
    private AwsClients clients;
    private EventBridgeClient eventBridge;
    private JobFakes jobs;

    @BeforeEach
    void start() throws Exception {
        AlertSink sink = new AlertSink(Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC), a -> {});
        jobs = new JobFakes(clock, () -> eventBridge, null);
        aws = LocalAwsServer.start(
                0,
                new FunctionRegistry(),
                sink,
                jobs,
                new EventBridgeApi(bus, Clock.systemUTC()),
                LocalSecrets.load(null, java.util.Map.of()));
        sfn = LocalStepFunctionsServer.start(0, jobs.stepFunctions());
        eventBridge = EventBridgeClient.builder()
                .endpointOverride(aws.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
        clients = new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_GLUE", aws.endpoint().toString(),
                "INTERLOCK_ENDPOINT_LOGS", aws.endpoint().toString(),
                "INTERLOCK_ENDPOINT_EMR", aws.endpoint().toString(),
                "INTERLOCK_ENDPOINT_EMR_SERVERLESS", aws.endpoint().toString(),
                "INTERLOCK_ENDPOINT_LAMBDA", aws.endpoint().toString(),
                "INTERLOCK_ENDPOINT_STEPFUNCTIONS", sfn.endpoint().toString())));
    }

    @AfterEach
    void stop() {
        clients.close();
        eventBridge.close();
        sfn.close();
        aws.close();
    }

    private static <T> T await(Supplier<T> probe, Predicate<T> done) {
        Instant deadline = Instant.now().plusSeconds(30);
        T value = probe.get();
        while (!done.test(value)) {
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("condition not reached; last value: " + value);
            }
            Thread.onSpinWait();
            value = probe.get();
        }
        return value;
    }

    private JsonNode event(String detailType, Predicate<JsonNode> detail) {
        return await(
                        () -> bus.events().stream()
                                .filter(e -> e.path("detail-type").asText().equals(detailType)
                                        && detail.test(e.path("detail")))
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
    }

    @Test
    void aGlueJobRunsForItsFakeDurationAndEndsWithItsFakeOutcome() {
        String runId = clients.glue()
                .startJobRun(b -> b.jobName("orders")
                        .arguments(Map.of(
                                "--date", "2026-03-01", FakeJob.DURATION_KEY, "120", FakeJob.OUTCOME_KEY, "FAILED")))
                .jobRunId();

        var ended = await(
                () -> clients.glue()
                        .getJobRun(b -> b.jobName("orders").runId(runId))
                        .jobRun(),
                r -> r.jobRunState() != JobRunState.RUNNING);

        assertThat(runId).startsWith("jr_");
        assertThat(ended.jobRunState()).isEqualTo(JobRunState.FAILED);
        assertThat(ended.errorMessage()).contains(FakeJob.OUTCOME_KEY);
        assertThat(Duration.between(ended.startedOn(), ended.completedOn())).isEqualTo(Duration.ofSeconds(120));
        JsonNode event =
                event("Glue Job State Change", d -> d.path("jobRunId").asText().equals(runId));
        assertThat(event.path("source").asText()).isEqualTo("aws.glue");
        assertThat(event.path("detail").path("jobName").asText()).isEqualTo("orders");
        assertThat(event.path("detail").path("state").asText()).isEqualTo("FAILED");
        assertThat(event.path("detail").path("severity").asText()).isEqualTo("ERROR");
        assertThat(event.path("version").asText()).isEqualTo("0");
        assertThat(event.path("account").asText()).isEqualTo("000000000000");
    }

    @Test
    void aGlueRunThatLiesWritesItsErrorLogAndErrorMessageWhichFilterLogEventsServes() {
        String liar = clients.glue()
                .startJobRun(b -> b.jobName("orders")
                        .arguments(Map.of(
                                FakeJob.DURATION_KEY,
                                "10",
                                FakeJob.LOG_ERRORS_KEY,
                                "WARN retrying\nERROR Executor: Task 3 failed\\nFATAL driver lost",
                                FakeJob.ERROR_MESSAGE_KEY,
                                "2 partitions skipped")))
                .jobRunId();
        String honest = clients.glue()
                .startJobRun(b -> b.jobName("orders").arguments(Map.of(FakeJob.DURATION_KEY, "10")))
                .jobRunId();
        var ended = await(
                () -> clients.glue()
                        .getJobRun(b -> b.jobName("orders").runId(liar))
                        .jobRun(),
                r -> r.jobRunState() != JobRunState.RUNNING);
        assertThat(ended.jobRunState()).isEqualTo(JobRunState.SUCCEEDED);
        assertThat(ended.errorMessage()).isEqualTo("2 partitions skipped");

        var errors = clients.logs()
                .filterLogEvents(b -> b.logGroupName("/aws-glue/jobs/error")
                        .logStreamNamePrefix(liar)
                        .filterPattern("?ERROR ?FATAL"));
        assertThat(errors.events())
                .extracting(e -> e.logStreamName() + " " + e.message())
                .containsExactly(liar + " ERROR Executor: Task 3 failed", liar + " FATAL driver lost");
        assertThat(clients.logs()
                        .filterLogEvents(b -> b.logGroupName("/aws-glue/jobs/error")
                                .logStreamNamePrefix(liar)
                                .filterPattern("ERROR -Executor"))
                        .events())
                .isEmpty();
        assertThat(clients.logs()
                        .filterLogEvents(b -> b.logGroupName("/aws-glue/jobs/error")
                                .logStreamNamePrefix(liar)
                                .limit(2))
                        .nextToken())
                .as("4 lines (the start line and three), 2 a page")
                .isNotNull();
        assertThat(clients.logs()
                        .filterLogEvents(b -> b.logGroupName("/aws-glue/jobs/error")
                                .logStreamNamePrefix(honest)
                                .filterPattern("?ERROR ?FATAL"))
                        .events())
                .isEmpty();
        assertThatThrownBy(() -> clients.logs().filterLogEvents(b -> b.logGroupName("/aws-glue/jobs/output")))
                .isInstanceOf(software.amazon.awssdk.services.cloudwatchlogs.model.ResourceNotFoundException.class);
    }

    @Test
    void aStartHeldAfterAcceptingIsRecordedAndRunningAndAnsweredOnlyWhenReleased() throws Exception {
        jobs.holds().hold("held-etl", StartHolds.Point.AFTER_ACCEPTING);
        CompletableFuture<String> answer = CompletableFuture.supplyAsync(() -> clients.glue()
                .startJobRun(b -> b.jobName("held-etl").arguments(Map.of(FakeJob.DURATION_KEY, NEVER_ENDS)))
                .jobRunId());
        await(() -> jobs.holds().waiting("held-etl"), n -> n == 1);

        var recorded = clients.glue().getJobRuns(b -> b.jobName("held-etl")).jobRuns();
        assertThat(recorded)
                .as("Glue accepted the start while its answer is held")
                .singleElement()
                .satisfies(r -> assertThat(r.jobRunState()).isEqualTo(JobRunState.RUNNING));
        assertThat(answer).isNotDone();
        jobs.holds().release("held-etl");

        assertThat(answer.get(30, TimeUnit.SECONDS))
                .isEqualTo(recorded.getFirst().id());
        assertThat(jobs.holds().waiting("held-etl")).isZero();
    }

    @Test
    void aStartHeldBeforeAcceptingRecordsNothingAndIsRefusedWhenReleased() throws Exception {
        jobs.holds().hold("00held", StartHolds.Point.BEFORE_ACCEPTING);
        // A plain HTTP call, not the SDK: its retry of the refusal would start the job once the hold is gone.
        HttpRequest start = HttpRequest.newBuilder(aws.endpoint().resolve("/applications/00held/jobruns"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"clientToken\":\"run-9\",\"executionRoleArn\":"
                        + "\"arn:aws:iam::123456789012:role/jobs\",\"jobDriver\":{\"sparkSubmit\":"
                        + "{\"entryPoint\":\"s3://b/job.py\"}}}"))
                .build();
        try (HttpClient http = HttpClient.newHttpClient()) {
            CompletableFuture<HttpResponse<String>> answer =
                    http.sendAsync(start, HttpResponse.BodyHandlers.ofString());
            await(() -> jobs.holds().waiting("00held"), n -> n == 1);

            assertThat(clients.emrServerless()
                            .listJobRuns(b -> b.applicationId("00held"))
                            .jobRuns())
                    .as("nothing recorded while held")
                    .isEmpty();
            jobs.holds().release("00held");

            HttpResponse<String> refused = answer.get(30, TimeUnit.SECONDS);
            assertThat(refused.statusCode()).isEqualTo(503);
            assertThat(refused.body()).contains("ServiceUnavailableException");
        }
        assertThat(clients.emrServerless()
                        .listJobRuns(b -> b.applicationId("00held"))
                        .jobRuns())
                .as("the dropped start left nothing behind")
                .isEmpty();
    }

    @Test
    void aStoppedGlueRunIsStoppedAndSaysSo() {
        String runId = clients.glue()
                .startJobRun(b -> b.jobName("long").arguments(Map.of(FakeJob.DURATION_KEY, NEVER_ENDS)))
                .jobRunId();

        // A day of product time is a day / 1000 of real time: still running when asked now.
        assertThat(clients.glue()
                        .getJobRun(b -> b.jobName("long").runId(runId))
                        .jobRun()
                        .jobRunState())
                .isEqualTo(JobRunState.RUNNING);
        var stop = clients.glue().batchStopJobRun(b -> b.jobName("long").jobRunIds(runId, "jr_unknown"));

        assertThat(stop.successfulSubmissions())
                .singleElement()
                .satisfies(s -> assertThat(s.jobRunId()).isEqualTo(runId));
        assertThat(stop.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.jobRunId()).isEqualTo("jr_unknown"));
        assertThat(clients.glue()
                        .getJobRun(b -> b.jobName("long").runId(runId))
                        .jobRun()
                        .jobRunState())
                .isEqualTo(JobRunState.STOPPED);
        assertThat(event(
                                "Glue Job State Change",
                                d -> d.path("jobRunId").asText().equals(runId))
                        .path("detail")
                        .path("state")
                        .asText())
                .isEqualTo("STOPPED");
    }

    @Test
    void badFakeArgumentsAreRefusedNamingTheKey() {
        assertThatThrownBy(() -> clients.glue()
                        .startJobRun(b -> b.jobName("orders").arguments(Map.of(FakeJob.DURATION_KEY, "soon"))))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining(FakeJob.DURATION_KEY)
                .hasMessageContaining("soon");
        assertThatThrownBy(() -> clients.stepFunctions()
                        .startExecution(
                                b -> b.stateMachineArn("arn:aws:states:us-east-1:123456789012:stateMachine:kpis")
                                        .input("{\"--fake-outcome\":\"MAYBE\"}")))
                .hasMessageContaining(FakeJob.OUTCOME_KEY)
                .hasMessageContaining("MAYBE");
    }

    @Test
    void anEmrStepReadsItsArgsAndCanBeCancelled() {
        String done = clients.emr()
                .addJobFlowSteps(b -> b.jobFlowId("j-CLUSTER")
                        .steps(s -> s.name("orders")
                                .actionOnFailure(ActionOnFailure.CONTINUE)
                                .hadoopJarStep(h -> h.jar("command-runner.jar")
                                        .args("--date=2026-03-01", FakeJob.DURATION_KEY + "=5"))))
                .stepIds()
                .getFirst();
        String cancelled = clients.emr()
                .addJobFlowSteps(b -> b.jobFlowId("j-CLUSTER")
                        .steps(s -> s.name("forever")
                                .hadoopJarStep(h -> h.jar("x.jar").args(FakeJob.DURATION_KEY, NEVER_ENDS))))
                .stepIds()
                .getFirst();

        var completed = await(
                () -> clients.emr()
                        .describeStep(b -> b.clusterId("j-CLUSTER").stepId(done))
                        .step()
                        .status(),
                s -> s.state() != StepState.RUNNING);
        var cancel = clients.emr().cancelSteps(b -> b.clusterId("j-CLUSTER").stepIds(cancelled));

        assertThat(done).startsWith("s-");
        assertThat(completed.state()).isEqualTo(StepState.COMPLETED);
        assertThat(cancel.cancelStepsInfoList())
                .singleElement()
                .satisfies(i -> assertThat(i.statusAsString()).isEqualTo("SUBMITTED"));
        assertThat(clients.emr()
                        .describeStep(b -> b.clusterId("j-CLUSTER").stepId(cancelled))
                        .step()
                        .status()
                        .state())
                .isEqualTo(StepState.CANCELLED);
        JsonNode event = event(
                "EMR Step Status Change",
                d -> d.path("stepId").asText().equals(done)
                        && d.path("state").asText().equals("COMPLETED"));
        assertThat(event.path("source").asText()).isEqualTo("aws.emr");
        assertThat(event.path("detail").path("clusterId").asText()).isEqualTo("j-CLUSTER");
        assertThat(event(
                        "EMR Step Status Change",
                        d -> d.path("stepId").asText().equals(cancelled)
                                && d.path("state").asText().equals("CANCELLED")))
                .isNotNull();
    }

    @Test
    void anEmrServerlessJobRunReadsItsEntryPointArgumentsAndIsIdempotentOnItsClientToken() {
        var first = clients.emrServerless()
                .startJobRun(b -> b.applicationId("00app")
                        .clientToken("run-1")
                        .executionRoleArn("arn:aws:iam::123456789012:role/jobs")
                        .name("silver")
                        .jobDriver(d -> d.sparkSubmit(s -> s.entryPoint("s3://b/job.py")
                                .entryPointArguments("--date", "2026-03-01", FakeJob.OUTCOME_KEY, "FAILED"))));
        var again = clients.emrServerless()
                .startJobRun(b -> b.applicationId("00app")
                        .clientToken("run-1")
                        .executionRoleArn("arn:aws:iam::123456789012:role/jobs")
                        .jobDriver(d -> d.sparkSubmit(s -> s.entryPoint("s3://b/job.py"))));

        var ended = await(
                () -> clients.emrServerless()
                        .getJobRun(b -> b.applicationId("00app").jobRunId(first.jobRunId()))
                        .jobRun(),
                r -> r.state() != software.amazon.awssdk.services.emrserverless.model.JobRunState.RUNNING);

        assertThat(again.jobRunId()).isEqualTo(first.jobRunId());
        assertThat(clients.emrServerless()
                        .listJobRuns(b -> b.applicationId("00app"))
                        .jobRuns())
                .as("ListJobRuns: the one run the token started")
                .singleElement()
                .satisfies(r -> {
                    assertThat(r.id()).isEqualTo(first.jobRunId());
                    assertThat(r.name()).isEqualTo("silver");
                    assertThat(r.state())
                            .isEqualTo(software.amazon.awssdk.services.emrserverless.model.JobRunState.FAILED);
                });
        assertThat(clients.emrServerless()
                        .listJobRuns(b -> b.applicationId("00other"))
                        .jobRuns())
                .isEmpty();
        assertThat(ended.state()).isEqualTo(software.amazon.awssdk.services.emrserverless.model.JobRunState.FAILED);
        assertThat(ended.stateDetails()).contains(FakeJob.OUTCOME_KEY);
        JsonNode event = event(
                "EMR Serverless Job Run State Change",
                d -> d.path("jobRunId").asText().equals(first.jobRunId())
                        && d.path("state").asText().equals("FAILED"));
        assertThat(event.path("source").asText()).isEqualTo("aws.emr-serverless");
        assertThat(event.path("detail").path("applicationId").asText()).isEqualTo("00app");
        assertThat(event.path("detail").path("previousState").asText()).isEqualTo("RUNNING");
        assertThatThrownBy(() -> clients.emrServerless()
                        .getJobRun(b -> b.applicationId("00app").jobRunId("nope")))
                .isInstanceOf(software.amazon.awssdk.services.emrserverless.model.ResourceNotFoundException.class);
    }

    @Test
    void anExecutionOfAnotherStateMachineReadsItsInputAndCanBeStopped() {
        String machine = "arn:aws:states:us-east-1:123456789012:stateMachine:hourly-kpis";
        String arn = clients.stepFunctions()
                .startExecution(b -> b.stateMachineArn(machine)
                        .name("interlock-run-1")
                        .input("{\"date\":\"2026-03-01\",\"--fake-duration-seconds\":60}"))
                .executionArn();
        String again = clients.stepFunctions()
                .startExecution(b -> b.stateMachineArn(machine)
                        .name("interlock-run-1")
                        .input("{\"date\":\"2026-03-01\",\"--fake-duration-seconds\":60}"))
                .executionArn();
        String stopped = clients.stepFunctions()
                .startExecution(b -> b.stateMachineArn(machine).input("{\"--fake-duration-seconds\":86400}"))
                .executionArn();

        var done = await(
                () -> clients.stepFunctions().describeExecution(b -> b.executionArn(arn)),
                d -> d.status() != ExecutionStatus.RUNNING);
        clients.stepFunctions().stopExecution(b -> b.executionArn(stopped));

        assertThat(again).isEqualTo(arn);
        assertThat(arn).isEqualTo("arn:aws:states:us-east-1:123456789012:execution:hourly-kpis:interlock-run-1");
        assertThat(done.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(Duration.between(done.startDate(), done.stopDate())).isEqualTo(Duration.ofSeconds(60));
        assertThat(clients.stepFunctions()
                        .describeExecution(b -> b.executionArn(stopped))
                        .status())
                .isEqualTo(ExecutionStatus.ABORTED);
        JsonNode event = event(
                "Step Functions Execution Status Change",
                d -> d.path("executionArn").asText().equals(arn)
                        && d.path("status").asText().equals("SUCCEEDED"));
        assertThat(event.path("source").asText()).isEqualTo("aws.states");
        assertThat(event.path("resources").get(0).asText()).isEqualTo(arn);
        assertThat(event.path("detail").path("stateMachineArn").asText()).isEqualTo(machine);
        assertThat(event.path("detail").path("startDate").isNumber()).isTrue();
    }

    @Test
    void aLambdaJobAnswersAfterItsDurationAndAFailureIsAnUnhandledFunctionError() {
        InvokeResponse ok = clients.lambda()
                .invoke(b -> b.functionName("export-orders")
                        .payload(SdkBytes.fromUtf8String("{\"--fake-duration-seconds\":5}")));
        InvokeResponse failed = clients.lambda()
                .invoke(b -> b.functionName("arn:aws:lambda:us-east-1:123456789012:function:export-orders")
                        .payload(SdkBytes.fromUtf8String("{\"--fake-outcome\":\"FAILED\"}")));

        assertThat(ok.functionError()).isNull();
        assertThat(ok.payload().asUtf8String()).contains("\"outcome\":\"SUCCEEDED\"");
        assertThat(failed.functionError()).isEqualTo("Unhandled");
        assertThat(failed.payload().asUtf8String()).contains("FakeJobFailed");
    }

    @Test
    void putEventsAcceptsWellFormedEntriesAndRefusesBadOnesByEntry() {
        var response = eventBridge.putEvents(b -> b.entries(
                e -> e.source("my.app").detailType("Thing Happened").detail("{\"n\":1}"),
                e -> e.source("my.app").detailType("Thing Happened").detail("not json")));

        assertThat(response.failedEntryCount()).isEqualTo(1);
        assertThat(response.entries().get(0).eventId()).isNotBlank();
        assertThat(response.entries().get(1).errorCode()).isEqualTo("MalformedDetail");
        assertThat(bus.events()).singleElement().satisfies(e -> {
            assertThat(e.path("source").asText()).isEqualTo("my.app");
            assertThat(e.path("detail").path("n").asInt()).isEqualTo(1);
        });
    }

    @Test
    void aRuleDeliversWhatMatchesItsPatternRenderedForItsTarget() {
        List<JsonNode> received = new java.util.concurrent.CopyOnWriteArrayList<>();
        bus.addRule(new LocalEventBus.Rule(
                "failures",
                dev.interlock.local.aws.AwsJson.JSON.valueToTree(
                        Map.of("source", List.of("aws.glue"), "detail", Map.of("state", List.of("FAILED")))),
                new LocalEventBus.Target() {
                    public String name() {
                        return "test";
                    }

                    public void deliver(JsonNode input) {
                        received.add(input);
                    }
                },
                event -> event.path("detail")));
        clients.glue().startJobRun(b -> b.jobName("ok").arguments(Map.of(FakeJob.DURATION_KEY, "1")));
        String failing = clients.glue()
                .startJobRun(b -> b.jobName("bad").arguments(Map.of(FakeJob.OUTCOME_KEY, "FAILED")))
                .jobRunId();

        await(() -> received, l -> !l.isEmpty());
        event("Glue Job State Change", d -> d.path("jobName").asText().equals("ok"));

        assertThat(received)
                .singleElement()
                .satisfies(d -> assertThat(d.path("jobRunId").asText()).isEqualTo(failing));
    }
}
