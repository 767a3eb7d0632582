package dev.interlock.runchecker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.trigger.TriggerType;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emr.model.StepState;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.emrserverless.model.JobRunState;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * The run-checker function polls jobs in moto's Glue, EMR, EMR Serverless and Step Functions — an emulator this project
 * did not write — beside {@code RunPollTest}'s protocol stubs. Each test drives moto through every job state it can
 * produce (read from moto 5.2.1's source: its Glue job runs only move STARTING → RUNNING → SUCCEEDED; its EMR steps
 * are RUNNING, or PENDING behind another step, and never finish; its EMR Serverless runs are SUCCESS at once, or
 * CANCELLED when cancelled; its Step Functions interpreter ends executions SUCCEEDED, FAILED, ABORTED or TIMED_OUT)
 * and checks that our mapping turns each into the run state we mean. A Lambda job completes in the trigger and is never
 * polled. The checks' AWS requests are recorded for the IAM conformance check as the run-checker's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RunCheckerOnMotoTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");

    /** Every job state moto can produce, and the run-check outcome ("state" or "state/category") we mean for it. */
    private static final Map<String, Map<String, String>> MOTO_STATES = Map.of(
            "glue", Map.of("STARTING", "running", "RUNNING", "running", "SUCCEEDED", "succeeded"),
            "emr", Map.of("PENDING", "running", "RUNNING", "running"),
            "emr-serverless", Map.of("SUCCESS", "succeeded", "CANCELLED", "failed/PERMANENT"),
            "step-function",
                    Map.of(
                            "RUNNING",
                            "running",
                            "SUCCEEDED",
                            "succeeded",
                            "FAILED",
                            "failed/TRANSIENT",
                            "ABORTED",
                            "failed/PERMANENT",
                            "TIMED_OUT",
                            "failed/TIMEOUT"));

    private MotoServer moto;
    private AwsClients clients;
    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private RunPoll poll;
    private TriggerRunners runners;
    private GlueClient glue;
    private EmrClient emr;
    private EmrServerlessClient emrServerless;
    private SfnClient sfn;
    private final AtomicInteger runs = new AtomicInteger();
    /** What each poll saw: type → moto state → our outcome. */
    private final Map<String, Map<String, String>> observed = new ConcurrentHashMap<>();

    @BeforeAll
    void startMoto() {
        moto = MotoServer.start();
        moto.configure("{\"stepfunctions\":{\"execute_state_machine\":true}}");
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
        poll = new RunPoll(provider, runners, runners, clock);
        glue = moto.client(GlueClient.builder());
        emr = moto.client(EmrClient.builder());
        emrServerless = moto.client(EmrServerlessClient.builder());
        sfn = moto.client(SfnClient.builder());
    }

    @AfterAll
    void stopMoto() {
        for (AutoCloseable c : new AutoCloseable[] {glue, emr, emrServerless, sfn, clients, moto}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception e) {
                System.err.println("closing " + c + " failed: " + e);
            }
        }
    }

    /** One poll of a fresh RUNNING run of this job; records which moto state led to which outcome. */
    private RunCheckOutput check(String type, TriggerType triggerType, Map<String, Object> metadata) {
        String runId = "run-" + runs.incrementAndGet();
        provider.runs()
                .create(new RunState(
                        runId,
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.RUNNING,
                        3,
                        triggerType,
                        "exec",
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));
        RunCheckOutput out =
                poll.check(new RunCheckInput("orders", "daily", "2026-03-01", runId, type, metadata, Map.of(), null));
        String motoState = out.message().split(":", 2)[0].trim();
        observed.computeIfAbsent(type, t -> new LinkedHashMap<>())
                .put(
                        motoState,
                        out.failureCategory().isEmpty() ? out.state() : out.state() + "/" + out.failureCategory());
        return out;
    }

    /** Polls until {@code done} holds (moto runs Step Functions executions on its own threads), for at most a minute. */
    private RunCheckOutput checkUntil(
            String type, TriggerType triggerType, Map<String, Object> metadata, Predicate<RunCheckOutput> done) {
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < deadline) {
            RunCheckOutput out = check(type, triggerType, metadata);
            seen.add(out.message());
            if (done.test(out)) {
                return out;
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
        throw new AssertionError("no expected outcome within a minute; saw " + seen);
    }

    private void assertEveryMotoStateWasSeenAndMappedAsMeant(String type) {
        assertThat(observed.get(type))
                .as("%s: moto state → our run-check outcome", type)
                .isEqualTo(MOTO_STATES.get(type));
    }

    @Test
    void glueJobRunsGoStartingRunningSucceeded() {
        glue.createJob(r -> r.name("orders-etl")
                .role("arn:aws:iam::123456789012:role/glue")
                .command(c -> c.name("glueetl").scriptLocation("s3://code/orders.py")));
        // Each state holds for two reads, so every poll below sees the next step of the run.
        moto.transition("glue::job_run", "{\"progression\":\"manual\",\"times\":2}");
        try {
            String jobRunId = glue.startJobRun(r -> r.jobName("orders-etl")).jobRunId();
            Map<String, Object> metadata = Map.of("glue_job_name", "orders-etl", "glue_job_run_id", jobRunId);
            List<String> states = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                states.add(check("glue", TriggerType.GLUE, metadata).message());
            }
            assertThat(states).containsExactly("STARTING", "RUNNING", "RUNNING", "SUCCEEDED");
        } finally {
            moto.transition("glue::job_run", "{\"progression\":\"immediate\"}");
        }
        assertEveryMotoStateWasSeenAndMappedAsMeant("glue");
        assertThat(MOTO_STATES.get("glue").keySet())
                .allSatisfy(s -> assertThat(software.amazon.awssdk.services.glue.model.JobRunState.fromValue(s))
                        .isNotEqualTo(software.amazon.awssdk.services.glue.model.JobRunState.UNKNOWN_TO_SDK_VERSION));
    }

    @Test
    void emrStepsAreRunningOrPendingBehindAnother() {
        String cluster = emr.runJobFlow(r -> r.name("shared")
                        .releaseLabel("emr-7.0.0")
                        .instances(i -> i.instanceCount(1)
                                .masterInstanceType("m5.xlarge")
                                .keepJobFlowAliveWhenNoSteps(true))
                        .jobFlowRole("EMR_EC2_DefaultRole")
                        .serviceRole("EMR_DefaultRole"))
                .jobFlowId();
        List<String> steps = emr.addJobFlowSteps(r -> r.jobFlowId(cluster)
                        .steps(
                                s -> s.name("first").hadoopJarStep(j -> j.jar("command-runner.jar")),
                                s -> s.name("second").hadoopJarStep(j -> j.jar("command-runner.jar"))))
                .stepIds();

        RunCheckOutput first =
                check("emr", TriggerType.EMR, Map.of("emr_cluster_id", cluster, "emr_step_id", steps.get(0)));
        RunCheckOutput second =
                check("emr", TriggerType.EMR, Map.of("emr_cluster_id", cluster, "emr_step_id", steps.get(1)));

        assertThat(first.message()).isEqualTo("RUNNING");
        assertThat(second.message()).isEqualTo("PENDING");
        assertEveryMotoStateWasSeenAndMappedAsMeant("emr");
        assertThat(MOTO_STATES.get("emr").keySet())
                .allSatisfy(s -> assertThat(StepState.fromValue(s)).isNotEqualTo(StepState.UNKNOWN_TO_SDK_VERSION));
    }

    @Test
    void emrServerlessJobRunsSucceedOrAreCancelled() {
        String application = emrServerless
                .createApplication(
                        r -> r.name("spark").releaseLabel("emr-7.0.0").type("SPARK"))
                .applicationId();
        String role = "arn:aws:iam::" + MotoServer.ACCOUNT + ":role/spark-job";
        String done = emrServerless
                .startJobRun(r -> r.applicationId(application)
                        .executionRoleArn(role)
                        .clientToken("a")
                        .jobDriver(d -> d.sparkSubmit(s -> s.entryPoint("s3://code/etl.py"))))
                .jobRunId();
        String cancelled = emrServerless
                .startJobRun(r -> r.applicationId(application)
                        .executionRoleArn(role)
                        .clientToken("b")
                        .jobDriver(d -> d.sparkSubmit(s -> s.entryPoint("s3://code/etl.py"))))
                .jobRunId();
        emrServerless.cancelJobRun(r -> r.applicationId(application).jobRunId(cancelled));

        check(
                "emr-serverless",
                TriggerType.EMR_SERVERLESS,
                Map.of("emr_sl_application_id", application, "emr_sl_job_run_id", done));
        check(
                "emr-serverless",
                TriggerType.EMR_SERVERLESS,
                Map.of("emr_sl_application_id", application, "emr_sl_job_run_id", cancelled));

        assertEveryMotoStateWasSeenAndMappedAsMeant("emr-serverless");
        assertThat(MOTO_STATES.get("emr-serverless").keySet())
                .allSatisfy(s -> assertThat(JobRunState.fromValue(s)).isNotEqualTo(JobRunState.UNKNOWN_TO_SDK_VERSION));
    }

    /**
     * Starts one execution of a new state machine. moto 5.2.1 executing definitions serves one StartExecution per
     * backend (a second one fails with HTTP 500: it deep-copies a state machine that reaches the first execution's
     * lock), so each execution gets a freshly reset moto.
     */
    private String execute(String name, String definition) {
        moto.reset();
        moto.configure("{\"stepfunctions\":{\"execute_state_machine\":true}}");
        String role = moto.createRole("sfn-" + name);
        String machine = sfn.createStateMachine(r -> r.name(name).roleArn(role).definition(definition))
                .stateMachineArn();
        return sfn.startExecution(r ->
                        r.stateMachineArn(machine).name("interlock-" + name).input("{}"))
                .executionArn();
    }

    @Test
    void stepFunctionsExecutionsSucceedFailAreAbortedOrTimeOut() {
        Predicate<RunCheckOutput> terminal = out -> !out.state().equals("running");

        RunCheckOutput succeeded = checkUntil(
                "step-function",
                TriggerType.STEP_FUNCTION,
                Map.of(
                        "sfn_execution_arn",
                        execute("succeeds", "{\"StartAt\":\"Done\",\"States\":{\"Done\":{\"Type\":\"Succeed\"}}}")),
                terminal);
        RunCheckOutput failed = checkUntil(
                "step-function",
                TriggerType.STEP_FUNCTION,
                Map.of(
                        "sfn_execution_arn",
                        execute(
                                "fails",
                                "{\"StartAt\":\"Broken\",\"States\":{\"Broken\":{\"Type\":\"Fail\","
                                        + "\"Error\":\"OrdersFailed\",\"Cause\":\"bad input\"}}}")),
                terminal);
        RunCheckOutput timedOut = checkUntil(
                "step-function",
                TriggerType.STEP_FUNCTION,
                Map.of(
                        "sfn_execution_arn",
                        execute(
                                "times-out",
                                "{\"TimeoutSeconds\":1,\"StartAt\":\"Wait\",\"States\":{\"Wait\":"
                                        + "{\"Type\":\"Wait\",\"Seconds\":3600,\"End\":true}}}")),
                terminal);
        String waits = execute(
                "waits",
                "{\"StartAt\":\"Wait\",\"States\":{\"Wait\":{\"Type\":\"Wait\"," + "\"Seconds\":3600,\"End\":true}}}");
        RunCheckOutput running = check("step-function", TriggerType.STEP_FUNCTION, Map.of("sfn_execution_arn", waits));
        sfn.stopExecution(r -> r.executionArn(waits));
        RunCheckOutput aborted =
                checkUntil("step-function", TriggerType.STEP_FUNCTION, Map.of("sfn_execution_arn", waits), terminal);

        assertThat(succeeded.message()).isEqualTo("SUCCEEDED");
        assertThat(failed.message()).isEqualTo("FAILED: OrdersFailed bad input");
        assertThat(timedOut.message()).startsWith("TIMED_OUT");
        assertThat(running.message()).isEqualTo("RUNNING");
        assertThat(aborted.message()).isEqualTo("ABORTED");
        assertEveryMotoStateWasSeenAndMappedAsMeant("step-function");
        assertThat(MOTO_STATES.get("step-function").keySet())
                .allSatisfy(s ->
                        assertThat(ExecutionStatus.fromValue(s)).isNotEqualTo(ExecutionStatus.UNKNOWN_TO_SDK_VERSION));
    }

    @Test
    void aJobPastItsMaximumDurationIsStoppedThroughTheServicesOwnApiAndEndsAsATimeout() {
        String overruns = execute(
                "overruns",
                "{\"StartAt\":\"Wait\",\"States\":{\"Wait\":{\"Type\":\"Wait\"," + "\"Seconds\":3600,\"End\":true}}}");
        String runId = "run-" + runs.incrementAndGet();
        provider.runs()
                .create(new RunState(
                        runId,
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.RUNNING,
                        3,
                        TriggerType.STEP_FUNCTION,
                        "exec",
                        Map.of("sfn_execution_arn", overruns),
                        null,
                        null,
                        NOW,
                        NOW));
        // Followed since two hours ago with a maximum of one hour, in an execution with time left.
        Instant since = NOW.minusSeconds(7200);
        RunCheckInput input = new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                runId,
                "step-function",
                Map.of("sfn_execution_arn", overruns),
                Map.of(),
                new RunCheckInput.Follow(since.toString(), 30, 4, 3600, since.toString(), 14400));

        RunCheckOutput cancelling = poll.check(input);
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        RunCheckOutput out = cancelling;
        while (out.state().equals("running") && System.nanoTime() < deadline) {
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
            out = poll.check(input);
        }

        // The run-checker asks again right after the stop is accepted: a job that stops at once (moto aborts the
        // execution immediately) is answered failed TIMEOUT in the same poll; a slower stop answers running first.
        assertThat(cancelling.message())
                .satisfiesAnyOf(
                        m -> assertThat(m).startsWith("cancel requested: step-function execution stop requested"),
                        m -> assertThat(m).startsWith("cancelled by Interlock"));
        assertThat(out.state()).isEqualTo("failed");
        assertThat(out.failureCategory())
                .as("stopped by Interlock: a timeout, which may be retried")
                .isEqualTo("TIMEOUT");
        assertThat(out.message()).contains("ABORTED");
        assertThat(sfn.describeExecution(r -> r.executionArn(overruns)).status())
                .isEqualTo(ExecutionStatus.ABORTED);
    }
}
