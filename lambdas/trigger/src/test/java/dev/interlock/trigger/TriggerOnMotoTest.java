package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.store.Backoff;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.MotoServer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emr.model.ActionOnFailure;
import software.amazon.awssdk.services.emr.model.Step;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.emrserverless.model.JobRun;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.Runtime;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;

/**
 * The trigger function's job starts against moto's Glue, EMR, EMR Serverless, Step Functions and Lambda — an emulator
 * this project did not write — beside {@code RunTriggerTest}'s protocol stubs: each job is started through the real
 * {@code RunTrigger} and runners, and what moto then holds (the run, its arguments, its driver) is read back with an
 * independent client. The runners' AWS requests are recorded for the IAM conformance check as the trigger's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TriggerOnMotoTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private MotoServer moto;
    private AwsClients clients;
    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private RunTrigger trigger;
    private TriggerRunners runners;
    private GlueClient glue;
    private EmrClient emr;
    private EmrServerlessClient emrServerless;
    private SfnClient sfn;
    private LambdaClient lambda;

    @BeforeAll
    void startMoto() {
        moto = MotoServer.start();
        moto.configure("{\"lambda\":{\"use_docker\":false},\"stepfunctions\":{\"execute_state_machine\":true}}");
        String endpoint = moto.endpoint().toString();
        Environment environment = Environment.of(Map.of(
                "AWS_REGION",
                MotoServer.REGION,
                "INTERLOCK_ENDPOINT_GLUE",
                endpoint,
                "INTERLOCK_ENDPOINT_EMR",
                endpoint,
                "INTERLOCK_ENDPOINT_EMR_SERVERLESS",
                endpoint,
                "INTERLOCK_ENDPOINT_STEPFUNCTIONS",
                endpoint,
                "INTERLOCK_ENDPOINT_LAMBDA",
                endpoint));
        clients = new AwsClients(environment);
        runners = TriggerRunners.create(
                clients,
                OutboundTemplates.create(environment, clients),
                new GuardedHttp(
                        new UrlGuard(true, HostResolver.system()),
                        clock,
                        new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance)),
                clock);
        trigger = new RunTrigger(provider, runners, alert -> {}, clock);
        glue = moto.client(GlueClient.builder());
        emr = moto.client(EmrClient.builder());
        emrServerless = moto.client(EmrServerlessClient.builder());
        sfn = moto.client(SfnClient.builder());
        lambda = moto.client(LambdaClient.builder());
    }

    @AfterAll
    void stopMoto() {
        for (AutoCloseable c : new AutoCloseable[] {glue, emr, emrServerless, sfn, lambda, clients, moto}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                System.err.println("closing " + c + " failed: " + e);
            }
        }
    }

    private TriggerOutput fire(String runId, String triggerJson) {
        // The machine's AcquireLock comes before TriggerPipeline: the invoking execution holds its day's lock.
        provider.locks()
                .acquire(
                        new LockKey("orders", "daily", LocalDate.of(2026, 3, 1)),
                        "orders_2026-03-01_daily_ab12cd34",
                        Duration.ofDays(365));
        return trigger.fire(new TriggerInput(
                "orders",
                "daily",
                "2026-03-01",
                runId,
                "orders_2026-03-01_daily_ab12cd34",
                InterlockJson.tree(triggerJson)));
    }

    @Test
    void aGlueJobRunIsStartedWithOurArguments() {
        glue.createJob(r -> r.name("orders-etl")
                .role("arn:aws:iam::123456789012:role/glue")
                .command(c -> c.name("glueetl").scriptLocation("s3://code/orders.py")));

        TriggerOutput out = fire(
                "run-glue",
                "{\"type\":\"glue\",\"jobName\":\"orders-etl\","
                        + "\"arguments\":{\"--date\":\"2026-03-01\",\"--pipeline\":\"orders\"}}");

        assertThat(out.status()).as(out.error()).isEqualTo("running");
        String runId = out.metadata().get("glue_job_run_id");
        var run = glue.getJobRun(r -> r.jobName("orders-etl").runId(runId)).jobRun();
        assertThat(run.jobName()).isEqualTo("orders-etl");
        assertThat(run.arguments())
                .as("the run id rides along, so a resumed trigger can find the job run it started")
                .isEqualTo(Map.of("--date", "2026-03-01", "--pipeline", "orders", "--interlock-run-id", "run-glue"));
        assertThat(provider.runs().get("run-glue").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void aGlueJobThatDoesNotExistFailsPermanently() {
        TriggerOutput out = fire("run-glue-missing", "{\"type\":\"glue\",\"jobName\":\"no-such-job\"}");

        assertThat(out.status()).isEqualTo("failed");
        assertThat(out.failureCategory()).isEqualTo("PERMANENT");
        assertThat(out.error()).contains("EntityNotFoundException");
    }

    @Test
    void aSecondGlueRunWhileTheFirstRunsIsNotNowRatherThanNever() {
        moto.transition("glue::job_run", "{\"progression\":\"manual\",\"times\":100}");
        glue.createJob(r -> r.name("busy-etl")
                .role("arn:aws:iam::123456789012:role/glue")
                .command(c -> c.name("glueetl").scriptLocation("s3://code/busy.py")));
        try {
            assertThat(fire("run-busy-1", "{\"type\":\"glue\",\"jobName\":\"busy-etl\"}")
                            .status())
                    .isEqualTo("running");

            TriggerOutput second = fire("run-busy-2", "{\"type\":\"glue\",\"jobName\":\"busy-etl\"}");

            assertThat(second.status()).isEqualTo("failed");
            assertThat(second.error()).contains("ConcurrentRunsExceededException");
            assertThat(second.failureCategory()).isEqualTo("TRANSIENT");
        } finally {
            moto.transition("glue::job_run", "{\"progression\":\"immediate\"}");
        }
    }

    @Test
    void anEmrStepIsAddedToTheClusterWithOurJarAndArgumentsAndLeavesTheClusterUpOnFailure() {
        String cluster = emr.runJobFlow(r -> r.name("shared")
                        .releaseLabel("emr-7.0.0")
                        .instances(i -> i.instanceCount(1)
                                .masterInstanceType("m5.xlarge")
                                .keepJobFlowAliveWhenNoSteps(true))
                        .jobFlowRole("EMR_EC2_DefaultRole")
                        .serviceRole("EMR_DefaultRole"))
                .jobFlowId();

        TriggerOutput out = fire(
                "run-emr",
                "{\"type\":\"emr\",\"clusterId\":\"" + cluster + "\",\"stepName\":\"orders\","
                        + "\"jar\":\"command-runner.jar\",\"arguments\":{\"--date\":\"2026-03-01\"}}");

        assertThat(out.status()).as(out.error()).isEqualTo("running");
        assertThat(out.metadata()).containsEntry("emr_cluster_id", cluster);
        Step step = emr.describeStep(
                        r -> r.clusterId(cluster).stepId(out.metadata().get("emr_step_id")))
                .step();
        assertThat(step.name()).isEqualTo("orders [interlock run run-emr]");
        assertThat(step.config().jar()).isEqualTo("command-runner.jar");
        assertThat(step.config().args()).containsExactly("--date=2026-03-01");
        assertThat(step.actionOnFailure()).isEqualTo(ActionOnFailure.CONTINUE);
    }

    @Test
    void anEmrServerlessJobRunCarriesOurRoleDriverAndName() {
        String application = emrServerless
                .createApplication(
                        r -> r.name("spark").releaseLabel("emr-7.0.0").type("SPARK"))
                .applicationId();

        TriggerOutput out = fire(
                "run-emr-sl",
                "{\"type\":\"emr-serverless\",\"applicationId\":\"" + application + "\","
                        + "\"jobName\":\"orders-etl\",\"executionRoleArn\":\"arn:aws:iam::123456789012:role/spark-job\","
                        + "\"entryPoint\":\"s3://code/etl.py\",\"entryPointArguments\":[\"--mode\",\"full\"],"
                        + "\"sparkSubmitParameters\":\"--conf spark.executor.cores=2\",\"arguments\":{\"--date\":\"2026-03-01\"}}");

        assertThat(out.status()).as(out.error()).isEqualTo("running");
        JobRun run = emrServerless
                .getJobRun(r ->
                        r.applicationId(application).jobRunId(out.metadata().get("emr_sl_job_run_id")))
                .jobRun();
        assertThat(run.name()).isEqualTo("orders-etl");
        // moto keeps the role but does not return it (its GetJobRun has no executionRole): it reads it, though, and
        // refuses a role of another account, as AWS does.
        assertThat(run.jobDriver().sparkSubmit().entryPoint()).isEqualTo("s3://code/etl.py");
        assertThat(run.jobDriver().sparkSubmit().entryPointArguments())
                .containsExactly("--mode", "full", "--date=2026-03-01");
        assertThat(run.jobDriver().sparkSubmit().sparkSubmitParameters()).isEqualTo("--conf spark.executor.cores=2");

        TriggerOutput foreign = fire(
                "run-emr-sl-foreign",
                "{\"type\":\"emr-serverless\",\"applicationId\":\""
                        + application + "\",\"executionRoleArn\":\"arn:aws:iam::999999999999:role/spark-job\","
                        + "\"entryPoint\":\"s3://code/etl.py\"}");
        assertThat(foreign.status()).isEqualTo("failed");
        assertThat(foreign.error()).contains("AccessDeniedException");
        assertThat(foreign.failureCategory()).isEqualTo("PERMANENT");
    }

    @Test
    void aStepFunctionsExecutionIsNamedAfterTheRunWithOurArgumentsAsInput() {
        String role = moto.createRole("sfn-gold");
        String machine = sfn.createStateMachine(
                        r -> r.name("gold-build")
                                .roleArn(role)
                                .definition(
                                        "{\"StartAt\":\"Wait\",\"States\":{\"Wait\":{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}"))
                .stateMachineArn();

        TriggerOutput out = fire(
                "run-sfn",
                "{\"type\":\"step-function\",\"stateMachineArn\":\"" + machine + "\","
                        + "\"arguments\":{\"date\":\"2026-03-01\",\"pipeline\":\"orders\"}}");

        assertThat(out.status()).as(out.error()).isEqualTo("running");
        DescribeExecutionResponse execution =
                sfn.describeExecution(r -> r.executionArn(out.metadata().get("sfn_execution_arn")));
        assertThat(execution.name()).isEqualTo("interlock-run-sfn");
        assertThat(InterlockJson.tree(execution.input()))
                .isEqualTo(InterlockJson.tree("{\"date\":\"2026-03-01\",\"pipeline\":\"orders\"}"));
        assertThat(execution.statusAsString()).isEqualTo("RUNNING");

        // A trigger retried after its run state was lost starts the same execution name with the same input: while
        // the execution runs, Step Functions answers with it instead of starting a second one.
        InMemoryProvider lostState = new InMemoryProvider(clock);
        lostState
                .locks()
                .acquire(
                        new LockKey("orders", "daily", LocalDate.of(2026, 3, 1)),
                        "orders_2026-03-01_daily_ab12cd34",
                        Duration.ofDays(365));
        TriggerOutput retried = new RunTrigger(lostState, runners, alert -> {}, clock)
                .fire(new TriggerInput(
                        "orders",
                        "daily",
                        "2026-03-01",
                        "run-sfn",
                        "orders_2026-03-01_daily_ab12cd34",
                        InterlockJson.tree("{\"type\":\"step-function\",\"stateMachineArn\":\"" + machine + "\","
                                + "\"arguments\":{\"date\":\"2026-03-01\",\"pipeline\":\"orders\"}}")));
        assertThat(retried.metadata()).isEqualTo(out.metadata());
        assertThat(sfn.listExecutions(r -> r.stateMachineArn(machine)).executions())
                .hasSize(1);
        sfn.stopExecution(r -> r.executionArn(execution.executionArn()));
    }

    @Test
    void aLambdaJobIsInvokedSynchronouslyAndCompletesTheRun() {
        String role = moto.createRole("compact-partitions");
        lambda.createFunction(r -> r.functionName("compact-partitions")
                .runtime(Runtime.JAVA21)
                .role(role)
                .handler("example.Handler::handleRequest")
                .code(c -> c.zipFile(SdkBytes.fromByteArray(new byte[] {'P', 'K'}))));

        TriggerOutput out = fire(
                "run-lambda",
                "{\"type\":\"lambda\",\"functionName\":\"compact-partitions\","
                        + "\"payload\":{\"date\":\"2026-03-01\"}}");

        assertThat(out.status()).as(out.error()).isEqualTo("completed");
        assertThat(out.metadata()).containsEntry("lambda_function_name", "compact-partitions");
        assertThat(provider.runs().get("run-lambda").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(lambda.getFunction(r -> r.functionName("compact-partitions"))
                        .configuration()
                        .functionName())
                .isEqualTo("compact-partitions");
    }
}
