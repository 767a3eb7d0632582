package dev.interlock.store.dynamodb;

import static dev.interlock.store.contract.StoreSamples.T0;
import static dev.interlock.store.contract.StoreSamples.event;
import static dev.interlock.store.contract.StoreSamples.pipeline;
import static dev.interlock.store.contract.StoreSamples.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.keys.LockKey;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.Backoff;
import dev.interlock.store.Retention;
import dev.interlock.store.RunTransition;
import dev.interlock.store.StoreException;
import dev.interlock.store.TransitionOutcome;
import dev.interlock.store.contract.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The DynamoDB Provider under throttling, transaction conflicts and partial batch reads, on DynamoDB Local. */
class DynamoDbProviderFaultTest {

    private static final AtomicInteger TABLES = new AtomicInteger();
    private static final RequestCounter COUNTER = new RequestCounter();
    private static final FaultInjection FAULTS = new FaultInjection();
    private static LocalDynamoDb local;
    private static DynamoDbClient client;

    private final List<Duration> pauses = new ArrayList<>();
    private String tableName;
    private ManualClock clock;

    @BeforeAll
    static void start() {
        local = LocalDynamoDb.shared();
        client = local.client(COUNTER, FAULTS);
    }

    @AfterAll
    static void stop() {
        if (local != null) {
            client.close();
        }
    }

    @BeforeEach
    void freshTable() {
        tableName = "faults-" + TABLES.incrementAndGet();
        InterlockTable.createIfAbsent(client, tableName, TableDefinition.INTERLOCK);
        clock = new ManualClock(T0);
        COUNTER.reset();
    }

    /** A provider whose backoff records waits (jitter fixed at 0.5) instead of sleeping. */
    private DynamoDbProvider provider(int maxAttempts) {
        return new DynamoDbProvider(
                client,
                tableName,
                clock,
                Retention.DEFAULT,
                new Backoff(maxAttempts, Duration.ofMillis(20), Duration.ofMillis(100), () -> 0.5, pauses::add));
    }

    @Test
    void throttledRequestsAreRetriedWithExponentialBackoff() {
        DynamoDbProvider provider = provider(10);
        FAULTS.throttle("PutItem", 4);
        SensorValue value = new SensorValue("orders", Map.of("count", 1), T0);
        provider.sensors().write(value);

        assertThat(provider.sensors().get("orders")).contains(value.atRevision(1));
        // Full jitter at 0.5 of min(cap 100, 20 * 2^(n-1)) + 1 ms: 10, 20, 40, 50.
        assertThat(pauses)
                .containsExactly(
                        Duration.ofMillis(10), Duration.ofMillis(20), Duration.ofMillis(40), Duration.ofMillis(50));
        // Injected faults fail before the request is sent: DynamoDB saw (and the counter counted) one PutItem.
        assertThat(COUNTER.requests(CapacityIntent.SENSOR_PUT, "PutItem")).isEqualTo(1);
    }

    @Test
    void throttlingPastTheAttemptBudgetIsAStoreFaultNamingTheOperationAndKey() {
        DynamoDbProvider provider = provider(3);
        FAULTS.throttle("GetItem", 5);
        assertThatThrownBy(
                        () -> provider.locks().holder(new LockKey("gold", "daily", java.time.LocalDate.of(2026, 3, 1))))
                .isInstanceOf(StoreException.class)
                .hasMessageContaining("locks.holder")
                .hasMessageContaining("LOCK#eval:gold:daily:2026-03-01/LOCK")
                .hasMessageContaining("after 3 attempts");
        assertThat(pauses).hasSize(2);
        FAULTS.throttle("GetItem", 0);
    }

    @Test
    void unprocessedKeysOfABatchReadAreRequestedAgain() {
        DynamoDbProvider provider = provider(10);
        List<String> ids = IntStream.range(0, 30).mapToObj(i -> "p" + i).toList();
        ids.forEach(id -> provider.pipelines().put(pipeline(id)));
        COUNTER.reset();
        FAULTS.answerBatchGetsByHalf(2);

        assertThat(provider.pipelines().getAll(ids)).hasSize(30).containsKeys("p0", "p29");
        // 30 keys → 15 back + 15 unprocessed → 7 back + 8 unprocessed → all 8.
        assertThat(COUNTER.requests(CapacityIntent.PIPELINE_GET_ALL, "BatchGetItem"))
                .isEqualTo(3);
        assertThat(pauses).hasSize(2);
    }

    @Test
    void transactionConflictsAreRetriedUntilTheTransitionApplies() {
        DynamoDbProvider provider = provider(10);
        var created = run("r1", "gold", T0);
        provider.runs().create(created);
        FAULTS.conflictTransactions(2);

        TransitionOutcome outcome = provider.recordTransition(
                RunTransition.of(1, created.moveTo(RunStatus.TRIGGERING, T0), event("gold", T0, "triggering")));

        assertThat(outcome.applied()).isTrue();
        assertThat(provider.runs().get("r1").orElseThrow().status()).isEqualTo(RunStatus.TRIGGERING);
        assertThat(COUNTER.requests(CapacityIntent.TRANSITION, "TransactWriteItems"))
                .isEqualTo(1);
        assertThat(pauses).hasSize(2);
    }
}
