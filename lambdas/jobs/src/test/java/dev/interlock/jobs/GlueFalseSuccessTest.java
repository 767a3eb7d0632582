package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.TestTemplates;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.glue.GlueClient;

/**
 * Jobs that lie: a Glue run SUCCEEDED with an error message or with matching lines in its driver log
 * ({@code FilterLogEvents} through the real CloudWatch Logs client), and an EMR step COMPLETED with failure details,
 * are {@code FALSE_SUCCESS}; the watchdog's checks never read the log.
 */
class GlueFalseSuccessTest {

    private static final Map<String, String> CHECKED = Map.of(
            "glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042", "glue_error_log_pattern", "?ERROR ?FATAL");

    private final AwsProtocolStub stub = AwsProtocolStub.start();
    private final GlueClient glue = stub.client(GlueClient.builder());
    private final EmrClient emr = stub.client(EmrClient.builder());
    private final CloudWatchLogsClient logs = stub.client(CloudWatchLogsClient.builder());
    private final StructuredLog log =
            new StructuredLog("test", new PrintStream(new ByteArrayOutputStream()), Clock.systemUTC());
    private final TriggerRunners runners = new TriggerRunners(
            () -> glue,
            new GlueDriverLog(() -> logs),
            () -> emr,
            () -> null,
            () -> null,
            () -> null,
            new GuardedHttp(new UrlGuard(false, HostResolver.system()), Clock.systemUTC(), NoWait.BACKOFF),
            TestTemplates.none(),
            log);

    @AfterEach
    void stop() {
        List.of(glue, emr, logs).forEach(c -> c.close());
        stub.close();
    }

    private RunCheck check(TriggerType type, Map<String, String> metadata) {
        return runners.check(new RunCheckRequest("orders", "daily", "2026-03-01", "run-42", type, metadata, Map.of()));
    }

    private void succeeded(String errorMessage) {
        stub.on(
                "AWSGlue.GetJobRun",
                Reply.json("{\"JobRun\":{\"Id\":\"jr_0042\",\"JobRunState\":\"SUCCEEDED\""
                        + (errorMessage == null ? "" : ",\"ErrorMessage\":\"" + errorMessage + "\"") + "}}"));
    }

    @Test
    void aSucceededRunWithAnErrorMessageIsAFalseSuccessWithoutReadingTheLog() {
        succeeded("2 partitions skipped");
        RunCheck check = check(TriggerType.GLUE, CHECKED);
        assertThat(check)
                .isEqualTo(RunCheck.failed(
                        "glue job run jr_0042 ended SUCCEEDED with an error message: 2 partitions skipped",
                        FailureCategory.FALSE_SUCCESS));
        assertThat(stub.requests("Logs_20140328.FilterLogEvents")).isEmpty();
    }

    @Test
    void aSucceededRunWhoseDriverLogMatchesIsAFalseSuccess() {
        succeeded(null);
        stub.on(
                "Logs_20140328.FilterLogEvents",
                Reply.json("{\"events\":[{\"logStreamName\":\"jr_0042\",\"timestamp\":1,"
                        + "\"message\":\"ERROR Executor: Task 3 failed\",\"eventId\":\"e1\"}]}"));
        RunCheck check = check(TriggerType.GLUE, CHECKED);

        assertThat(check.state()).isEqualTo(RunCheckState.FAILED);
        assertThat(check.failureCategory()).isEqualTo(FailureCategory.FALSE_SUCCESS);
        assertThat(check.message())
                .isEqualTo("glue job run jr_0042 ended SUCCEEDED, but its driver log (/aws-glue/jobs/error) holds "
                        + "lines matching '?ERROR ?FATAL': ERROR Executor: Task 3 failed");
        JsonNode sent =
                stub.requests("Logs_20140328.FilterLogEvents").getFirst().json();
        assertThat(sent.get("logGroupName").asText()).isEqualTo("/aws-glue/jobs/error");
        assertThat(sent.get("logStreamNamePrefix").asText()).isEqualTo("jr_0042");
        assertThat(sent.get("filterPattern").asText()).isEqualTo("?ERROR ?FATAL");
    }

    @Test
    void emptyPagesAreFollowedAndACleanLogOrNoLogGroupLeavesTheSuccess() {
        succeeded(null);
        stub.on(
                "Logs_20140328.FilterLogEvents",
                r -> r.json().has("nextToken")
                        ? Reply.json("{\"events\":[]}")
                        : Reply.json("{\"events\":[],\"nextToken\":\"page-2\"}"));
        assertThat(check(TriggerType.GLUE, CHECKED)).isEqualTo(RunCheck.succeeded("SUCCEEDED"));
        assertThat(stub.requests("Logs_20140328.FilterLogEvents")).hasSize(2);

        stub.on(
                "Logs_20140328.FilterLogEvents",
                Reply.error(400, "ResourceNotFoundException", "The specified log group does not exist."));
        assertThat(check(TriggerType.GLUE, CHECKED)).isEqualTo(RunCheck.succeeded("SUCCEEDED"));
    }

    @Test
    void theLogCheckOffOrARunStartedBeforeItReadsNoLog() {
        succeeded(null);
        Map<String, String> off =
                Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042", "glue_error_log_pattern", "");
        assertThat(check(TriggerType.GLUE, off)).isEqualTo(RunCheck.succeeded("SUCCEEDED"));
        assertThat(check(TriggerType.GLUE, Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_0042")))
                .isEqualTo(RunCheck.succeeded("SUCCEEDED"));
        assertThat(stub.requests("Logs_20140328.FilterLogEvents")).isEmpty();
        // The error message is checked all the same.
        succeeded("lied");
        assertThat(check(TriggerType.GLUE, off).failureCategory()).isEqualTo(FailureCategory.FALSE_SUCCESS);
    }

    @Test
    void aLogThatCannotBeReadIsNotASuccess() {
        succeeded(null);
        stub.on("Logs_20140328.FilterLogEvents", Reply.error(400, "ThrottlingException", "Rate exceeded"));
        RunCheck throttled = check(TriggerType.GLUE, CHECKED);
        assertThat(throttled.state()).as("asked again at the next poll").isEqualTo(RunCheckState.RUNNING);

        stub.on("Logs_20140328.FilterLogEvents", Reply.error(400, "AccessDeniedException", "not authorized"));
        RunCheck denied = check(TriggerType.GLUE, CHECKED);
        assertThat(denied.state()).isEqualTo(RunCheckState.FAILED);
        assertThat(denied.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(denied.message()).contains("logs FilterLogEvents on /aws-glue/jobs/error");
    }

    @Test
    void theWatchdogsChecksNeverReadTheLog() {
        succeeded(null);
        RunChecker watchdog = TriggerRunners.callbackJobChecks(
                new dev.interlock.runtime.aws.AwsClients(dev.interlock.model.runtime.Environment.of(Map.of(
                        "AWS_REGION",
                        "us-east-1",
                        "INTERLOCK_ENDPOINT_GLUE",
                        stub.endpoint().toString()))),
                log);
        assertThat(watchdog.check(new RunCheckRequest(
                                "orders", "daily", "2026-03-01", "run-42", TriggerType.GLUE, CHECKED, Map.of()))
                        .state())
                .isEqualTo(RunCheckState.SUCCEEDED);
        assertThat(stub.requests("Logs_20140328.FilterLogEvents")).isEmpty();
    }

    @Test
    void anEmrStepCompletedWithFailureDetailsIsAFalseSuccess() {
        stub.on(
                "ElasticMapReduce.DescribeStep",
                Reply.json("{\"Step\":{\"Id\":\"s-1\",\"Status\":{\"State\":\"COMPLETED\","
                        + "\"FailureDetails\":{\"Reason\":\"Unknown error\",\"Message\":\"exit code 1 ignored\"}}}}"));
        RunCheck check = check(TriggerType.EMR, Map.of("emr_cluster_id", "j-1", "emr_step_id", "s-1"));
        assertThat(check.failureCategory()).isEqualTo(FailureCategory.FALSE_SUCCESS);
        assertThat(check.message())
                .isEqualTo("emr step s-1 ended COMPLETED with failure details: COMPLETED: exit code 1 ignored");

        stub.on(
                "ElasticMapReduce.DescribeStep",
                Reply.json("{\"Step\":{\"Id\":\"s-1\",\"Status\":{\"State\":\"COMPLETED\"}}}"));
        assertThat(check(TriggerType.EMR, Map.of("emr_cluster_id", "j-1", "emr_step_id", "s-1"))
                        .state())
                .isEqualTo(RunCheckState.SUCCEEDED);
    }
}
