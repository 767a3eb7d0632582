package dev.interlock.local.jobs;

import static org.assertj.core.api.Assertions.assertThat;

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
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.emrserverless.model.JobRunState;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.glue.model.JobRun;

/**
 * The job fakes restarted on their data directory answer for the runs journaled there from their first call, before
 * {@link JobFakes#resumeRuns()} lets those runs go on: the local runtime serves the fakes' endpoints and resumes its
 * executions before it resumes the runs, and a resumed trigger that looks up the job its dead attempt started (Glue
 * by its run-id argument, EMR Serverless by its client token) must find it, not start a second one.
 */
class JobFakesRestartTest {

    /**
     * A job still running when this module's tests are over (the fakes' longest, a week: ten minutes at 1000×): a
     * fake's run that ends after its test publishes its end to a closed endpoint and writes that failure to the stderr
     * later tests share (CliErrorsTest read it as the CLI's error once).
     */
    private static final String NEVER_ENDS = "604800";

    private final ScaledRealClock clock = new ScaledRealClock(1000.0);
    private final LocalEventBus bus = new LocalEventBus();

    /** One process's fakes on {@code dir}, served over the AWS protocols, with SDK clients on them. */
    private final class Process implements AutoCloseable {
        final JobFakes jobs;
        final LocalAwsServer aws;
        final LocalStepFunctionsServer sfn;
        final EventBridgeClient eventBridge;
        final AwsClients clients;

        Process(Path dir) throws Exception {
            AlertSink sink = new AlertSink(Clock.fixed(Instant.parse("2026-03-01T00:00:00Z"), ZoneOffset.UTC), a -> {});
            EventBridgeClient[] bridge = new EventBridgeClient[1];
            jobs = new JobFakes(clock, () -> bridge[0], dir);
            aws = LocalAwsServer.start(
                    0,
                    new FunctionRegistry(),
                    sink,
                    jobs,
                    new EventBridgeApi(bus, Clock.systemUTC()),
                    LocalSecrets.load(null, Map.of()));
            sfn = LocalStepFunctionsServer.start(0, jobs.stepFunctions());
            eventBridge = EventBridgeClient.builder()
                    .endpointOverride(aws.endpoint())
                    .region(Region.US_EAST_1)
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                    .httpClient(UrlConnectionHttpClient.create())
                    .build();
            bridge[0] = eventBridge;
            clients = new AwsClients(Environment.of(Map.of(
                    "INTERLOCK_ENDPOINT_GLUE", aws.endpoint().toString(),
                    "INTERLOCK_ENDPOINT_EMR_SERVERLESS", aws.endpoint().toString(),
                    "INTERLOCK_ENDPOINT_STEPFUNCTIONS", sfn.endpoint().toString())));
        }

        @Override
        public void close() {
            clients.close();
            eventBridge.close();
            sfn.close();
            aws.close();
        }
    }

    @Test
    void restartedFakesAnswerForTheirJournaledRunsBeforeTheRunsAreResumed(@TempDir Path dir) throws Exception {
        String glueRun;
        String emrsRun;
        try (Process first = new Process(dir)) {
            glueRun = first.clients
                    .glue()
                    .startJobRun(b -> b.jobName("orders")
                            .arguments(Map.of("--interlock-run-id", "run-7", FakeJob.DURATION_KEY, NEVER_ENDS)))
                    .jobRunId();
            emrsRun = startEmrServerless(first).jobRunId();
        }

        try (Process restarted = new Process(dir)) {
            // resumeRuns() not called yet: the runtime is still starting, yet its endpoints already serve.
            assertThat(restarted
                            .clients
                            .glue()
                            .getJobRuns(b -> b.jobName("orders"))
                            .jobRuns())
                    .extracting(JobRun::id, r -> r.arguments().get("--interlock-run-id"))
                    .containsExactly(org.assertj.core.groups.Tuple.tuple(glueRun, "run-7"));
            assertThat(startEmrServerless(restarted).jobRunId())
                    .as("the same client token answers the journaled job run")
                    .isEqualTo(emrsRun);
            assertThat(restarted
                            .clients
                            .emrServerless()
                            .listJobRuns(b -> b.applicationId("00app"))
                            .jobRuns())
                    .singleElement()
                    .satisfies(r -> assertThat(r.state()).isEqualTo(JobRunState.RUNNING));

            restarted.jobs.resumeRuns();
            assertThat(restarted
                            .clients
                            .glue()
                            .getJobRun(b -> b.jobName("orders").runId(glueRun))
                            .jobRun()
                            .jobRunStateAsString())
                    .isEqualTo("RUNNING");
        }
    }

    private static software.amazon.awssdk.services.emrserverless.model.StartJobRunResponse startEmrServerless(
            Process process) {
        return process.clients
                .emrServerless()
                .startJobRun(b -> b.applicationId("00app")
                        .clientToken("run-7")
                        .executionRoleArn("arn:aws:iam::123456789012:role/jobs")
                        .jobDriver(d -> d.sparkSubmit(s ->
                                s.entryPoint("s3://b/job.py").entryPointArguments(FakeJob.DURATION_KEY, NEVER_ENDS))));
    }
}
