package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Recorded;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.TestTemplates;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/** The AWS trigger types driving the real SDK v2 clients against a local endpoint speaking each service's protocol. */
class AwsTriggersTest {

    private final AwsProtocolStub stub = AwsProtocolStub.start();
    private final GlueClient glue = stub.client(GlueClient.builder());
    private final EmrClient emr = stub.client(EmrClient.builder());
    private final EmrServerlessClient emrServerless = stub.client(EmrServerlessClient.builder());
    private final SfnClient sfn = stub.client(SfnClient.builder());
    private final LambdaClient lambda = stub.client(LambdaClient.builder());
    private final TriggerRunners runners = new TriggerRunners(
            () -> glue,
            () -> emr,
            () -> emrServerless,
            () -> sfn,
            () -> lambda,
            new GuardedHttp(new UrlGuard(false, HostResolver.system()), Clock.systemUTC(), NoWait.BACKOFF),
            TestTemplates.none(),
            Clock.systemUTC());

    @AfterEach
    void stop() {
        List.of(glue, emr, emrServerless, sfn, lambda).forEach(c -> c.close());
        stub.close();
    }

    private TriggerResult start(TriggerConfig trigger) {
        return runners.start(new TriggerRequest("orders", "daily", "2026-03-01", "run-42", trigger));
    }

    private RunCheck check(TriggerType type, Map<String, String> metadata) {
        return runners.check(new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", type, metadata, Map.of()));
    }

    private static Map<String, String> ordered(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    private JobCanceller.Cancellation cancel(TriggerType type, Map<String, String> metadata) {
        return runners.cancel(new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", type, metadata, Map.of()));
    }

    @Test
    void eachAwsJobTypeIsCancelledWithItsOwnStopCall() {
        stub.on(
                "AWSGlue.BatchStopJobRun",
                Reply.json("{\"SuccessfulSubmissions\":[{\"JobName\":\"orders-etl\",\"JobRunId\":\"jr_1\"}]}"));
        stub.on(
                "ElasticMapReduce.CancelSteps",
                Reply.json("{\"CancelStepsInfoList\":[{\"StepId\":\"s-1\",\"Status\":\"SUBMITTED\"}]}"));
        stub.on(
                "DELETE /applications/00fabc/jobruns/00fjr1",
                Reply.json("{\"applicationId\":\"00fabc\",\"jobRunId\":\"00fjr1\"}"));
        stub.on("AWSStepFunctions.StopExecution", Reply.json("{\"stopDate\":1.7E9}"));

        assertThat(cancel(TriggerType.GLUE, Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_1"))
                        .requested())
                .isTrue();
        assertThat(cancel(TriggerType.EMR, Map.of("emr_cluster_id", "j-1", "emr_step_id", "s-1"))
                        .requested())
                .isTrue();
        assertThat(cancel(
                                TriggerType.EMR_SERVERLESS,
                                Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1"))
                        .requested())
                .isTrue();
        assertThat(cancel(
                                TriggerType.STEP_FUNCTION,
                                Map.of("sfn_execution_arn", "arn:aws:states:us-east-1:1:execution:sm:e1"))
                        .requested())
                .isTrue();

        assertThat(stub.requests("AWSGlue.BatchStopJobRun").getFirst().json().toString())
                .isEqualTo("{\"JobName\":\"orders-etl\",\"JobRunIds\":[\"jr_1\"]}");
        assertThat(stub.requests("ElasticMapReduce.CancelSteps")
                        .getFirst()
                        .json()
                        .toString())
                .isEqualTo("{\"ClusterId\":\"j-1\",\"StepIds\":[\"s-1\"]}");
        assertThat(stub.requests("DELETE /applications/00fabc/jobruns/00fjr1")).hasSize(1);
        assertThat(stub.requests("AWSStepFunctions.StopExecution")
                        .getFirst()
                        .json()
                        .get("executionArn")
                        .asText())
                .isEqualTo("arn:aws:states:us-east-1:1:execution:sm:e1");
    }

    @Test
    void aStopTheJobSystemRefusesIsNotACancel() {
        stub.on(
                "AWSGlue.BatchStopJobRun",
                Reply.json(
                        "{\"SuccessfulSubmissions\":[],\"Errors\":[{\"JobName\":\"orders-etl\","
                                + "\"JobRunId\":\"jr_1\",\"ErrorDetail\":{\"ErrorCode\":\"InvalidInputException\",\"ErrorMessage\":\"not running\"}}]}"));
        stub.on(
                "ElasticMapReduce.CancelSteps",
                Reply.json("{\"CancelStepsInfoList\":[{\"StepId\":\"s-1\",\"Status\":\"FAILED\","
                        + "\"Reason\":\"step is not running\"}]}"));

        JobCanceller.Cancellation glueRefused =
                cancel(TriggerType.GLUE, Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_1"));
        JobCanceller.Cancellation emrRefused =
                cancel(TriggerType.EMR, Map.of("emr_cluster_id", "j-1", "emr_step_id", "s-1"));

        assertThat(glueRefused.requested()).isFalse();
        assertThat(glueRefused.message()).contains("InvalidInputException", "not running");
        assertThat(emrRefused.requested()).isFalse();
        assertThat(emrRefused.message()).contains("step is not running");
        assertThat(cancel(TriggerType.GLUE, Map.of()).message()).contains("missing glue metadata");
    }

    // ---- Glue (awsJson1_1) ----

    private TriggerResult resumed(TriggerConfig trigger) {
        return runners.start(new TriggerRequest("orders", "daily", "2026-03-01", "run-42", trigger, true));
    }

    @Test
    void aResumedGlueTriggerFollowsTheJobRunItsRunIdStartedInsteadOfStartingASecond() {
        stub.on(
                "AWSGlue.GetJobRuns",
                Reply.json("{\"JobRuns\":[{\"Id\":\"jr_other\",\"Arguments\":{\"--interlock-run-id\":\"run-41\"}},"
                        + "{\"Id\":\"jr_0042\",\"Arguments\":{\"--interlock-run-id\":\"run-42\"}}]}"));
        TriggerResult result = resumed(new GlueTrigger("orders-etl", ordered("--date", "2026-03-01")));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of(
                                "glue_job_name",
                                "orders-etl",
                                "glue_job_run_id",
                                "jr_0042",
                                "glue_error_log_pattern",
                                "?ERROR ?FATAL"))
                        .withEarlierStart(
                                EarlierStart.found("glue GetJobRuns of orders-etl by --interlock-run-id run-42")));
        assertThat(stub.requests("AWSGlue.StartJobRun")).isEmpty();
    }

    @Test
    void aResumedGlueTriggerWhoseRunIdStartedNothingStartsTheJobOnce() {
        stub.on("AWSGlue.GetJobRuns", Reply.json("{\"JobRuns\":[]}"));
        stub.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_0043\"}"));
        TriggerResult result = resumed(new GlueTrigger("orders-etl", ordered("--date", "2026-03-01")));

        assertThat(result.metadata()).containsEntry("glue_job_run_id", "jr_0043");
        assertThat(result.earlierStart())
                .isEqualTo(EarlierStart.none("glue GetJobRuns of orders-etl by --interlock-run-id run-42"));
        assertThat(stub.requests("AWSGlue.StartJobRun")).hasSize(1);
    }

    @Test
    void aResumedEmrTriggerFollowsTheStepNamedAfterItsRun() {
        stub.on(
                "ElasticMapReduce.ListSteps",
                Reply.json("{\"Steps\":[{\"Id\":\"s-OTHER\",\"Name\":\"orders-step [interlock run run-41]\"},"
                        + "{\"Id\":\"s-2ABC\",\"Name\":\"orders-step [interlock run run-42]\"}]}"));
        TriggerResult result = resumed(new EmrTrigger("j-CLUSTER", "orders-step", "s3://jars/etl.jar", Map.of()));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of("emr_cluster_id", "j-CLUSTER", "emr_step_id", "s-2ABC"))
                        .withEarlierStart(EarlierStart.found(
                                "emr ListSteps of j-CLUSTER by step name 'orders-step [interlock run run-42]'")));
        assertThat(stub.requests("ElasticMapReduce.AddJobFlowSteps")).isEmpty();
    }

    @Test
    void aResumedEmrTriggerWhoseStepIsNotThereAddsItOnceAndSaysNoneWasFound() {
        stub.on("ElasticMapReduce.ListSteps", Reply.json("{\"Steps\":[]}"));
        stub.on("ElasticMapReduce.AddJobFlowSteps", Reply.json("{\"StepIds\":[\"s-NEW\"]}"));
        TriggerResult result = resumed(new EmrTrigger("j-CLUSTER", "orders-step", "s3://jars/etl.jar", Map.of()));

        assertThat(result.metadata()).containsEntry("emr_step_id", "s-NEW");
        assertThat(result.earlierStart().finding()).isEqualTo(EarlierStart.Finding.NONE);
        assertThat(stub.requests("ElasticMapReduce.AddJobFlowSteps")).hasSize(1);
    }

    @Test
    void aResumedStepFunctionTriggerFollowsTheExecutionNamedAfterItsRun() {
        String arn = "arn:aws:states:us-east-1:1:execution:sm:interlock-run-42";
        stub.on(
                "AWSStepFunctions.DescribeExecution",
                Reply.json("{\"executionArn\":\"" + arn + "\",\"status\":\"SUCCEEDED\",\"startDate\":1772359200}"));
        TriggerResult result = resumed(new StepFunctionTrigger("arn:aws:states:us-east-1:1:stateMachine:sm", Map.of()));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of("sfn_execution_arn", arn))
                        .withEarlierStart(
                                EarlierStart.found("step-function DescribeExecution of execution interlock-run-42")));
        assertThat(stub.requests("AWSStepFunctions.StartExecution")).isEmpty();
    }

    @Test
    void aResumedStepFunctionTriggerWhoseExecutionDoesNotExistStartsItAndSaysNoneWasFound() {
        String arn = "arn:aws:states:us-east-1:1:execution:sm:interlock-run-42";
        stub.on(
                "AWSStepFunctions.DescribeExecution",
                Reply.error(400, "ExecutionDoesNotExist", "Execution Does Not Exist: '" + arn + "'"));
        stub.on(
                "AWSStepFunctions.StartExecution",
                Reply.json("{\"executionArn\":\"" + arn + "\",\"startDate\":1772359200}"));
        TriggerResult result = resumed(new StepFunctionTrigger("arn:aws:states:us-east-1:1:stateMachine:sm", Map.of()));

        assertThat(result.metadata()).containsEntry("sfn_execution_arn", arn);
        assertThat(result.earlierStart().finding()).isEqualTo(EarlierStart.Finding.NONE);
        assertThat(stub.requests("AWSStepFunctions.StartExecution")).hasSize(1);
    }

    @Test
    void aResumedEmrServerlessTriggerStartsWithItsClientTokenAndSaysSo() {
        stub.on(
                "POST /applications/00fabc/jobruns",
                Reply.json("{\"applicationId\":\"00fabc\",\"jobRunId\":\"00fjr1\",\"arn\":\"arn:x\"}"));
        TriggerResult result = resumed(new EmrServerlessTrigger(
                "00fabc", null, "arn:aws:iam::123456789012:role/emr-job", "s3://code/main.py", null, null, null));

        assertThat(result)
                .isEqualTo(TriggerResult.running(
                                Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1"))
                        .withEarlierStart(EarlierStart.byToken("emr-serverless StartJobRun with clientToken run-42")));
        assertThat(stub.requests("POST /applications/00fabc/jobruns")
                        .getFirst()
                        .json()
                        .get("clientToken")
                        .asText())
                .isEqualTo("run-42");
    }

    @Test
    void glueStartsAJobRunWithItsArguments() {
        stub.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_0042\"}"));
        TriggerResult result = start(new GlueTrigger("orders-etl", ordered("--date", "2026-03-01", "--mode", "full")));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of(
                        "glue_job_name",
                        "orders-etl",
                        "glue_job_run_id",
                        "jr_0042",
                        "glue_error_log_pattern",
                        "?ERROR ?FATAL")));
        Recorded sent = stub.requests("AWSGlue.StartJobRun").getFirst();
        assertThat(sent.headers().get("Content-Type")).isEqualTo("application/x-amz-json-1.1");
        assertThat(sent.json().get("JobName").asText()).isEqualTo("orders-etl");
        assertThat(sent.json().get("Arguments"))
                .isEqualTo(InterlockJson.json()
                        .valueToTree(Map.of("--date", "2026-03-01", "--mode", "full", "--interlock-run-id", "run-42")));
        assertThat(stub.requests("AWSGlue.GetJobRuns"))
                .as("a first start looks nothing up")
                .isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "STARTING,running,",
        "RUNNING,running,",
        "STOPPING,running,",
        "WAITING,running,",
        "SUCCEEDED,succeeded,",
        "FAILED,failed,TRANSIENT",
        "ERROR,failed,TRANSIENT",
        "EXPIRED,failed,TRANSIENT",
        "TIMEOUT,failed,TIMEOUT",
        "STOPPED,failed,PERMANENT"
    })
    void glueRunStatesMap(String providerState, String state, FailureCategory category) {
        stub.on(
                "AWSGlue.GetJobRun",
                Reply.json("{\"JobRun\":{\"Id\":\"jr_0042\",\"JobRunState\":\"" + providerState
                        + "\",\"ErrorMessage\":\"" + (providerState.equals("FAILED") ? "OOM" : "") + "\"}}"));
        RunCheck check = check(TriggerType.GLUE, Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042"));

        assertThat(check.state().wireName()).isEqualTo(state);
        assertThat(check.failureCategory()).isEqualTo(category);
        assertThat(check.message()).isEqualTo(providerState.equals("FAILED") ? "FAILED: OOM" : providerState);
        assertThat(check.stoppedAs())
                .as("only a stop is marked as one (OpenLineage ABORT)")
                .isEqualTo(providerState.equals("STOPPED") ? "STOPPED" : null);
        JsonNode sent = stub.requests("AWSGlue.GetJobRun").getFirst().json();
        assertThat(sent.get("JobName").asText()).isEqualTo("orders-etl");
        assertThat(sent.get("RunId").asText()).isEqualTo("jr_0042");
    }

    @Test
    void glueConfigurationAndServiceErrorsAreClassified() {
        assertThat(start(new GlueTrigger(" ", Map.of())))
                .isEqualTo(TriggerResult.failed("glue trigger needs 'jobName'", FailureCategory.PERMANENT));
        assertThat(stub.requests()).isEmpty();

        stub.on("AWSGlue.StartJobRun", Reply.error(400, "ThrottlingException", "Rate exceeded"));
        assertThat(start(new GlueTrigger("etl", Map.of())))
                .isEqualTo(TriggerResult.failed(
                        "glue StartJobRun failed: ThrottlingException: Rate exceeded (status 400)",
                        FailureCategory.TRANSIENT));
        stub.on("AWSGlue.StartJobRun", Reply.error(400, "ConcurrentRunsExceededException", "max 1"));
        assertThat(start(new GlueTrigger("etl", Map.of())).failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        stub.on("AWSGlue.StartJobRun", Reply.error(400, "AccessDeniedException", "not authorized"));
        assertThat(start(new GlueTrigger("etl", Map.of())).failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        stub.on("AWSGlue.StartJobRun", Reply.error(400, "EntityNotFoundException", "no job etl"));
        assertThat(start(new GlueTrigger("etl", Map.of())).failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        stub.on("AWSGlue.StartJobRun", Reply.error(500, "InternalServiceException", "oops"));
        assertThat(start(new GlueTrigger("etl", Map.of())).failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void aTransientErrorWhileCheckingKeepsTheRunRunningAndAPermanentOneFailsIt() {
        Map<String, String> metadata = Map.of("glue_job_name", "etl", "glue_job_run_id", "jr_1");
        stub.on("AWSGlue.GetJobRun", Reply.error(400, "ThrottlingException", "Rate exceeded"));
        RunCheck throttled = check(TriggerType.GLUE, metadata);
        assertThat(throttled.state()).isEqualTo(RunCheckState.RUNNING);
        assertThat(throttled.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(throttled.message())
                .isEqualTo(
                        "check failed, retrying at the next poll: glue GetJobRun failed: ThrottlingException: Rate exceeded (status 400)");

        stub.on("AWSGlue.GetJobRun", Reply.error(503, "ServiceUnavailable", "later"));
        assertThat(check(TriggerType.GLUE, metadata).state()).isEqualTo(RunCheckState.RUNNING);

        stub.on("AWSGlue.GetJobRun", Reply.error(400, "AccessDeniedException", "no glue:GetJobRun"));
        assertThat(check(TriggerType.GLUE, metadata))
                .isEqualTo(RunCheck.failed(
                        "glue GetJobRun failed: AccessDeniedException: no glue:GetJobRun (status 400)",
                        FailureCategory.PERMANENT));
    }

    @Test
    void anUnreachableEndpointIsTransient() {
        stub.close();
        TriggerResult result = start(new GlueTrigger("etl", Map.of()));
        assertThat(result.status()).isEqualTo(TriggerStatus.FAILED);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(result.error()).startsWith("glue StartJobRun failed: SdkClientException");
        assertThat(check(TriggerType.GLUE, Map.of("glue_job_name", "etl", "glue_job_run_id", "jr_1"))
                        .state())
                .isEqualTo(RunCheckState.RUNNING);
    }

    @Test
    void missingMetadataFailsPermanentlyNamingTheKeys() {
        assertThat(check(TriggerType.GLUE, Map.of("glue_job_name", "etl")))
                .isEqualTo(RunCheck.failed("missing glue metadata: glue_job_run_id", FailureCategory.PERMANENT));
        assertThat(check(TriggerType.EMR, Map.of()))
                .isEqualTo(RunCheck.failed(
                        "missing emr metadata: emr_cluster_id, emr_step_id", FailureCategory.PERMANENT));
        assertThat(check(TriggerType.EMR_SERVERLESS, Map.of("emr_sl_job_run_id", "x")))
                .isEqualTo(RunCheck.failed(
                        "missing emr-serverless metadata: emr_sl_application_id", FailureCategory.PERMANENT));
        assertThat(check(TriggerType.STEP_FUNCTION, Map.of()))
                .isEqualTo(RunCheck.failed(
                        "missing step-function metadata: sfn_execution_arn", FailureCategory.PERMANENT));
        assertThat(stub.requests()).isEmpty();
    }

    // ---- EMR (awsJson1_1) ----

    @Test
    void emrAddsAJarStepThatContinuesOnFailure() {
        stub.on("ElasticMapReduce.AddJobFlowSteps", Reply.json("{\"StepIds\":[\"s-2ABC\"]}"));
        TriggerResult result = start(new EmrTrigger(
                "j-CLUSTER", "orders-step", "s3://jars/etl.jar", ordered("date", "2026-03-01", "mode", "full")));

        assertThat(result)
                .isEqualTo(TriggerResult.running(Map.of("emr_cluster_id", "j-CLUSTER", "emr_step_id", "s-2ABC")));
        JsonNode sent =
                stub.requests("ElasticMapReduce.AddJobFlowSteps").getFirst().json();
        assertThat(sent.get("JobFlowId").asText()).isEqualTo("j-CLUSTER");
        JsonNode step = sent.get("Steps").get(0);
        assertThat(step.get("Name").asText()).isEqualTo("orders-step [interlock run run-42]");
        assertThat(step.get("ActionOnFailure").asText()).isEqualTo("CONTINUE");
        assertThat(step.get("HadoopJarStep").get("Jar").asText()).isEqualTo("s3://jars/etl.jar");
        assertThat(step.get("HadoopJarStep").get("Args").toString()).isEqualTo("[\"date=2026-03-01\",\"mode=full\"]");
    }

    @ParameterizedTest
    @CsvSource({
        "PENDING,running,",
        "CANCEL_PENDING,running,",
        "RUNNING,running,",
        "COMPLETED,succeeded,",
        "CANCELLED,failed,PERMANENT",
        "FAILED,failed,TRANSIENT",
        "INTERRUPTED,failed,TRANSIENT"
    })
    void emrStepStatesMap(String providerState, String state, FailureCategory category) {
        stub.on(
                "ElasticMapReduce.DescribeStep",
                Reply.json("{\"Step\":{\"Id\":\"s-2ABC\",\"Status\":{\"State\":\"" + providerState + "\"}}}"));
        RunCheck check = check(TriggerType.EMR, Map.of("emr_cluster_id", "j-CLUSTER", "emr_step_id", "s-2ABC"));

        assertThat(check)
                .isEqualTo(new RunCheck(
                        RunCheckState.fromJson(state),
                        providerState,
                        category,
                        providerState.equals("CANCELLED") ? providerState : null));
        JsonNode sent =
                stub.requests("ElasticMapReduce.DescribeStep").getFirst().json();
        assertThat(sent.get("ClusterId").asText()).isEqualTo("j-CLUSTER");
        assertThat(sent.get("StepId").asText()).isEqualTo("s-2ABC");
    }

    @Test
    void emrFailureDetailsAreInTheMessage() {
        stub.on(
                "ElasticMapReduce.DescribeStep",
                Reply.json("{\"Step\":{\"Status\":{\"State\":\"FAILED\","
                        + "\"FailureDetails\":{\"Message\":\"Exception in thread main\"}}}}"));
        assertThat(check(TriggerType.EMR, Map.of("emr_cluster_id", "j-1", "emr_step_id", "s-1"))
                        .message())
                .isEqualTo("FAILED: Exception in thread main");
    }

    // ---- EMR Serverless (rest-json) ----

    @Test
    void emrServerlessStartsAJobRunWithRoleAndSparkDriver() {
        stub.on(
                "POST /applications/00fabc/jobruns",
                Reply.json(
                        "{\"applicationId\":\"00fabc\",\"jobRunId\":\"00fjr1\",\"arn\":\"arn:aws:emr-serverless:x\"}"));
        TriggerResult result = start(new EmrServerlessTrigger(
                "00fabc",
                "orders-spark",
                "arn:aws:iam::123456789012:role/emr-job",
                "s3://code/main.py",
                List.of("--input", "s3://in/"),
                "--conf spark.executor.cores=2",
                ordered("date", "2026-03-01")));

        assertThat(result)
                .isEqualTo(TriggerResult.running(
                        Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1")));
        JsonNode sent =
                stub.requests("POST /applications/00fabc/jobruns").getFirst().json();
        assertThat(sent.get("executionRoleArn").asText()).isEqualTo("arn:aws:iam::123456789012:role/emr-job");
        assertThat(sent.get("name").asText()).isEqualTo("orders-spark");
        assertThat(sent.get("clientToken").asText()).isEqualTo("run-42");
        JsonNode spark = sent.get("jobDriver").get("sparkSubmit");
        assertThat(spark.get("entryPoint").asText()).isEqualTo("s3://code/main.py");
        assertThat(spark.get("entryPointArguments").toString())
                .isEqualTo("[\"--input\",\"s3://in/\",\"date=2026-03-01\"]");
        assertThat(spark.get("sparkSubmitParameters").asText()).isEqualTo("--conf spark.executor.cores=2");
    }

    @Test
    void emrServerlessNeedsARoleAndAnEntryPoint() {
        assertThat(start(new EmrServerlessTrigger("app", "n", null, "s3://x.py", null, null, null)))
                .isEqualTo(TriggerResult.failed(
                        "emr-serverless trigger needs 'executionRoleArn'", FailureCategory.PERMANENT));
        assertThat(start(new EmrServerlessTrigger("app", "n", "arn:role", "", null, null, null)))
                .isEqualTo(
                        TriggerResult.failed("emr-serverless trigger needs 'entryPoint'", FailureCategory.PERMANENT));
        assertThat(stub.requests()).isEmpty();
    }

    @ParameterizedTest
    @CsvSource({
        "SUBMITTED,running,",
        "PENDING,running,",
        "SCHEDULED,running,",
        "RUNNING,running,",
        "QUEUED,running,",
        "CANCELLING,running,",
        "SUCCESS,succeeded,",
        "FAILED,failed,TRANSIENT",
        "CANCELLED,failed,PERMANENT"
    })
    void emrServerlessRunStatesMap(String providerState, String state, FailureCategory category) {
        stub.on(
                "GET /applications/00fabc/jobruns/00fjr1",
                Reply.json("{\"jobRun\":{\"applicationId\":\"00fabc\"," + "\"jobRunId\":\"00fjr1\",\"state\":\""
                        + providerState + "\",\"stateDetails\":\"\"}}"));
        RunCheck check = check(
                TriggerType.EMR_SERVERLESS, Map.of("emr_sl_application_id", "00fabc", "emr_sl_job_run_id", "00fjr1"));

        assertThat(check)
                .isEqualTo(new RunCheck(
                        RunCheckState.fromJson(state),
                        providerState,
                        category,
                        providerState.equals("CANCELLED") ? providerState : null));
        assertThat(stub.requests())
                .extracting(Recorded::operation)
                .containsExactly("GET /applications/00fabc/jobruns/00fjr1");
    }

    // ---- Step Functions (awsJson1_0) ----

    @Test
    void stepFunctionStartsANamedExecutionWithTheArgumentsAsInput() {
        stub.on(
                "AWSStepFunctions.StartExecution",
                Reply.json(
                        "{\"executionArn\":\"arn:aws:states:us-east-1:1:execution:sm:interlock-run-42\",\"startDate\":1772359200}"));
        TriggerResult result = start(new StepFunctionTrigger(
                "arn:aws:states:us-east-1:1:stateMachine:sm", ordered("date", "2026-03-01", "pipeline", "orders")));

        assertThat(result)
                .isEqualTo(TriggerResult.running(
                        Map.of("sfn_execution_arn", "arn:aws:states:us-east-1:1:execution:sm:interlock-run-42")));
        Recorded sent = stub.requests("AWSStepFunctions.StartExecution").getFirst();
        assertThat(sent.headers().get("Content-Type")).isEqualTo("application/x-amz-json-1.0");
        assertThat(sent.json().get("stateMachineArn").asText()).isEqualTo("arn:aws:states:us-east-1:1:stateMachine:sm");
        assertThat(sent.json().get("input").asText()).isEqualTo("{\"date\":\"2026-03-01\",\"pipeline\":\"orders\"}");
        assertThat(sent.json().get("name").asText()).isEqualTo("interlock-run-42");
    }

    @Test
    void executionNamesKeepOnlyCharactersStepFunctionsAccepts() {
        assertThat(StepFunctionJob.executionName("a:b/c d")).isEqualTo("interlock-a_b_c_d");
        assertThat(StepFunctionJob.executionName("x".repeat(100))).hasSize(80);
        assertThat(StepFunctionJob.executionName(null)).isNull();
    }

    @ParameterizedTest
    @CsvSource({
        "RUNNING,running,",
        "PENDING_REDRIVE,running,",
        "SUCCEEDED,succeeded,",
        "FAILED,failed,TRANSIENT",
        "TIMED_OUT,failed,TIMEOUT",
        "ABORTED,failed,PERMANENT"
    })
    void stepFunctionExecutionStatusesMap(String providerState, String state, FailureCategory category) {
        stub.on(
                "AWSStepFunctions.DescribeExecution",
                Reply.json(
                        "{\"executionArn\":\"arn:x\",\"status\":\"" + providerState + "\",\"startDate\":1772359200}"));
        RunCheck check = check(TriggerType.STEP_FUNCTION, Map.of("sfn_execution_arn", "arn:x"));

        assertThat(check)
                .isEqualTo(new RunCheck(
                        RunCheckState.fromJson(state),
                        providerState,
                        category,
                        providerState.equals("ABORTED") ? providerState : null));
        assertThat(stub.requests("AWSStepFunctions.DescribeExecution")
                        .getFirst()
                        .json()
                        .get("executionArn")
                        .asText())
                .isEqualTo("arn:x");
    }

    @Test
    void stepFunctionErrorAndCauseAreInTheMessage() {
        stub.on(
                "AWSStepFunctions.DescribeExecution",
                Reply.json("{\"status\":\"FAILED\",\"error\":\"States.TaskFailed\"," + "\"cause\":\"boom\"}"));
        assertThat(check(TriggerType.STEP_FUNCTION, Map.of("sfn_execution_arn", "arn:x"))
                        .message())
                .isEqualTo("FAILED: States.TaskFailed boom");
    }

    // ---- Lambda (rest-json) ----

    @Test
    void lambdaIsInvokedSynchronouslyWithThePayloadAndCompletes() throws Exception {
        stub.on(
                "POST /2015-03-31/functions/orders-loader/invocations",
                Reply.raw("{\"loaded\":12}", Map.of("X-Amz-Executed-Version", "7")));
        TriggerResult result = start(new LambdaTrigger(
                "orders-loader", InterlockJson.json().readTree("{\"date\":\"2026-03-01\",\"full\":true}")));

        assertThat(result)
                .isEqualTo(TriggerResult.completed(
                        Map.of("lambda_function_name", "orders-loader", "lambda_executed_version", "7")));
        Recorded sent = stub.requests("POST /2015-03-31/functions/orders-loader/invocations")
                .getFirst();
        assertThat(sent.headers().get("X-Amz-Invocation-Type")).isEqualTo("RequestResponse");
        assertThat(sent.body()).isEqualTo("{\"date\":\"2026-03-01\",\"full\":true}");
    }

    @Test
    void aLambdaFunctionErrorFailsTheTriggerWithItsErrorTypeAndMessage() {
        stub.on(
                "POST /2015-03-31/functions/orders-loader/invocations",
                Reply.raw(
                        "{\"errorType\":\"ValueError\",\"errorMessage\":\"bad date\",\"stackTrace\":[]}",
                        Map.of("X-Amz-Function-Error", "Unhandled")));
        assertThat(start(new LambdaTrigger("orders-loader", null)))
                .isEqualTo(TriggerResult.failed(
                        "lambda orders-loader failed (Unhandled): ValueError: bad date", FailureCategory.TRANSIENT));
        assertThat(stub.requests().getFirst().body()).isEqualTo("{}");
    }

    @Test
    void lambdaServiceErrorsAreClassified() {
        stub.on(
                "POST /2015-03-31/functions/orders-loader/invocations",
                Reply.error(429, "TooManyRequestsException", "slow down"));
        assertThat(start(new LambdaTrigger("orders-loader", null)).failureCategory())
                .isEqualTo(FailureCategory.TRANSIENT);
        stub.on(
                "POST /2015-03-31/functions/orders-loader/invocations",
                Reply.error(404, "ResourceNotFoundException", "no fn"));
        assertThat(start(new LambdaTrigger("orders-loader", null)))
                .isEqualTo(TriggerResult.failed(
                        "lambda Invoke failed: ResourceNotFoundException: no fn (status 404)",
                        FailureCategory.PERMANENT));
        stub.on(
                "POST /2015-03-31/functions/orders-loader/invocations",
                Reply.error(409, "ResourceConflictException", "updating"));
        assertThat(start(new LambdaTrigger("orders-loader", null)).failureCategory())
                .isEqualTo(FailureCategory.TRANSIENT);
    }
}
