package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import dev.interlock.jobs.TriggerResult;
import dev.interlock.jobs.TriggerRunner;
import dev.interlock.jobs.TriggerRunners;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
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
import dev.interlock.store.Provider;
import dev.interlock.store.RunStore;
import dev.interlock.store.StoreException;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import dev.interlock.wiring.alert.AlertPublisher;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The trigger function on the in-memory store, with the outbound runners talking to local stubs. */
class RunTriggerTest {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");

    private final ManualClock clock = new ManualClock(NOW);
    private final InMemoryProvider provider = new InMemoryProvider(clock);
    private final List<Alert> published = new CopyOnWriteArrayList<>();
    private final AlertPublisher alerts = published::add;
    private final LocalHttpServer server = LocalHttpServer.start();
    private final AwsProtocolStub aws = AwsProtocolStub.start();
    private final Environment environment = Environment.of(Map.of(
            "AWS_REGION", "us-east-1", "INTERLOCK_ENDPOINT_GLUE", aws.endpoint().toString()));
    private final AwsClients clients = new AwsClients(environment);
    private final TriggerRunners runners = TriggerRunners.create(
            clients,
            OutboundTemplates.create(environment, clients),
            new GuardedHttp(
                    new UrlGuard(true, HostResolver.system()),
                    clock,
                    new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance)),
            clock);

    /** The machine's AcquireLock comes before TriggerPipeline: the invoking execution holds its day's lock. */
    @BeforeEach
    void holdTheLock() {
        provider.locks()
                .acquire(
                        new LockKey("orders", "daily", LocalDate.of(2026, 3, 1)),
                        "orders_2026-03-01_daily_ab12cd34",
                        Duration.ofDays(365));
    }

    @AfterEach
    void stop() {
        clients.close();
        aws.close();
        server.close();
    }

    private TriggerOutput fire(TriggerRunner runner, String runId, String triggerJson) {
        return new RunTrigger(provider, runner, alerts, clock)
                .fire(new TriggerInput(
                        "orders",
                        "daily",
                        "2026-03-01",
                        runId,
                        "orders_2026-03-01_daily_ab12cd34",
                        InterlockJson.tree(triggerJson)));
    }

    private TriggerOutput fire(String runId, String triggerJson) {
        return fire(runners, runId, triggerJson);
    }

    private List<Event> events() {
        return provider.events().read("orders", new PageRequest(100, null)).items();
    }

    private RunState run(String runId) {
        return provider.runs().get(runId).orElseThrow();
    }

    private void pending(String runId) {
        provider.runs()
                .create(new RunState(
                        runId,
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.PENDING,
                        1,
                        null,
                        null,
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));
    }

    @Test
    void anAsyncJobIsStartedAndTheRunMovesPendingTriggeringRunning() {
        aws.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_0042\"}"));
        pending("run-1");

        // Starting the job takes a second, so the claim and the outcome are recorded at different times.
        TriggerRunner slow = request -> {
            clock.advance(Duration.ofSeconds(1));
            return runners.start(request);
        };

        TriggerOutput out = fire(
                slow,
                "run-1",
                "{\"type\":\"glue\",\"jobName\":\"orders-etl\",\"arguments\":{\"--date\":\"2026-03-01\"}}");

        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput(
                        "run-1",
                        "running",
                        Map.of(
                                "glue_job_name",
                                "orders-etl",
                                "glue_job_run_id",
                                "jr_0042",
                                // the driver-log check's pattern travels with the run to the run-checker
                                "glue_error_log_pattern",
                                "?ERROR ?FATAL"),
                        "",
                        ""));
        assertThat(out.startedAt())
                .as("following the job is measured from the answer")
                .isEqualTo(dev.interlock.model.json.InterlockJson.timestamp(clock.instant()));
        assertThat(aws.requests("AWSGlue.StartJobRun").getFirst().json().toString())
                .isEqualTo("{\"JobName\":\"orders-etl\",\"Arguments\":{\"--date\":\"2026-03-01\","
                        + "\"--interlock-run-id\":\"run-1\"}}");
        RunState run = run("run-1");
        assertThat(run.status()).isEqualTo(RunStatus.RUNNING);
        assertThat(run.version()).isEqualTo(3);
        assertThat(run.triggerType()).isEqualTo(TriggerType.GLUE);
        assertThat(run.executionName()).isEqualTo("orders_2026-03-01_daily_ab12cd34");
        assertThat(run.metadata()).isEqualTo(out.metadata());
        assertThat(run.updatedAt()).isEqualTo(NOW.plusSeconds(1));
        List<Event> events = events();
        assertThat(events.getFirst())
                .isEqualTo(new Event(
                        EventKind.RUN_STATE_CHANGED,
                        "orders",
                        "daily",
                        DATE,
                        "run-1",
                        null,
                        "TRIGGERING",
                        null,
                        Map.of("from", "PENDING", "to", "TRIGGERING", "version", 2),
                        NOW));
        // The outcome's two events share one transaction and one timestamp.
        assertThat(events.subList(1, 3))
                .extracting(Event::kind, Event::status, Event::timestamp)
                .containsExactlyInAnyOrder(
                        tuple(EventKind.TRIGGER_FIRED, "running", NOW.plusSeconds(1)),
                        tuple(EventKind.RUN_STATE_CHANGED, "RUNNING", NOW.plusSeconds(1)));
        assertThat(published).isEmpty();
    }

    @Test
    void aSyncJobCompletesAtOnceAndAMissingRunStateIsCreatedFirst() {
        server.answer("POST /jobs/orders", Answer.status(202, ""));

        TriggerOutput out = fire("run-2", "{\"type\":\"http\",\"url\":\"" + server.uri("/jobs/orders") + "\"}");

        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput("run-2", "completed", Map.of("http_status", "202"), "", ""));
        RunState run = run("run-2");
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.version()).isEqualTo(3);
        assertThat(run.createdAt()).isEqualTo(NOW);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void aJobThatCannotStartIsAFailedValueWithItsCategoryTheRunFailsAndOneAlertIsSent() {
        server.answer("POST /jobs/orders", Answer.status(404, "no such job"));
        String trigger = "{\"type\":\"http\",\"url\":\"" + server.uri("/jobs/orders") + "\"}";

        TriggerOutput out = fire("run-3", trigger);

        String error = "POST " + server.uri("/jobs/orders") + " returned status 404: no such job";
        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput("run-3", "failed", Map.of(), error, "PERMANENT"));
        RunState run = run("run-3");
        assertThat(run.status()).isEqualTo(RunStatus.FAILED);
        assertThat(run.failureMessage()).isEqualTo(error);
        assertThat(run.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(events())
                .extracting(Event::kind)
                .containsExactlyInAnyOrder(
                        EventKind.RUN_STATE_CHANGED, EventKind.TRIGGER_FAILED, EventKind.RUN_STATE_CHANGED);
        assertThat(published)
                .containsExactly(new Alert(
                        AlertLevel.ERROR,
                        AlertKind.TRIGGER_FAILED,
                        "orders",
                        "daily",
                        DATE,
                        "Trigger failed for orders: " + error,
                        Map.of("triggerType", "http", "failureCategory", "PERMANENT", "runId", "run-3"),
                        NOW));

        // The next attempt of the same day fails too: the alert is not repeated.
        server.answer("POST /jobs/orders", Answer.status(500, "down"));
        TriggerOutput again = fire("run-4", trigger);
        assertThat(again.failureCategory()).isEqualTo("TRANSIENT");
        assertThat(published).hasSize(1);
    }

    @Test
    void aRetriedInvocationOfARunningRunAnswersItsMetadataWithoutStartingTheJobAgain() {
        AtomicInteger starts = new AtomicInteger();
        TriggerRunner counting = request -> {
            starts.incrementAndGet();
            return TriggerResult.running(Map.of("glue_job_run_id", "jr_" + starts.get()));
        };
        String trigger = "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}";

        TriggerOutput first = fire(counting, "run-5", trigger);
        int eventsAfterFirst = events().size();
        TriggerOutput second = fire(counting, "run-5", trigger);

        assertThat(starts).hasValue(1);
        assertThat(second).isEqualTo(first);
        assertThat(second.metadata()).isEqualTo(Map.of("glue_job_run_id", "jr_1"));
        assertThat(events()).hasSize(eventsAfterFirst);
    }

    @Test
    void aRetriedInvocationOfACompletedOrFailedRunAnswersItsRecordedOutcome() {
        AtomicInteger starts = new AtomicInteger();
        TriggerRunner completes = request -> {
            starts.incrementAndGet();
            return TriggerResult.completed(Map.of("http_status", "200"));
        };
        TriggerRunner fails = request -> {
            starts.incrementAndGet();
            return TriggerResult.failed("glue StartJobRun failed: AccessDeniedException", FailureCategory.PERMANENT);
        };
        String trigger = "{\"type\":\"http\",\"url\":\"http://127.0.0.1:1/x\"}";

        TriggerOutput completed = fire(completes, "run-6", trigger);
        TriggerOutput failed = fire(fails, "run-7", trigger);

        assertThat(fire(completes, "run-6", trigger)).isEqualTo(completed);
        assertThat(fire(fails, "run-7", trigger))
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput(
                        "run-7", "failed", Map.of(), "glue StartJobRun failed: AccessDeniedException", "PERMANENT"));
        assertThat(failed).isEqualTo(fire(fails, "run-7", trigger));
        assertThat(starts).hasValue(2);
        assertThat(published).hasSize(1);
    }

    @Test
    void aRunLeftInTriggeringIsNeitherStartedAgainNorFailedSoTheMachineFollowsThatRun() {
        provider.runs()
                .create(new RunState(
                        "run-8",
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.TRIGGERING,
                        2,
                        TriggerType.GLUE,
                        "exec-earlier",
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));
        AtomicInteger starts = new AtomicInteger();
        TriggerRunner counting = request -> {
            starts.incrementAndGet();
            return TriggerResult.running(Map.of());
        };

        TriggerOutput out = fire(counting, "run-8", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        assertThat(starts).hasValue(0);
        // A failed answer would send the machine into a retry that starts a second job beside the first.
        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput("run-8", "running", Map.of(), "", ""));
        assertThat(run("run-8").version()).isEqualTo(2);
        assertThat(events()).isEmpty();
        assertThat(published).isEmpty();
    }

    /** A run this test's execution claimed and whose attempt died before recording the job (a crash mid-start). */
    private void leftTriggeringByThisExecution(String runId) {
        provider.runs()
                .create(new RunState(
                        runId,
                        "orders",
                        "daily",
                        DATE,
                        RunStatus.TRIGGERING,
                        2,
                        TriggerType.GLUE,
                        "orders_2026-03-01_daily_ab12cd34",
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));
    }

    @Test
    void theRetryOfAnAttemptThatDiedMidStartFollowsTheJobItFoundAndItsEventSaysSo() {
        leftTriggeringByThisExecution("run-10");
        aws.on(
                "AWSGlue.GetJobRuns",
                Reply.json("{\"JobRuns\":[{\"Id\":\"jr_dead\",\"Arguments\":{\"--interlock-run-id\":\"run-10\"}}]}"));

        TriggerOutput out = fire("run-10", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        assertThat(out.status()).isEqualTo("running");
        assertThat(out.metadata()).containsEntry("glue_job_run_id", "jr_dead");
        assertThat(aws.requests("AWSGlue.StartJobRun")).as("nothing started").isEmpty();
        assertThat(run("run-10").status()).isEqualTo(RunStatus.RUNNING);
        Event fired = events().stream()
                .filter(e -> e.kind() == EventKind.TRIGGER_FIRED)
                .findFirst()
                .orElseThrow();
        assertThat(fired.message())
                .isEqualTo("job found and followed, none started: an earlier attempt started it and died before "
                        + "recording it (glue GetJobRuns of orders-etl by --interlock-run-id run-10)");
        assertThat(fired.details())
                .containsEntry("glue_job_run_id", "jr_dead")
                .containsEntry("resumed", true)
                .containsEntry("earlierStart", "FOUND")
                .containsEntry("lookup", "glue GetJobRuns of orders-etl by --interlock-run-id run-10");
        assertThat(events())
                .filteredOn(e -> e.kind() == EventKind.RUN_STATE_CHANGED && "TRIGGERING".equals(e.status()))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).startsWith("re-claimed by the retry of execution"));
    }

    @Test
    void theRetryOfAnAttemptThatDiedBeforeItsStartStartsTheJobOnceAndItsEventSaysNoneWasFound() {
        leftTriggeringByThisExecution("run-11");
        aws.on("AWSGlue.GetJobRuns", Reply.json("{\"JobRuns\":[]}"));
        aws.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_new\"}"));

        TriggerOutput out = fire("run-11", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        assertThat(out.metadata()).containsEntry("glue_job_run_id", "jr_new");
        assertThat(aws.requests("AWSGlue.StartJobRun")).hasSize(1);
        Event fired = events().stream()
                .filter(e -> e.kind() == EventKind.TRIGGER_FIRED)
                .findFirst()
                .orElseThrow();
        assertThat(fired.message()).startsWith("job started: an earlier attempt died before recording a job, and none");
        assertThat(fired.details()).containsEntry("earlierStart", "NONE").containsEntry("resumed", true);
    }

    @Test
    void aResumedStartOfAJobTypeThatCannotLookItsStartUpSaysItStartedItAgain() {
        leftTriggeringByThisExecution("run-12");
        TriggerRunner lambdaLike = request -> TriggerResult.completed(Map.of("lambda_function_name", "export"));

        fire(lambdaLike, "run-12", "{\"type\":\"lambda\",\"functionName\":\"export\"}");

        Event fired = events().stream()
                .filter(e -> e.kind() == EventKind.TRIGGER_FIRED)
                .findFirst()
                .orElseThrow();
        assertThat(fired.message())
                .isEqualTo("job started again: an earlier attempt died before recording its job, and a lambda job "
                        + "has no token or lookup to find whether it had started it");
        assertThat(fired.details()).containsEntry("resumed", true).doesNotContainKey("earlierStart");
    }

    @Test
    void aFirstStartsEventIsJustJobStarted() {
        pending("run-13");
        aws.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_first\"}"));

        fire("run-13", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        Event fired = events().stream()
                .filter(e -> e.kind() == EventKind.TRIGGER_FIRED)
                .findFirst()
                .orElseThrow();
        assertThat(fired.message()).isEqualTo("job started");
        assertThat(fired.details())
                .isEqualTo(Map.of(
                        "glue_job_name",
                        "orders-etl",
                        "glue_job_run_id",
                        "jr_first",
                        "glue_error_log_pattern",
                        "?ERROR ?FATAL"));
    }

    @Test
    void anInvalidTriggerConfigFailsTheRunPermanentlyWithoutCallingAnything() {
        AtomicInteger starts = new AtomicInteger();
        TriggerRunner counting = request -> {
            starts.incrementAndGet();
            return TriggerResult.running(Map.of());
        };
        pending("run-9");

        TriggerOutput out = fire(counting, "run-9", "{\"type\":\"cron\"}");

        assertThat(starts).hasValue(0);
        assertThat(out.status()).isEqualTo("failed");
        assertThat(out.failureCategory()).isEqualTo("PERMANENT");
        assertThat(out.error()).startsWith("invalid trigger: unknown trigger.type 'cron'; allowed: http, airflow");
        assertThat(run("run-9").status()).isEqualTo(RunStatus.FAILED);
        assertThat(published).extracting(Alert::kind).containsExactly(AlertKind.TRIGGER_FAILED);
    }

    @Test
    void inputWithoutRunIdOrWithABadDateIsRejectedWithoutWriting() {
        RunTrigger trigger = new RunTrigger(provider, runners, alerts, clock);

        TriggerOutput noRun = trigger.fire(new TriggerInput("orders", "daily", "2026-03-01", " ", "e", null));
        TriggerOutput badDate = trigger.fire(new TriggerInput("orders", "daily", "01/03/2026", "run-10", "e", null));

        assertThat(noRun)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput("", "failed", Map.of(), "trigger input is missing runId", "PERMANENT"));
        assertThat(badDate)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput(
                        "run-10",
                        "failed",
                        Map.of(),
                        "trigger input date '01/03/2026' is not YYYY-MM-DD",
                        "PERMANENT"));
        assertThat(provider.runs().get("run-10")).isEmpty();
        assertThat(events()).isEmpty();
    }

    @Test
    void aRunIdOfAnotherPipelineIsNotTouched() {
        provider.runs()
                .create(new RunState(
                        "run-11",
                        "billing",
                        "daily",
                        DATE,
                        RunStatus.PENDING,
                        1,
                        null,
                        null,
                        Map.of(),
                        null,
                        null,
                        NOW,
                        NOW));

        TriggerOutput out = fire("run-11", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput(
                        "run-11",
                        "failed",
                        Map.of(),
                        "run run-11 belongs to pipeline billing, not orders",
                        "PERMANENT"));
        assertThat(provider.runs().get("run-11").orElseThrow().status()).isEqualTo(RunStatus.PENDING);
        assertThat(aws.requests()).isEmpty();
    }

    @Test
    void anUndeliverableAlertIsGivenBackToTheLedgerAndTheAnswerIsStillFailed() {
        AlertPublisher broken = alert -> {
            throw new AlertPublisher.AlertDeliveryException("SNS down", null);
        };
        TriggerRunner fails = request -> TriggerResult.failed("boom", FailureCategory.TRANSIENT);
        RunTrigger failing = new RunTrigger(provider, fails, broken, clock);

        TriggerOutput out = failing.fire(new TriggerInput(
                "orders",
                "daily",
                "2026-03-01",
                "run-12",
                "orders_2026-03-01_daily_ab12cd34",
                InterlockJson.tree("{\"type\":\"glue\",\"jobName\":\"x\"}")));
        TriggerOutput later = fire(fails, "run-13", "{\"type\":\"glue\",\"jobName\":\"x\"}");

        assertThat(out.status()).isEqualTo("failed");
        assertThat(later.status()).isEqualTo("failed");
        // The claim was released, so the next failure of the day still alerts.
        assertThat(published).extracting(Alert::kind).containsExactly(AlertKind.TRIGGER_FAILED);
    }

    @Test
    void aRunMovedByAnotherWriterWhileTheJobStartsIsNotOverwritten() {
        TriggerRunner racing = request -> {
            RunState triggering = provider.runs().get(request.runId()).orElseThrow();
            provider.runs().compareAndSwap(triggering.version(), triggering.moveTo(RunStatus.CANCELLED, NOW));
            return TriggerResult.running(Map.of("glue_job_run_id", "jr_9"));
        };

        TriggerOutput out = fire(racing, "run-15", "{\"type\":\"glue\",\"jobName\":\"orders-etl\"}");

        // The job did start, so the machine is told to follow it; the other writer's state stands.
        assertThat(out)
                .usingRecursiveComparison()
                .ignoringFields("startedAt")
                .isEqualTo(new TriggerOutput("run-15", "running", Map.of("glue_job_run_id", "jr_9"), "", ""));
        assertThat(run("run-15").status()).isEqualTo(RunStatus.CANCELLED);
        assertThat(events()).extracting(Event::kind).containsExactly(EventKind.RUN_STATE_CHANGED);
    }

    @Test
    void aStoreThatCannotBeReadIsAFaultThrownBeforeAnyJobStarts() {
        RunStore broken = (RunStore) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {RunStore.class}, (proxy, method, args) -> {
                    throw new StoreException("GetItem RUN#run-16 failed: unreachable");
                });
        Provider failing = (Provider) Proxy.newProxyInstance(
                getClass().getClassLoader(),
                new Class<?>[] {Provider.class},
                (proxy, method, args) -> method.getName().equals("runs") ? broken : method.invoke(provider, args));
        AtomicInteger starts = new AtomicInteger();
        TriggerRunner counting = request -> {
            starts.incrementAndGet();
            return TriggerResult.running(Map.of());
        };

        assertThatThrownBy(() -> new RunTrigger(failing, counting, alerts, clock)
                        .fire(new TriggerInput(
                                "orders",
                                "daily",
                                "2026-03-01",
                                "run-16",
                                "orders_2026-03-01_daily_ab12cd34",
                                InterlockJson.tree("{\"type\":\"glue\",\"jobName\":\"x\"}"))))
                .isInstanceOf(StoreException.class)
                .hasMessage("GetItem RUN#run-16 failed: unreachable");
        assertThat(starts).hasValue(0);
    }

    @Test
    void theHandlerReadsGoStyleKeysAndWritesAllSixFields() throws IOException {
        server.answer("POST /hook", Answer.status(200, "ok"));
        TriggerHandler handler = new TriggerHandler(new RunTrigger(provider, runners, alerts, clock));
        String in = "{\"pipelineID\":\"orders\",\"scheduleID\":\"daily\",\"date\":\"2026-03-01\",\"runID\":\"run-14\","
                + "\"executionName\":\"orders_2026-03-01_daily_ab12cd34\",\"trigger\":{\"type\":\"http\",\"url\":\""
                + server.uri("/hook")
                + "\"},\"extra\":1}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        handler.handleRequest(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)), out, null);

        assertThat(out.toString(StandardCharsets.UTF_8))
                .isEqualTo("{\"runId\":\"run-14\",\"status\":\"completed\","
                        + "\"metadata\":{\"http_status\":\"200\"},\"error\":\"\",\"failureCategory\":\"\","
                        + "\"startedAt\":\"" + dev.interlock.model.json.InterlockJson.timestamp(clock.instant())
                        + "\"}");
    }
}
