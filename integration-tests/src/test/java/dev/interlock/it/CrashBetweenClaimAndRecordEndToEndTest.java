package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.jobs.StartHolds;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A crash between claiming a run and recording its job loses no day, for the job types that start
 * through the local runtime's AWS job fakes. The fake holds the trigger's start call ({@link StartHolds}) — after it
 * recorded the job run (the job system accepted the start), or before (the start never reached it) — and the runtime
 * is stopped right there, after the trigger claimed the run and before it could record the job. Restarted on the same
 * data directory, the same execution retries its lost trigger attempt, re-claims the run and starts the job resumed:
 * the runner finds the job that was started (Glue by its {@code --interlock-run-id} argument, EMR by its step name,
 * Step Functions by its execution name, EMR Serverless by its client token) and follows it, or starts it — the job
 * system holds exactly one run for the day, asked with the real SDK clients; the day completes once and the
 * {@code TRIGGER_FIRED} event says how the job was found.
 */
class CrashBetweenClaimAndRecordEndToEndTest extends EndToEnd {

    private static final String SFN_JOB = "arn:aws:states:us-east-1:123456789012:stateMachine:crash-kpis";

    private LocalDate day;

    /** The job fakes' start holds, the same in every runtime a test restarts (the hook outlives the process). */
    private final StartHolds holds = new StartHolds();

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        return super.runtimeOptions(dataDir).withJobStartHolds(holds);
    }

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        return 120.0;
    }

    /**
     * Each test's last runtime stops with the test, before JUnit deletes its data directory (a runtime still running
     * would write into the directory being deleted, and would run on beside the next test's runtimes).
     */
    /** Asks the job fakes of the runtime running now, with the real SDK clients (Glue, EMR, EMR Serverless, SFN). */
    private <T> T askJobSystem(Function<AwsClients, T> ask) {
        String endpoint = rt.lambdaEndpoint().toString();
        try (AwsClients clients = new AwsClients(Environment.of(Map.of(
                "INTERLOCK_ENDPOINT_GLUE", endpoint,
                "INTERLOCK_ENDPOINT_EMR", endpoint,
                "INTERLOCK_ENDPOINT_EMR_SERVERLESS", endpoint,
                "INTERLOCK_ENDPOINT_STEPFUNCTIONS", rt.stepFunctionsEndpoint().toString())))) {
            return ask.apply(clients);
        }
    }

    private void pipeline(String name, String trigger) {
        putReadyPipelineWithoutRetry(name, trigger);
    }

    /**
     * Evaluates the day, whose start of {@code job} the test holds, and crashes there ({@link #crashWhileHeld}).
     * Answers the execution.
     */
    private String crashWhileStarting(Path dataDir, String pipeline, String job) throws Exception {
        String execution = evaluate(pipeline, day);
        crashWhileHeld(dataDir, pipeline, job);
        return execution;
    }

    /**
     * Once the trigger's start call of {@code job} is held (its run claimed, TRIGGERING, no job recorded), stops the
     * runtime, lets the dead call go on once the runtime's stores are gone — it can record nothing any more — and
     * starts the runtime again on the same data directory.
     */
    private void crashWhileHeld(Path dataDir, String pipeline, String job) throws Exception {
        await(pipeline + ": the start of " + job + " held", () -> holds.waiting(job), n -> n == 1);
        assertThat(runs(pipeline))
                .as("the run is claimed and its job not recorded")
                .singleElement()
                .satisfies(r -> assertThat(r.path("status").asText()).isEqualTo("TRIGGERING"));
        rt.close();
        holds.release(job);
        startRuntime(dataDir);
    }

    private void assertTheDayRanOnce(String pipeline, String execution) {
        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus(pipeline, day, "daily")).isEqualTo("COMPLETED");
        assertThat(runs(pipeline))
                .as("one run for the day")
                .singleElement()
                .satisfies(r -> assertThat(r.path("status").asText()).isEqualTo("COMPLETED"));
        assertThat(eventsOf(pipeline, "RUN_STATE_CHANGED"))
                .as("the same execution's retry re-claimed the run")
                .anySatisfy(e -> assertThat(e.path("message").asText()).contains("re-claimed by the retry"));
        assertThat(alertKinds(pipeline)).doesNotContain("TRIGGER_FAILED", "EXECUTION_ERROR", "STUCK_RUN");
        assertThat(eventKinds(pipeline)).doesNotContain("TRIGGER_FAILED", "EXECUTION_ERROR");
    }

    /**
     * The one TRIGGER_FIRED of the day (the dead attempt recorded none), written by the resumed trigger: it says what
     * it found of the dead attempt's start ({@code FOUND}, {@code NONE}, {@code BY_TOKEN}) and how it asked.
     */
    private JsonNode triggerFired(String pipeline, String earlierStart) {
        List<JsonNode> fired = eventsOf(pipeline, "TRIGGER_FIRED");
        assertThat(fired)
                .as("one TRIGGER_FIRED: the dead attempt recorded none")
                .hasSize(1);
        JsonNode event = fired.getFirst();
        assertThat(event.path("details").path("resumed").asBoolean())
                .as("started resumed: " + event)
                .isTrue();
        assertThat(event.path("details").path("earlierStart").asText())
                .as("what the resumed trigger found: " + event)
                .isEqualTo(earlierStart);
        return event;
    }

    private String runId(String pipeline) {
        return runs(pipeline).getFirst().path("runId").asText();
    }

    @Test
    void aGlueJobAcceptedJustBeforeTheCrashIsFoundByItsRunIdAndRunOnce(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline("cr-glue", "{type: glue, jobName: cr-glue-job, arguments: {\"--fake-duration-seconds\": \"900\"}}");
        holds.hold("cr-glue-job", StartHolds.Point.AFTER_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-glue", "cr-glue-job");

        assertTheDayRanOnce("cr-glue", execution);
        var jobRuns = askJobSystem(
                c -> c.glue().getJobRuns(b -> b.jobName("cr-glue-job")).jobRuns());
        assertThat(jobRuns).as("Glue holds one run of the job").hasSize(1);
        assertThat(jobRuns.getFirst().arguments()).containsEntry("--interlock-run-id", runId("cr-glue"));
        JsonNode fired = triggerFired("cr-glue", "FOUND");
        assertThat(fired.path("details").path("glue_job_run_id").asText())
                .isEqualTo(jobRuns.getFirst().id());
        assertThat(fired.path("message").asText()).contains("found and followed", "none started");
    }

    @Test
    void anEmrStepAddedJustBeforeTheCrashIsFoundByItsNameAndRunOnce(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        // A step that ends at once: its end is published while the dead attempt's answer is still held, before any
        // run records the step; the resumed execution's wait completes from the end kept for it.
        pipeline(
                "cr-emr",
                "{type: emr, clusterId: j-CRASH, stepName: orders, jar: command-runner.jar, "
                        + "arguments: {\"--fake-duration-seconds\": \"1\"}}");
        holds.hold("j-CRASH", StartHolds.Point.AFTER_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-emr", "j-CRASH");

        assertTheDayRanOnce("cr-emr", execution);
        var steps =
                askJobSystem(c -> c.emr().listSteps(b -> b.clusterId("j-CRASH")).steps());
        assertThat(steps).as("the cluster holds one step").hasSize(1);
        assertThat(steps.getFirst().name()).isEqualTo("orders [interlock run " + runId("cr-emr") + "]");
        JsonNode fired = triggerFired("cr-emr", "FOUND");
        assertThat(fired.path("details").path("emr_step_id").asText())
                .isEqualTo(steps.getFirst().id());
        assertThat(fired.path("message").asText()).contains("found and followed", "none started");
    }

    @Test
    void anEmrServerlessJobRunAcceptedJustBeforeTheCrashIsAnsweredByItsClientTokenAndRunOnce(@TempDir Path dataDir)
            throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline(
                "cr-emrs",
                "{type: emr-serverless, applicationId: 00crash, executionRoleArn: \"arn:aws:iam::123456789012:role/r\", "
                        + "entryPoint: \"s3://b/job.py\", entryPointArguments: [\"--fake-duration-seconds\", \"900\"]}");
        holds.hold("00crash", StartHolds.Point.AFTER_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-emrs", "00crash");

        assertTheDayRanOnce("cr-emrs", execution);
        var jobRuns = askJobSystem(c ->
                c.emrServerless().listJobRuns(b -> b.applicationId("00crash")).jobRuns());
        assertThat(jobRuns).as("the application holds one job run").hasSize(1);
        JsonNode fired = triggerFired("cr-emrs", "BY_TOKEN");
        assertThat(fired.path("details").path("emr_sl_job_run_id").asText())
                .isEqualTo(jobRuns.getFirst().id());
        assertThat(fired.path("message").asText()).contains("clientToken");
    }

    @Test
    void aStepFunctionsExecutionStartedJustBeforeTheCrashIsFoundByItsNameAndRunOnce(@TempDir Path dataDir)
            throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline(
                "cr-sfn",
                "{type: step-function, stateMachineArn: \"" + SFN_JOB + "\", "
                        + "arguments: {\"--fake-duration-seconds\": \"900\"}}");
        holds.hold(SFN_JOB, StartHolds.Point.AFTER_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-sfn", SFN_JOB);

        assertTheDayRanOnce("cr-sfn", execution);
        var executions = askJobSystem(c -> c.stepFunctions()
                .listExecutions(b -> b.stateMachineArn(SFN_JOB))
                .executions());
        assertThat(executions).as("the state machine ran one execution").hasSize(1);
        assertThat(executions.getFirst().name()).isEqualTo("interlock-" + runId("cr-sfn"));
        JsonNode fired = triggerFired("cr-sfn", "FOUND");
        assertThat(fired.path("details").path("sfn_execution_arn").asText())
                .isEqualTo(executions.getFirst().executionArn());
        assertThat(fired.path("message").asText()).contains("found and followed", "none started");
    }

    @Test
    void aGlueStartLostWithTheCrashIsStartedOnceByTheResumedTrigger(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline("cr-lost", "{type: glue, jobName: cr-lost-job, arguments: {\"--fake-duration-seconds\": \"120\"}}");
        holds.hold("cr-lost-job", StartHolds.Point.BEFORE_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-lost", "cr-lost-job");

        assertTheDayRanOnce("cr-lost", execution);
        var jobRuns = askJobSystem(
                c -> c.glue().getJobRuns(b -> b.jobName("cr-lost-job")).jobRuns());
        assertThat(jobRuns).as("the resumed trigger started the job once").hasSize(1);
        JsonNode fired = triggerFired("cr-lost", "NONE");
        assertThat(fired.path("details").path("glue_job_run_id").asText())
                .isEqualTo(jobRuns.getFirst().id());
        assertThat(fired.path("message").asText()).contains("none found", "GetJobRuns");
    }

    @Test
    void aCrashBeforeTheStartAndAnotherAfterTheRetriedStartStillRunTheJobOnce(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline("cr-twice", "{type: glue, jobName: cr-twice-job, arguments: {\"--fake-duration-seconds\": \"600\"}}");
        holds.hold("cr-twice-job", StartHolds.Point.BEFORE_ACCEPTING);
        String execution = evaluate("cr-twice", day);
        // The first start never reaches Glue; the restarted runtime's retry looks, finds nothing, starts the job — and
        // dies again the moment Glue accepted it.
        await("the first start held", () -> holds.waiting("cr-twice-job"), n -> n == 1);
        rt.close();
        holds.release("cr-twice-job");
        holds.hold("cr-twice-job", StartHolds.Point.AFTER_ACCEPTING); // before the restart: its retry comes at once
        startRuntime(dataDir);
        crashWhileHeld(dataDir, "cr-twice", "cr-twice-job");

        assertTheDayRanOnce("cr-twice", execution);
        var jobRuns = askJobSystem(
                c -> c.glue().getJobRuns(b -> b.jobName("cr-twice-job")).jobRuns());
        assertThat(jobRuns).as("Glue holds one run of the job").hasSize(1);
        assertThat(eventsOf("cr-twice", "RUN_STATE_CHANGED").stream()
                        .filter(e -> e.path("message").asText().contains("re-claimed by the retry")))
                .as("re-claimed after each restart")
                .hasSize(2);
        assertThat(triggerFired("cr-twice", "FOUND").path("message").asText()).contains("found and followed");
    }

    @Test
    void aRuntimeDyingAgainRightAfterItsRestartStillRunsTheDayOnce(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        pipeline("cr-again", "{type: glue, jobName: cr-again-job, arguments: {\"--fake-duration-seconds\": \"600\"}}");
        holds.hold("cr-again-job", StartHolds.Point.AFTER_ACCEPTING);
        String execution = crashWhileStarting(dataDir, "cr-again", "cr-again-job");
        rt.close(); // at once: wherever the resumed execution stood
        startRuntime(dataDir);

        assertTheDayRanOnce("cr-again", execution);
        var jobRuns = askJobSystem(
                c -> c.glue().getJobRuns(b -> b.jobName("cr-again-job")).jobRuns());
        assertThat(jobRuns).as("Glue holds one run of the job").hasSize(1);
        assertThat(triggerFired("cr-again", "FOUND").path("message").asText()).contains("found and followed");
    }
}
