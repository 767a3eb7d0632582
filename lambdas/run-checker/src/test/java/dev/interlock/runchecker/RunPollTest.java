package dev.interlock.runchecker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.contract.RunCheckInput;
import dev.interlock.model.contract.RunCheckOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.store.Backoff;
import dev.interlock.store.PageRequest;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The run-checker on the in-memory store, with the outbound run checkers talking to local stubs. */
class RunPollTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final Map<String, Object> GLUE = Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_42");

    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final LocalHttpServer server = LocalHttpServer.start();
    private final AwsProtocolStub aws = AwsProtocolStub.start();
    private final Environment environment = Environment.of(Map.of(
            "AWS_REGION",
            "us-east-1",
            "INTERLOCK_ENDPOINT_GLUE",
            aws.endpoint().toString(),
            "INTERLOCK_ENDPOINT_SECRETSMANAGER",
            aws.endpoint().toString(),
            "INTERLOCK_AIRFLOW_TOKEN",
            "af-secret",
            "INTERLOCK_SECRETS_PREFIX",
            "interlock/",
            "INTERLOCK_SECRET_HOSTS",
            "INTERLOCK_AIRFLOW_*=127.0.0.1;secret:interlock/*=127.0.0.1"));
    private final AwsClients clients = new AwsClients(environment);
    private final TriggerRunners runners = TriggerRunners.create(
            clients,
            OutboundTemplates.create(environment, clients),
            new GuardedHttp(
                    new UrlGuard(true, HostResolver.system()),
                    clock,
                    new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance)),
            clock);
    private final RunPoll poll = new RunPoll(provider, runners, runners, clock);

    @AfterEach
    void stop() {
        clients.close();
        aws.close();
        server.close();
    }

    private void running(String runId, TriggerType type) {
        provider.runs()
                .create(new RunState(
                        runId,
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.RUNNING,
                        3,
                        type,
                        "exec",
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));
    }

    private RunCheckOutput check(String runId, String type, Map<String, Object> metadata, Map<String, String> headers) {
        return poll.check(new RunCheckInput("orders", "daily", "2026-03-01", runId, type, metadata, headers, null));
    }

    /**
     * A poll that follows: polls of 60 s, a poll window of 5 polls (5 min), a maximum job duration of 30 min, following
     * since {@code since}, in an execution that started at {@code since} and times out after 4 h.
     */
    private RunCheckOutput follow(String runId, Instant since) {
        return poll.check(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                runId,
                "glue",
                GLUE,
                Map.of(),
                new RunCheckInput.Follow(since.toString(), 60, 5, 1800, since.toString(), 14400)));
    }

    private void stopAccepted() {
        aws.on(
                "AWSGlue.BatchStopJobRun",
                Reply.json(
                        "{\"SuccessfulSubmissions\":[{\"JobName\":\"orders-etl\",\"JobRunId\":\"jr_42\"}],\"Errors\":[]}"));
    }

    private List<Event> events() {
        return provider.events().read("orders", new PageRequest(100, null)).items();
    }

    private void glueState(String state) {
        aws.on("AWSGlue.GetJobRun", Reply.json("{\"JobRun\":{\"Id\":\"jr_42\",\"JobRunState\":\"" + state + "\"}}"));
    }

    @Test
    void aRunningJobLeavesTheRunAlone() {
        running("run-1", TriggerType.GLUE);
        glueState("RUNNING");

        RunCheckOutput out = check("run-1", "glue", GLUE, Map.of());

        assertThat(out).isEqualTo(new RunCheckOutput("running", "RUNNING", ""));
        assertThat(aws.requests("AWSGlue.GetJobRun").getFirst().json().toString())
                .isEqualTo("{\"JobName\":\"orders-etl\",\"RunId\":\"jr_42\"}");
        assertThat(provider.runs().get("run-1").orElseThrow().version()).isEqualTo(3);
        assertThat(events()).isEmpty();
    }

    @Test
    void aSucceededJobCompletesTheRunOnceEvenWhenPolledAgain() {
        running("run-2", TriggerType.GLUE);
        glueState("SUCCEEDED");
        clock.advance(Duration.ofMinutes(5));

        RunCheckOutput first = check("run-2", "glue", GLUE, Map.of());
        RunCheckOutput again = check("run-2", "glue", GLUE, Map.of());

        assertThat(first).isEqualTo(new RunCheckOutput("succeeded", "SUCCEEDED", ""));
        assertThat(again).isEqualTo(new RunCheckOutput("succeeded", "run run-2 already completed", ""));
        assertThat(aws.requests("AWSGlue.GetJobRun"))
                .as("a completed run is answered from its state")
                .hasSize(1);
        RunState run = provider.runs().get("run-2").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.version()).isEqualTo(4);
        assertThat(run.updatedAt()).isEqualTo(NOW.plus(Duration.ofMinutes(5)));
        assertThat(events())
                .containsExactly(new Event(
                        EventKind.RUN_STATE_CHANGED,
                        "orders",
                        "daily",
                        DATE,
                        "run-2",
                        null,
                        "COMPLETED",
                        "SUCCEEDED",
                        Map.of("from", "RUNNING", "to", "COMPLETED", "version", 4),
                        NOW.plus(Duration.ofMinutes(5))));
    }

    @Test
    void aFailedJobFailsTheRunWithItsCategory() {
        running("run-3", TriggerType.GLUE);
        aws.on(
                "AWSGlue.GetJobRun",
                Reply.json("{\"JobRun\":{\"Id\":\"jr_42\",\"JobRunState\":\"TIMEOUT\",\"ErrorMessage\":\"ran 48h\"}}"));

        RunCheckOutput out = check("run-3", "glue", GLUE, Map.of());

        assertThat(out).isEqualTo(new RunCheckOutput("failed", "TIMEOUT: ran 48h", "TIMEOUT"));
        RunState run = provider.runs().get("run-3").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureMessage()).isEqualTo("TIMEOUT: ran 48h");
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(events()).extracting(Event::status).containsExactly("FAILED");
    }

    @Test
    void aJobSomeoneElseStoppedFailsPermanentAndTheRunRecordsTheStop() {
        running("run-3s", TriggerType.GLUE);
        glueState("STOPPED");

        RunCheckOutput out = check("run-3s", "glue", GLUE, Map.of());

        assertThat(out.failureCategory()).as("retry treats a stop as before").isEqualTo("PERMANENT");
        RunState run = provider.runs().get("run-3s").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.metadata()).containsEntry(dev.interlock.model.run.JobStop.STOPPED_AS, "STOPPED");
        assertThat(dev.interlock.model.run.JobStop.aborted(run))
                .as("OpenLineage ABORT")
                .isTrue();
    }

    @Test
    void aFailedJobIsNoStop() {
        running("run-3f", TriggerType.GLUE);
        glueState("FAILED");

        check("run-3f", "glue", GLUE, Map.of());

        RunState run = provider.runs().get("run-3f").orElseThrow();
        assertThat(run.metadata()).doesNotContainKey(dev.interlock.model.run.JobStop.STOPPED_AS);
        assertThat(dev.interlock.model.run.JobStop.aborted(run)).isFalse();
    }

    @Test
    void aRunAlreadyDecidedByAnotherWriterIsAnsweredFromItsStateAndNotTouched() {
        provider.runs()
                .create(new RunState(
                        "run-4",
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.FAILED,
                        4,
                        TriggerType.GLUE,
                        "exec",
                        Map.of(),
                        "cancelled by operator",
                        FailureCategory.PERMANENT,
                        NOW,
                        NOW));
        glueState("SUCCEEDED");

        RunCheckOutput out = check("run-4", "glue", GLUE, Map.of());

        assertThat(out).isEqualTo(new RunCheckOutput("failed", "cancelled by operator", "PERMANENT"));
        assertThat(provider.runs().get("run-4").orElseThrow().version()).isEqualTo(4);
        assertThat(aws.requests()).isEmpty();
        assertThat(events()).isEmpty();
    }

    @Test
    void aRunTheTriggerRecordedOnlyInItsStateIsPolledWithTheStoredJobIds() {
        provider.runs()
                .create(new RunState(
                        "run-10",
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.RUNNING,
                        3,
                        TriggerType.GLUE,
                        "exec",
                        Map.of("glue_job_name", "orders-etl", "glue_job_run_id", "jr_42"),
                        null,
                        null,
                        NOW,
                        NOW));
        glueState("RUNNING");

        // A retried trigger call answered "running" without metadata: the run state has the ids.
        assertThat(check("run-10", "glue", Map.of(), Map.of()).state()).isEqualTo("running");
        assertThat(aws.requests("AWSGlue.GetJobRun")
                        .getFirst()
                        .json()
                        .get("RunId")
                        .asText())
                .isEqualTo("jr_42");
    }

    @Test
    void aRunStillBeingTriggeredIsWaitedForUntilTheExecutionBudgetEndsThenNotStartedAgain() {
        provider.runs()
                .create(new RunState(
                        "run-11",
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.TRIGGERING,
                        2,
                        TriggerType.GLUE,
                        "exec",
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));

        RunCheckOutput waiting = follow("run-11", NOW);
        clock.advance(Duration.ofSeconds(14400 - 900 - 59));
        RunCheckOutput last = follow("run-11", NOW);

        assertThat(waiting.state()).isEqualTo("running");
        assertThat(waiting.message()).contains("waiting for the trigger to record the job");
        assertThat(last.state()).isEqualTo("failed");
        assertThat(last.failureCategory())
                .as("not retried: the job may have started")
                .isEqualTo("PERMANENT");
        assertThat(last.message()).contains("stayed TRIGGERING", "not started again");
        assertThat(aws.requests()).isEmpty();
    }

    @Test
    void aJobPastItsPollWindowIsReportedOverdueOnceAndStillFollowed() {
        running("run-12", TriggerType.GLUE);
        glueState("RUNNING");

        follow("run-12", NOW);
        clock.advance(Duration.ofSeconds(300));
        RunCheckOutput overdue = follow("run-12", NOW);
        clock.advance(Duration.ofSeconds(60));
        RunCheckOutput later = follow("run-12", NOW);

        assertThat(overdue).isEqualTo(new RunCheckOutput("running", "RUNNING", ""));
        assertThat(later.state()).isEqualTo("running");
        assertThat(events()).singleElement().satisfies(e -> {
            assertThat(e.kind()).isEqualTo(EventKind.RUN_OVERDUE);
            assertThat(e.status()).isEqualTo("TIMEOUT");
            assertThat(e.message()).contains("poll window (5 polls of 60 s)", "maxJobDurationSeconds (1800 s)");
        });
        RunState run = provider.runs().get("run-12").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(run.metadata()).containsEntry(RunPoll.OVERDUE_AT, "2026-03-01T10:05:00.000Z");
    }

    @Test
    void aJobPastItsMaximumIsCancelledOnceAndFailsWithTimeoutWhenItStopped() {
        running("run-13", TriggerType.GLUE);
        glueState("RUNNING");
        stopAccepted();
        clock.advance(Duration.ofSeconds(1800));

        RunCheckOutput cancelling = follow("run-13", NOW);
        clock.advance(Duration.ofSeconds(60));
        RunCheckOutput stopping = follow("run-13", NOW);
        glueState("STOPPED");
        clock.advance(Duration.ofSeconds(60));
        RunCheckOutput stopped = follow("run-13", NOW);

        assertThat(cancelling.state()).isEqualTo("running");
        assertThat(cancelling.message()).startsWith("cancel requested: glue job run jr_42 stop requested");
        assertThat(stopping.message())
                .startsWith("cancel requested at 2026-03-01T10:30:00.000Z; waiting for the job to stop");
        assertThat(aws.requests("AWSGlue.BatchStopJobRun")).as("cancelled once").hasSize(1);
        assertThat(aws.requests("AWSGlue.BatchStopJobRun").getFirst().json().toString())
                .isEqualTo("{\"JobName\":\"orders-etl\",\"JobRunIds\":[\"jr_42\"]}");
        assertThat(stopped.state()).isEqualTo("failed");
        assertThat(stopped.failureCategory())
                .as("a stop Interlock asked for is a timeout, retryable")
                .isEqualTo("TIMEOUT");
        assertThat(stopped.message()).contains("after running longer than maxJobDurationSeconds");
        assertThat(provider.runs().get("run-13").orElseThrow().failureCategory())
                .isEqualTo(FailureCategory.TIMEOUT);
        // Overdue and cancel are recorded by the same poll, at the same instant: their order among themselves is not
        // defined; the state change comes two polls later.
        List<EventKind> kinds = events().stream().map(Event::kind).toList();
        assertThat(kinds).hasSize(3).endsWith(EventKind.RUN_STATE_CHANGED);
        assertThat(kinds.subList(0, 2))
                .containsExactlyInAnyOrder(EventKind.RUN_OVERDUE, EventKind.RUN_CANCEL_REQUESTED);
    }

    @Test
    void aJobFirstReportedOverdueThenCancelledThatSucceededAnywayIsRecordedAsSucceeded() {
        running("run-14", TriggerType.GLUE);
        glueState("RUNNING");
        stopAccepted();
        clock.advance(Duration.ofSeconds(1800));
        follow("run-14", NOW);
        glueState("SUCCEEDED");

        RunCheckOutput out = follow("run-14", NOW);

        assertThat(out.state()).isEqualTo("succeeded");
        assertThat(provider.runs().get("run-14").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void aRefusedCancelIsAskedAgainAtTheNextPollAndNeverRetriedBesideTheJob() {
        running("run-15", TriggerType.GLUE);
        glueState("RUNNING");
        aws.on(
                "AWSGlue.BatchStopJobRun",
                Reply.json(
                        "{\"SuccessfulSubmissions\":[],\"Errors\":[{\"JobName\":\"orders-etl\","
                                + "\"JobRunId\":\"jr_42\",\"ErrorDetail\":{\"ErrorCode\":\"AccessDenied\",\"ErrorMessage\":\"no\"}}]}"));
        clock.advance(Duration.ofSeconds(1800));

        RunCheckOutput refused = follow("run-15", NOW);
        clock.set(NOW.plusSeconds(14400 - 900 - 30));
        RunCheckOutput last = follow("run-15", NOW);

        assertThat(refused.state()).isEqualTo("running");
        assertThat(refused.message()).contains("AccessDenied", "retrying at the next poll");
        assertThat(last.state()).isEqualTo("failed");
        assertThat(last.failureCategory()).isEqualTo("PERMANENT");
        assertThat(last.message()).contains("could not be cancelled", "not started again beside itself");
        assertThat(aws.requests("AWSGlue.BatchStopJobRun")).hasSize(2);
        assertThat(provider.runs().get("run-15").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void aJobTheBudgetCannotFollowToItsMaximumIsLeftRunningAndNotRetried() {
        running("run-16", TriggerType.GLUE);
        glueState("RUNNING");
        Instant lateStart = NOW.minusSeconds(14400 - 900 - 30);

        RunCheckOutput out = poll.check(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                "run-16",
                "glue",
                GLUE,
                Map.of(),
                new RunCheckInput.Follow(NOW.toString(), 60, 5, 1800, lateStart.toString(), 14400)));

        assertThat(out.state()).isEqualTo("failed");
        assertThat(out.failureCategory()).isEqualTo("PERMANENT");
        assertThat(out.message()).contains("time budget ends before the job's maxJobDurationSeconds");
        assertThat(aws.requests("AWSGlue.BatchStopJobRun"))
                .as("never cancelled before its maximum")
                .isEmpty();
    }

    @Test
    void aCallbackJobsFallbackPollDecidesOneHeartbeatBeforeTheBudgetEndsNotOnePollInterval() {
        running("run-17", TriggerType.GLUE);
        glueState("RUNNING");
        // 10 min left in the execution's budget: a poll 60 s later still fits, a fallback poll 900 s later does not.
        Instant start = NOW.minusSeconds(14400 - 900 - 600);

        RunCheckOutput polled = poll.check(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                "run-17",
                "glue",
                GLUE,
                Map.of(),
                new RunCheckInput.Follow(NOW.toString(), 60, 5, 1800, start.toString(), 14400, 60)));
        RunCheckOutput fallback = poll.check(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                "run-17",
                "glue",
                GLUE,
                Map.of(),
                new RunCheckInput.Follow(NOW.toString(), 60, 5, 1800, start.toString(), 14400, 900)));

        assertThat(polled.state()).isEqualTo("running");
        assertThat(fallback.state()).isEqualTo("failed");
        assertThat(fallback.failureCategory()).isEqualTo("PERMANENT");
    }

    /**
     * A Glue job (completes by callback) past its maximum, polled as the machine polls it: the fallback poll at the
     * callback wait's timeout ({@code maxJobDurationSeconds} + a poll interval, passed as {@code nextPollSeconds}) in an
     * execution of 4 h. The stop is asked for and waited for (its job-state event ends the wait), not given up on
     * PERMANENT; once the job stopped, it failed TIMEOUT, which {@code retry} retries.
     */
    @Test
    void aCallbackJobPastItsMaximumIsStoppedAndFailsTimeoutWithCallbackSizedPollIntervals() {
        running("run-21", TriggerType.GLUE);
        glueState("RUNNING");
        stopAccepted();
        int max = 7200;
        int interval = 60;
        int callbackTimeout = max + interval;
        RunCheckInput.Follow follow =
                new RunCheckInput.Follow(NOW.toString(), interval, 120, max, NOW.toString(), 14400, callbackTimeout);
        clock.advance(Duration.ofSeconds(callbackTimeout));

        RunCheckOutput fallback = poll.check(
                new RunCheckInput("orders", "daily", "2026-03-01", "run-21", "glue", GLUE, Map.of(), follow));
        glueState("STOPPED");
        clock.advance(Duration.ofSeconds(20));
        RunCheckOutput afterStop = poll.check(
                new RunCheckInput("orders", "daily", "2026-03-01", "run-21", "glue", GLUE, Map.of(), follow));

        assertThat(fallback.state()).as(fallback.message()).isEqualTo("running");
        assertThat(fallback.message()).startsWith("cancel requested");
        assertThat(aws.requests("AWSGlue.BatchStopJobRun")).hasSize(1);
        assertThat(afterStop.state()).isEqualTo("failed");
        assertThat(afterStop.failureCategory()).isEqualTo("TIMEOUT");
        assertThat(afterStop.message()).contains("after running longer than maxJobDurationSeconds");
        RunState run = provider.runs().get("run-21").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
    }

    @Test
    void aCallbackJobThatStopsAtOnceFailsTimeoutInTheSamePoll() {
        running("run-22", TriggerType.GLUE);
        // The job system answers RUNNING, then (after the stop) STOPPED.
        java.util.concurrent.atomic.AtomicInteger reads = new java.util.concurrent.atomic.AtomicInteger();
        aws.on(
                "AWSGlue.GetJobRun",
                request -> Reply.json("{\"JobRun\":{\"Id\":\"jr_42\",\"JobRunState\":\""
                        + (reads.getAndIncrement() == 0 ? "RUNNING" : "STOPPED") + "\"}}"));
        stopAccepted();
        clock.advance(Duration.ofSeconds(7260));

        RunCheckOutput out = poll.check(new RunCheckInput(
                "orders",
                "daily",
                "2026-03-01",
                "run-22",
                "glue",
                GLUE,
                Map.of(),
                new RunCheckInput.Follow(NOW.toString(), 60, 120, 7200, NOW.toString(), 14400, 7260)));

        assertThat(out.state()).isEqualTo("failed");
        assertThat(out.failureCategory()).isEqualTo("TIMEOUT");
        assertThat(provider.runs().get("run-22").orElseThrow().failureCategory())
                .isEqualTo(FailureCategory.TIMEOUT);
    }

    @Test
    void aTransientCheckFailureIsRunningWithoutCategorySoTheNextPollRetries() {
        running("run-5", TriggerType.AIRFLOW);
        server.answer("GET /api/v1/dags/orders_dag/dagRuns/manual_1", Answer.status(503, "scheduler restarting"));

        RunCheckOutput out = check(
                "run-5",
                "airflow",
                Map.of(
                        "airflow_url",
                        server.uri("").toString(),
                        "airflow_dag_id",
                        "orders_dag",
                        "airflow_dag_run_id",
                        "manual_1"),
                Map.of());

        assertThat(out.state()).isEqualTo("running");
        assertThat(out.failureCategory()).isEqualTo("");
        assertThat(out.message()).startsWith("check failed, retrying at the next poll: GET ");
        assertThat(provider.runs().get("run-5").orElseThrow().status()).isEqualTo(RunStatus.RUNNING);
    }

    @Test
    void airflowIsPolledWithTheTriggerHeadersExpandedFromInterlockVariables() {
        running("run-6", TriggerType.AIRFLOW);
        server.answer("GET /api/v1/dags/orders_dag/dagRuns/manual_1", Answer.json(200, "{\"state\":\"success\"}"));

        RunCheckOutput out = check(
                "run-6",
                "airflow",
                Map.of(
                        "airflow_url",
                        server.uri("").toString(),
                        "airflow_dag_id",
                        "orders_dag",
                        "airflow_dag_run_id",
                        "manual_1"),
                Map.of("Authorization", "Bearer ${INTERLOCK_AIRFLOW_TOKEN}"));

        assertThat(out).isEqualTo(new RunCheckOutput("succeeded", "success", ""));
        assertThat(server.requests().getFirst().headers()).containsEntry("Authorization", "Bearer af-secret");
        assertThat(provider.runs().get("run-6").orElseThrow().status()).isEqualTo(RunStatus.COMPLETED);
    }

    @Test
    void anAuthenticatedPollReadsItsSecretAtPollTimeAndTheRunsValuesFillTheHeaders() {
        running("run-8", TriggerType.AIRFLOW);
        aws.on(
                "secretsmanager.GetSecretValue",
                AwsProtocolStub.Reply.json(
                        "{\"Name\":\"interlock/airflow/prod\",\"SecretString\":\"{\\\"token\\\":\\\"sm-secret\\\"}\"}"));
        server.answer("GET /api/v1/dags/orders_dag/dagRuns/manual_2", Answer.json(200, "{\"state\":\"running\"}"));

        RunCheckOutput out = check(
                "run-8",
                "airflow",
                Map.<String, Object>of(
                        "airflow_url",
                        server.uri("").toString(),
                        "airflow_dag_id",
                        "orders_dag",
                        "airflow_dag_run_id",
                        "manual_2"),
                Map.of(
                        "Authorization",
                        "Bearer ${secret:interlock/airflow/prod#token}",
                        "X-Interlock-Run",
                        "${runId}/${date}"));

        assertThat(out).isEqualTo(new RunCheckOutput("running", "running", ""));
        assertThat(server.requests().getFirst().headers())
                .containsEntry("Authorization", "Bearer sm-secret")
                .containsEntry("X-Interlock-Run", "run-8/2026-03-01");
        assertThat(aws.requests("secretsmanager.GetSecretValue"))
                .singleElement()
                .satisfies(r -> assertThat(r.json().path("SecretId").asText()).isEqualTo("interlock/airflow/prod"));
    }

    @Test
    void aPollWhoseSecretIsMissingFailsPermanentlyNamingItAndSendsNothing() {
        running("run-9", TriggerType.AIRFLOW);
        aws.on(
                "secretsmanager.GetSecretValue",
                AwsProtocolStub.Reply.error(
                        400, "ResourceNotFoundException", "Secrets Manager can't find the specified secret."));

        RunCheckOutput out = check(
                "run-9",
                "airflow",
                Map.<String, Object>of(
                        "airflow_url",
                        server.uri("").toString(),
                        "airflow_dag_id",
                        "orders_dag",
                        "airflow_dag_run_id",
                        "manual_3"),
                Map.of("Authorization", "Bearer ${secret:interlock/airflow/gone#token}"));

        assertThat(out)
                .isEqualTo(new RunCheckOutput(
                        "failed", "Secrets Manager secret 'interlock/airflow/gone' does not exist", "PERMANENT"));
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void missingMetadataIsAPermanentFailure() {
        running("run-7", TriggerType.GLUE);

        RunCheckOutput out = check("run-7", "glue", Map.of("glue_job_name", "orders-etl"), Map.of());

        assertThat(out).isEqualTo(new RunCheckOutput("failed", "missing glue metadata: glue_job_run_id", "PERMANENT"));
        assertThat(provider.runs().get("run-7").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
        assertThat(aws.requests()).isEmpty();
    }

    @Test
    void anUnknownTriggerTypeFailsTheRunPermanently() {
        running("run-8", TriggerType.GLUE);

        RunCheckOutput out = check("run-8", "cron", Map.of(), Map.of());

        assertThat(out.state()).isEqualTo("failed");
        assertThat(out.failureCategory()).isEqualTo("PERMANENT");
        assertThat(out.message()).startsWith("unknown trigger.type 'cron'; allowed: http, airflow");
        assertThat(provider.runs().get("run-8").orElseThrow().status()).isEqualTo(RunStatus.FAILED);
    }

    @Test
    void aPollForAnUnknownRunStillAnswers() {
        glueState("SUCCEEDED");

        assertThat(check("run-404", "glue", GLUE, Map.of()))
                .isEqualTo(new RunCheckOutput("succeeded", "SUCCEEDED", ""));
        assertThat(provider.runs().get("run-404")).isEmpty();
    }

    @Test
    void theHandlerReadsGoStyleKeysAndNumericMetadataAndWritesAllThreeFields() throws IOException {
        running("run-9", TriggerType.GLUE);
        glueState("STARTING");
        RunCheckerHandler handler = new RunCheckerHandler(poll);
        String in = "{\"pipelineID\":\"orders\",\"scheduleID\":\"daily\",\"date\":\"2026-03-01\",\"runID\":\"run-9\","
                + "\"triggerType\":\"glue\",\"metadata\":{\"glue_job_name\":\"orders-etl\",\"glue_job_run_id\":42},"
                + "\"headers\":{},\"pollCount\":1,\"unknown\":true}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        handler.handleRequest(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out, null);

        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"state\":\"running\",\"message\":\"STARTING\",\"failureCategory\":\"\"}");
        assertThat(aws.requests("AWSGlue.GetJobRun")
                        .getFirst()
                        .json()
                        .get("RunId")
                        .asText())
                .isEqualTo("42");
    }
}
