package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.jobs.TriggerResult;
import dev.interlock.jobs.TriggerRunner;
import dev.interlock.model.contract.TriggerInput;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.LockLostException;
import dev.interlock.store.PageRequest;
import dev.interlock.store.Provider;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.dynamodb.DynamoDbProvider;
import dev.interlock.store.dynamodb.InterlockTable;
import dev.interlock.store.dynamodb.LocalDynamoDb;
import dev.interlock.store.dynamodb.RequestCounter;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The trigger on DynamoDB Local, its requests counted by the SDK interceptor: a start is two writes (the claim without
 * a read, the completion), and the claim's failed condition is what keeps every repeat from starting the job again.
 */
class TriggerRequestCountTest {

    private static final Instant CREATED = Instant.parse("2026-03-01T09:59:58.123Z");
    private static final ManualClock CLOCK = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final String EXECUTION = "orders_2026-03-01_daily_ab12cd34";
    private static final String HTTP = "{\"type\":\"http\",\"url\":\"https://jobs.example.com/run\"}";
    private static final RequestCounter COUNTER = new RequestCounter();
    private static DynamoDbClient client;
    private static Provider provider;
    private final AtomicInteger starts = new AtomicInteger();
    private final TriggerRunner completes = request -> {
        starts.incrementAndGet();
        return TriggerResult.completed(Map.of("http_status", "200"));
    };

    @BeforeAll
    static void table() {
        client = LocalDynamoDb.shared().client(COUNTER);
        String name = "interlock-trigger-" + System.nanoTime();
        InterlockTable.createIfAbsent(client, name, TableDefinition.INTERLOCK);
        provider = new DynamoDbProvider(client, name, CLOCK);
    }

    @AfterAll
    static void close() {
        client.close();
    }

    /** The run as resolvePipeline creates it. */
    private static void created(String pipelineId, String runId) {
        RunState run = new RunState(
                runId,
                pipelineId,
                "daily",
                DATE,
                RunStatus.PENDING,
                1,
                TriggerType.HTTP,
                EXECUTION,
                Map.of(),
                null,
                null,
                CREATED,
                CREATED);
        Event event = new Event(
                EventKind.RUN_STATE_CHANGED,
                pipelineId,
                "daily",
                DATE,
                runId,
                null,
                "PENDING",
                "run created",
                null,
                CREATED);
        assertThat(provider.createRun(run, CREATED.plusSeconds(14400), event)).isTrue();
        // The machine's AcquireLock comes before TriggerPipeline: the invoking execution holds its day's lock.
        assertThat(provider.locks().acquire(new LockKey(pipelineId, "daily", DATE), EXECUTION, Duration.ofDays(365)))
                .isTrue();
    }

    private static TriggerInput input(String pipelineId, String runId, String runCreatedAt) {
        return new TriggerInput(
                pipelineId, "daily", DATE.toString(), runId, EXECUTION, InterlockJson.tree(HTTP), runCreatedAt);
    }

    private static long requestsDuring(Runnable work) {
        long before = total();
        work.run();
        return total() - before;
    }

    private static long total() {
        return COUNTER.snapshot().values().stream()
                .mapToLong(RequestCounter.Count::requests)
                .sum();
    }

    @Test
    void aStartIsTwoWritesAndItsRepeatNeverStartsTheJobAgain() {
        String pipelineId = "orders-" + System.nanoTime();
        created(pipelineId, "run-a");
        RunTrigger trigger = new RunTrigger(provider, completes, alert -> {}, CLOCK);
        AtomicReference<TriggerOutput> first = new AtomicReference<>();
        long start =
                requestsDuring(() -> first.set(trigger.fire(input(pipelineId, "run-a", "2026-03-01T09:59:58.123Z"))));
        long repeat =
                requestsDuring(() -> assertThat(trigger.fire(input(pipelineId, "run-a", "2026-03-01T09:59:58.123Z")))
                        .usingRecursiveComparison()
                        .ignoringFields("startedAt")
                        .isEqualTo(first.get()));
        assertThat(start).isEqualTo(2);
        // The blind claim's failed condition, then the read the answer comes from.
        assertThat(repeat).isEqualTo(2);
        assertThat(starts).hasValue(1);
        assertThat(first.get().status()).isEqualTo("completed");
        RunState run = provider.runs().get("run-a").orElseThrow();
        assertThat(run.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(run.version()).isEqualTo(3);
        // The claim rebuilt the run as created: nothing of it was lost by not reading it.
        assertThat(run.createdAt()).isEqualTo(CREATED);
        assertThat(run.executionName()).isEqualTo(EXECUTION);
        assertThat(run.triggerType()).isEqualTo(TriggerType.HTTP);
        assertThat(statuses(pipelineId)).containsExactlyInAnyOrder("PENDING", "TRIGGERING", "COMPLETED", "completed");
    }

    @Test
    void aCallOfAnotherExecutionWhileTheFirstIsStartingTheJobIsFencedOutAndStartsNothing() {
        String pipelineId = "orders-" + System.nanoTime();
        created(pipelineId, "run-b");
        List<RuntimeException> refusals = new CopyOnWriteArrayList<>();
        AtomicReference<RunTrigger> self = new AtomicReference<>();
        TriggerRunner startingSlowly = request -> {
            starts.incrementAndGet();
            // Another execution of the day reached the trigger while the job is being started: it does not hold the
            // day's lock, so its claim is refused in the same conditional write and it starts nothing.
            try {
                self.get()
                        .fire(new TriggerInput(
                                pipelineId,
                                "daily",
                                DATE.toString(),
                                "run-b",
                                "another-execution",
                                InterlockJson.tree(HTTP),
                                "2026-03-01T09:59:58.123Z"));
            } catch (LockLostException e) {
                refusals.add(e);
            }
            return TriggerResult.completed(Map.of());
        };
        self.set(new RunTrigger(provider, startingSlowly, alert -> {}, CLOCK));

        TriggerOutput first = self.get().fire(input(pipelineId, "run-b", "2026-03-01T09:59:58.123Z"));

        assertThat(starts).hasValue(1);
        assertThat(refusals)
                .singleElement()
                .satisfies(e -> assertThat(e.getMessage()).contains("another-execution"));
        assertThat(first.status()).isEqualTo("completed");
    }

    @Test
    void theSameExecutionsRetryOfAClaimItsDeadAttemptLeftReclaimsTheRunAndStartsTheJobResumed() {
        String pipelineId = "orders-" + System.nanoTime();
        created(pipelineId, "run-r");
        List<Boolean> resumedFlags = new CopyOnWriteArrayList<>();
        AtomicReference<RunTrigger> self = new AtomicReference<>();
        List<TriggerOutput> retries = new CopyOnWriteArrayList<>();
        TriggerRunner dyingAfterTheStart = request -> {
            starts.incrementAndGet();
            resumedFlags.add(request.resumed());
            if (!request.resumed()) {
                // The attempt's answer is lost (the invocation died); the Task's Lambda retry comes.
                retries.add(self.get().fire(input(pipelineId, "run-r", "2026-03-01T09:59:58.123Z")));
            }
            return TriggerResult.completed(Map.of("http_status", "200"));
        };
        self.set(new RunTrigger(provider, dyingAfterTheStart, alert -> {}, CLOCK));

        self.get().fire(input(pipelineId, "run-r", "2026-03-01T09:59:58.123Z"));

        assertThat(resumedFlags)
                .as(() -> "the retry starts the job resumed: the runner's idempotency key finds the first start"
                        // It failed twice in full builds with [false, false, true] (a second fresh claim) and never
                        // alone; the run's trail says which write let it happen.
                        + "; the run's trail: "
                        + provider.events().read(pipelineId, new PageRequest(100, null)).items().stream()
                                .map(e -> e.kind() + " " + e.status() + " " + e.message() + " @" + e.timestamp())
                                .toList())
                .containsExactly(false, true);
        assertThat(retries).extracting(TriggerOutput::status).containsExactly("completed");
        assertThat(statuses(pipelineId)).contains("TRIGGERING", "COMPLETED");
    }

    @Test
    void anAdoptedRunIsAnsweredFromItsStateEvenWithACreationTime() {
        String pipelineId = "orders-" + System.nanoTime();
        created(pipelineId, "run-c");
        RunState pending = provider.runs().get("run-c").orElseThrow();
        RunState running = pending.moveTo(RunStatus.TRIGGERING, CLOCK.instant())
                .moveTo(RunStatus.RUNNING, CLOCK.instant())
                .withMetadata(Map.of("glue_job_run_id", "jr_1"));
        // Two moves in one swap: what a dead execution left behind.
        RunState stored = new RunState(
                running.runId(),
                running.pipelineId(),
                running.scheduleId(),
                running.date(),
                running.status(),
                2,
                running.triggerType(),
                "exec-earlier",
                running.metadata(),
                null,
                null,
                running.createdAt(),
                running.updatedAt());
        assertThat(provider.runs().compareAndSwap(1, stored)).isTrue();
        RunTrigger trigger = new RunTrigger(provider, completes, alert -> {}, CLOCK);

        TriggerOutput out = trigger.fire(input(pipelineId, "run-c", "2026-03-01T09:59:58.123Z"));

        assertThat(starts).hasValue(0);
        assertThat(out.status()).isEqualTo("running");
        assertThat(out.metadata()).isEqualTo(Map.of("glue_job_run_id", "jr_1"));
        assertThat(provider.runs().get("run-c").orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void withoutACreationTimeTheRunIsReadBeforeItIsClaimed() {
        String pipelineId = "orders-" + System.nanoTime();
        created(pipelineId, "run-d");
        RunTrigger trigger = new RunTrigger(provider, completes, alert -> {}, CLOCK);

        long spent = requestsDuring(
                () -> assertThat(trigger.fire(input(pipelineId, "run-d", null)).status())
                        .isEqualTo("completed"));

        assertThat(spent).isEqualTo(3);
        assertThat(starts).hasValue(1);
    }

    private static List<String> statuses(String pipelineId) {
        return provider.events().read(pipelineId, new PageRequest(100, null)).items().stream()
                .map(Event::status)
                .toList();
    }
}
