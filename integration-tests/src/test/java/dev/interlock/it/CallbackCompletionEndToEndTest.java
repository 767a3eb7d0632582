package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.runtime.FunctionSet;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.wiring.Deps;
import java.io.ByteArrayInputStream;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEvent;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;

/**
 * Glue, EMR, EMR Serverless and Step Functions jobs complete by callback on the local runtime: the machine waits in
 * {@code WaitForJobCallback} with a task token, the job fake's terminal event reaches the orchestrator's
 * {@code jobStateChange} through the local EventBridge rules, and SendTaskSuccess/SendTaskFailure end the wait. The
 * execution's history does not grow with the job's duration; an event that never arrives is found by the watchdog's
 * callback check (outside the execution), which completes the wait itself.
 */
class CallbackCompletionEndToEndTest extends EndToEnd {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    Instant clockStart() {
        return Instant.parse("2026-03-03T12:00:00Z");
    }

    /** The real functions, except that job-state events of jobs named {@code lost-*} never reach the orchestrator. */
    @Override
    FunctionSet functions() {
        return new ProductionFunctions() {
            @Override
            public RequestStreamHandler orchestrator(Deps deps) {
                RequestStreamHandler handler = super.orchestrator(deps);
                return (in, out, context) -> {
                    byte[] request = in.readAllBytes();
                    JsonNode r = JSON.readTree(request);
                    if (OrchestratorAction.JOB_STATE_CHANGE
                                    .wireName()
                                    .equals(r.path("action").asText())
                            && r.path("payload")
                                    .path("detail")
                                    .path("jobName")
                                    .asText()
                                    .startsWith("lost-")) {
                        throw new IllegalStateException("event lost on its way (test fault)");
                    }
                    handler.handleRequest(new ByteArrayInputStream(request), out, context);
                };
            }
        };
    }

    private void gluePipeline(String name, String jobName, String arguments, String retry) {
        gluePipeline(name, jobName, arguments, retry, 3600);
    }

    private void gluePipeline(String name, String jobName, String arguments, String retry, int maxJobDurationSeconds) {
        putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: %s, arguments: {%s}}
                pollIntervalSeconds: 60
                maxJobDurationSeconds: %d
                retry: %s
                """.formatted(name, jobName, arguments, maxJobDurationSeconds, retry));
    }

    private List<HistoryEvent> history(String executionArn) {
        List<HistoryEvent> events = new ArrayList<>();
        aws.stepFunctions()
                .getExecutionHistoryPaginator(b -> b.executionArn(executionArn))
                .events()
                .forEach(events::add);
        return events;
    }

    private ExecutionListItem onlyExecution(String pipeline) {
        List<ExecutionListItem> done = awaitExecutionsDone(pipeline, 1);
        assertThat(done).as(pipeline + " executions").hasSize(1);
        return done.getFirst();
    }

    @Test
    void aGlueJobIsCompletedByItsCallbackAndTheHistoryDoesNotGrowWithTheJob() {
        // 5 and 60 product minutes: polling would add a Wait, a Task and a Choice per poll window, a heartbeat a
        // fallback poll per 15 min; neither may show in the history.
        gluePipeline("cb-short", "cb-short-job", "\"--fake-duration-seconds\": \"300\"", "{maxAttempts: 1}", 7200);
        gluePipeline("cb-long", "cb-long-job", "\"--fake-duration-seconds\": \"3600\"", "{maxAttempts: 1}", 7200);
        evaluate("cb-short", DAY);
        evaluate("cb-long", DAY);
        await(
                "both COMPLETED",
                () -> List.of(runLogStatus("cb-short", DAY, "daily"), runLogStatus("cb-long", DAY, "daily")),
                l -> l.stream().allMatch("COMPLETED"::equals));

        ExecutionListItem shortRun = onlyExecution("cb-short");
        ExecutionListItem longRun = onlyExecution("cb-long");
        for (ExecutionListItem e : List.of(shortRun, longRun)) {
            List<String> visited = visited(e.executionArn());
            assertThat(visited)
                    .as(e.name())
                    .containsSubsequence(
                            "TriggerPipeline",
                            "IsTriggerSuccessful",
                            "WaitForJobCallback",
                            "PollRunStatus",
                            "EvaluatePollResult",
                            "CheckCompletionSLA",
                            "LogCompleted");
            assertThat(visited)
                    .as(e.name() + ": ended by the callback, never polled while it ran")
                    .doesNotContain("WaitForRun");
            assertThat(visited.stream().filter("PollRunStatus"::equals))
                    .as(e.name() + ": one poll, the run-checker confirming the Glue success (Interlock.JobToVerify)")
                    .hasSize(1);
            assertThat(visited.stream().filter("TriggerPipeline"::equals))
                    .as("started once")
                    .hasSize(1);
        }
        int shortEvents = history(shortRun.executionArn()).size();
        int longEvents = history(longRun.executionArn()).size();
        System.out.printf("history events: 5 min Glue job %d, 60 min Glue job %d%n", shortEvents, longEvents);
        assertThat(longEvents)
                .as("history events of the 60 min job vs the 5 min job")
                .isEqualTo(shortEvents);
        assertThat(runs("cb-long")).hasSize(1);
        assertThat(eventKinds("cb-long")).doesNotContain("RUN_OVERDUE");
        LocalEventBus.Delivery delivery = rt.eventBus().deliveries().stream()
                .filter(d -> d.input()
                        .path("payload")
                        .path("detail")
                        .path("jobName")
                        .asText()
                        .equals("cb-long-job"))
                .findFirst()
                .orElseThrow();
        assertThat(delivery.delivered()).isTrue();
    }

    @Test
    void aLostEventIsFoundByTheWatchdogAndTheExecutionNeverPolls() {
        // The wait's own timeout (2 h + a poll) is far beyond the watchdog's 15 min check, so only the watchdog can
        // complete this run in time.
        gluePipeline("cb-lost", "lost-job", "\"--fake-duration-seconds\": \"120\"", "{maxAttempts: 1}", 7200);
        evaluate("cb-lost", DAY);
        await(
                "lost-job's event dropped",
                () -> rt.eventBus().deliveries().stream()
                        .anyMatch(d -> d.input()
                                .path("payload")
                                .path("detail")
                                .path("jobName")
                                .asText()
                                .equals("lost-job")),
                dropped -> dropped);
        assertThat(runLogStatus("cb-lost", DAY, "daily"))
                .as("nobody told the machine")
                .isNotEqualTo("COMPLETED");

        // The EventBridge schedule, ticking: the callback check falls due 15 product minutes after the wait began.
        await(
                "cb-lost COMPLETED by the watchdog",
                () -> {
                    invokeWatchdog();
                    return runLogStatus("cb-lost", DAY, "daily");
                },
                "COMPLETED"::equals);

        ExecutionListItem e = onlyExecution("cb-lost");
        assertThat(e.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        List<String> visited = visited(e.executionArn());
        assertThat(visited)
                .containsSubsequence(
                        "WaitForJobCallback",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "CheckCompletionSLA",
                        "LogCompleted",
                        "ReleaseLockAndSucceed",
                        "Done");
        assertThat(visited).as("never polled while it ran").doesNotContain("WaitForRun");
        assertThat(visited.stream().filter("PollRunStatus"::equals))
                .as("one poll: the run-checker confirming the success the watchdog found")
                .hasSize(1);
        assertThat(history(e.executionArn()).stream().filter(h -> h.type() == HistoryEventType.TASK_TIMED_OUT))
                .isEmpty();
        assertThat(rt.eventBus().deliveries().stream()
                        .filter(d -> d.input()
                                .path("payload")
                                .path("detail")
                                .path("jobName")
                                .asText()
                                .equals("lost-job")))
                .allSatisfy(d -> assertThat(d.delivered()).isFalse())
                .isNotEmpty();
        assertThat(eventsOf("cb-lost", "JOB_EVENT_RECOVERED"))
                .singleElement()
                .satisfies(ev ->
                        assertThat(ev.path("details").path("reason").asText()).isEqualTo("NO_JOB_STATE_EVENT"));
        assertThat(runs("cb-lost")).hasSize(1);
    }

    @Test
    void aFailedJobFailsTheWaitWithSendTaskFailureAndIsRetriedPerPolicy() {
        gluePipeline(
                "cb-fail",
                "cb-fail-job",
                "\"--fake-duration-seconds\": \"90\", \"--fake-outcome\": FAILED",
                "{maxAttempts: 2, backoffSeconds: 60}");
        evaluate("cb-fail", DAY);
        await(
                "cb-fail FAILED after 2 attempts",
                () -> runLog("cb-fail", DAY, "daily"),
                log -> log != null
                        && "FAILED".equals(log.path("status").asText())
                        && runs("cb-fail").size() == 2);

        JsonNode log = runLog("cb-fail", DAY, "daily");
        assertThat(log.path("failureCategory").asText()).isEqualTo("TRANSIENT");
        ExecutionListItem e = onlyExecution("cb-fail");
        List<String> visited = visited(e.executionArn());
        assertThat(visited)
                .containsSubsequence(
                        "WaitForJobCallback",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "LogRunFailed",
                        "PlanRetry",
                        "ShouldRetry",
                        "CheckRunLog",
                        "WaitForJobCallback",
                        "LogRunFailed",
                        "ReleaseLockAndFail",
                        "PipelineFailed");
        assertThat(history(e.executionArn()).stream()
                        .filter(h -> h.type() == HistoryEventType.TASK_FAILED)
                        .map(h -> h.taskFailedEventDetails().error()))
                .containsExactly("Interlock.JobFailed", "Interlock.JobFailed");
        assertThat(runs("cb-fail"))
                .allSatisfy(r -> assertThat(r.path("status").asText()).isEqualTo("FAILED"));
    }

    /**
     * The holder waiting on the callback is aborted and its lock released while the Glue job runs: the next execution
     * takes over the run and completes with that job's own state change, never starting the job again.
     */
    @Test
    void aGlueJobWhoseHolderWasAbortedIsFollowedToItsEndByTheNextExecution() {
        gluePipeline("cb-orphan", "cb-orphan-job", "\"--fake-duration-seconds\": \"600\"", "{maxAttempts: 1}");
        String holder = evaluate("cb-orphan", DAY);
        await(
                "the holder waits for the callback",
                () -> {
                    try {
                        return visited(arnOf(holder));
                    } catch (ExecutionDoesNotExistException notStartedYet) {
                        return List.<String>of();
                    }
                },
                v -> v.contains("WaitForJobCallback"));
        JsonNode started = runs("cb-orphan").getFirst();
        assertThat(started.path("status").asText()).isEqualTo("RUNNING");

        aws.stepFunctions().stopExecution(b -> b.executionArn(arnOf(holder)).cause("aborted by the on-call engineer"));
        await(
                "the aborted holder's lock released by Interlock",
                () -> call("GET", "/pipelines/cb-orphan/locks/daily/" + DAY, null, null)
                        .status(),
                status -> status == 404);
        String next = evaluate("cb-orphan", DAY);

        assertThat(awaitDone(next)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(visited(arnOf(next))).containsSubsequence("TriggerPipeline", "WaitForJobCallback", "LogCompleted");
        assertThat(runs("cb-orphan")).singleElement().satisfies(r -> {
            assertThat(r.path("runId").asText()).isEqualTo(started.path("runId").asText());
            assertThat(r.path("status").asText()).isEqualTo("COMPLETED");
        });
        assertThat(eventsOf("cb-orphan", "TRIGGER_FIRED"))
                .as("the Glue job is started once")
                .hasSize(1);
        assertThat(eventsOf("cb-orphan", "RUN_ADOPTED")).hasSize(1);
        assertThat(runLogStatus("cb-orphan", DAY, "daily")).isEqualTo("COMPLETED");
    }
}
