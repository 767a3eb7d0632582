package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Restarts lose no wait: the local runtime stopped while an execution waits on a callback job (Glue, Step Functions),
 * then restarted on the same data directory. The execution waits on under the same task token, the job fake still ends
 * its run at its due time and publishes its job-state event, and that event completes the day — no
 * {@code States.Runtime} failure, no EXECUTION_ERROR alert, the job started once.
 */
class RestartsLoseNoWaitEndToEndTest extends EndToEnd {

    /** The day every scenario runs: the runtime's today (its clock starts on a safe morning, never in the past). */
    private LocalDate day;

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        return 120.0;
    }

    /** The job server is outside the runtime: it keeps running across a restart, with the calls it was given. */
    @Override
    FakeJobServer jobServer(LocalRuntime runtime, FakeJobServer previous) throws Exception {
        return previous != null ? previous : super.jobServer(runtime, null);
    }

    private void callbackPipeline(String name, String trigger) {
        putReadyPipelineWithoutRetry(name, trigger);
    }

    /** Starts the day, waits until its execution waits for the job's callback, and restarts the runtime. */
    private String restartWhileWaitingForTheCallback(Path dataDir, String pipeline) throws Exception {
        String execution = evaluate(pipeline, day);
        await(
                pipeline + "'s job running",
                () -> runs(pipeline),
                l -> l.size() == 1 && l.getFirst().path("status").asText().equals("RUNNING"));
        await(
                pipeline + " waiting for its job's callback",
                () -> visited(arnOf(execution)),
                v -> v.contains("WaitForJobCallback"));
        rt.close(); // Ctrl-C: the execution stops where it stood, the job fake's run is cut off mid-way
        startRuntime(dataDir);
        return execution;
    }

    private void assertCompletedByTheCallbackAfterTheRestart(String pipeline, String execution) {
        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> visited = visited(arnOf(execution));
        assertThat(visited)
                .containsSubsequence(
                        "TriggerPipeline",
                        "WaitForJobCallback",
                        "EvaluatePollResult",
                        "CheckCompletionSLA",
                        "LogCompleted");
        assertThat(visited)
                .as("completed by the callback, never polled while it ran")
                .doesNotContain("WaitForRun", "AlertError");
        assertThat(visited.stream().filter("PollRunStatus"::equals))
                .as("at most one poll: the run-checker confirming a Glue success (Interlock.JobToVerify)")
                .hasSizeLessThanOrEqualTo(1);
        assertThat(visited.stream().filter("TriggerPipeline"::equals))
                .as("the job started once")
                .hasSize(1);
        assertThat(runLogStatus(pipeline, day, "daily")).isEqualTo("COMPLETED");
        assertThat(alertKinds(pipeline)).doesNotContain("EXECUTION_ERROR");
    }

    @Test
    void aGlueJobWaitedForByCallbackCompletesTheDayAfterARestart(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        callbackPipeline(
                "rs-glue", "{type: glue, jobName: rs-glue-job, arguments: {\"--fake-duration-seconds\": \"900\"}}");
        String execution = restartWhileWaitingForTheCallback(dataDir, "rs-glue");
        assertCompletedByTheCallbackAfterTheRestart("rs-glue", execution);
    }

    @Test
    void aStepFunctionsJobWaitedForByCallbackCompletesTheDayAfterARestart(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        callbackPipeline(
                "rs-sfn",
                "{type: step-function, stateMachineArn: \"arn:aws:states:us-east-1:123456789012:stateMachine:rs\", "
                        + "arguments: {\"--fake-duration-seconds\": \"900\"}}");
        String execution = restartWhileWaitingForTheCallback(dataDir, "rs-sfn");
        assertCompletedByTheCallbackAfterTheRestart("rs-sfn", execution);
    }

    @Test
    void aCallbackCheckTheJobSystemRefusesIsAnEventAndOneAlert(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        callbackPipeline(
                "rs-unknown",
                "{type: glue, jobName: rs-unknown-job, arguments: {\"--fake-duration-seconds\": \"3600\"}}");
        String execution = evaluate("rs-unknown", day);
        await(
                "the job running",
                () -> runs("rs-unknown"),
                l -> l.size() == 1 && l.getFirst().path("status").asText().equals("RUNNING"));
        await("waiting for the job's callback", () -> visited(arnOf(execution)), v -> v.contains("WaitForJobCallback"));
        rt.close();
        // The job system lost the run while the runtime was down: asked about it, Glue answers EntityNotFoundException.
        java.nio.file.Files.delete(dataDir.resolve("job-fakes").resolve("glue.jsonl"));
        startRuntime(dataDir);

        await(
                "the watchdog's callback check refused twice",
                () -> {
                    rt.watchdogTick();
                    return eventsOf("rs-unknown", "JOB_CHECK_FAILED");
                },
                l -> l.size() >= 2);
        assertThat(eventsOf("rs-unknown", "JOB_CHECK_FAILED")
                        .getFirst()
                        .path("message")
                        .asText())
                .contains("EntityNotFoundException");
        assertThat(alertKinds("rs-unknown").stream().filter("JOB_CHECK_FAILED"::equals))
                .as("one alert for the day")
                .hasSize(1);
    }

    @Test
    void aRestartWhileASyncJobsStartIsInFlightRunsTheDayOnceAndCascades(@TempDir Path dataDir) throws Exception {
        startRuntime(dataDir);
        day = today();
        putPipeline("""
                name: rs-up
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/rs-up-job"}
                """.formatted(jobs.endpoint()));
        putPipeline("""
                name: rs-down
                archetype: batch-ingestion
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: rs-up}}
                  source-freshness: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/rs-down-job"}
                """.formatted(jobs.endpoint()));
        // A slow synchronous job: its call is in flight (the job runs) when the runtime goes down, after the trigger
        // claimed the run and before it could record the job.
        jobs.hold("rs-up-job");
        String execution = evaluate("rs-up", day);
        await("the job started, its call in flight", () -> jobs.triggersOf("rs-up-job"), n -> n == 1);
        rt.close();
        jobs.release("rs-up-job");
        startRuntime(dataDir);

        // The same execution retries its lost trigger attempt, finds the run it claimed, and its Idempotency-Key gets
        // the
        // first call's answer: the day completes with the one job, and cascades.
        assertThat(awaitDone(execution)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("rs-up", day, "daily")).isEqualTo("COMPLETED");
        await("the downstream day completed", () -> runLogStatus("rs-down", day, "daily"), "COMPLETED"::equals);
        assertThat(jobs.triggersOf("rs-up-job"))
                .as("the upstream job started once")
                .isEqualTo(1);
        assertThat(jobs.replays())
                .as("the retried trigger sent the same Idempotency-Key and started nothing")
                .singleElement()
                .satisfies(r -> assertThat(r.job()).isEqualTo("rs-up-job"));
        assertThat(jobs.triggersOf("rs-down-job"))
                .as("the downstream job started once")
                .isEqualTo(1);
        assertThat(alertKinds("rs-up")).doesNotContain("EXECUTION_ERROR", "TRIGGER_FAILED", "STUCK_RUN");
    }
}
