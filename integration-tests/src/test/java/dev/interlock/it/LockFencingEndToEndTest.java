package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.runtime.TableDefinition;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Locks are fenced, as the on-call engineer meets it: an unlock of a holder that still runs is refused unless forced,
 * a forced one stops the holder first, and a holder whose lock was taken from it can neither start the day's job nor
 * write its run log — either way the job runs once.
 */
class LockFencingEndToEndTest extends EndToEnd {

    private String lockPath(String pipeline, LocalDate date) {
        return "/pipelines/" + pipeline + "/locks/daily/" + date;
    }

    private Cli unlock(String pipeline, LocalDate date, String... more) {
        String[] base = {
            "unlock",
            pipeline,
            "--date",
            date.toString(),
            "--endpoint",
            rt.apiEndpoint().toString(),
            "--no-sigv4"
        };
        String[] args = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, args, base.length, more.length);
        return cli(args);
    }

    /** The data lands: its own evaluations run the day; all of them must have ended. */
    private void dataLands(String pipeline) {
        JsonNode arrival = expect(200, "PUT", "/sensors/" + pipeline + "-src", "application/json", "{\"count\":5}");
        for (JsonNode started : arrival.path("evaluations")) {
            assertThat(awaitDone(started.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
        }
    }

    @Test
    void anUnlockOfAHolderThatStillWaitsIsRefusedNamingItAndAForcedOneStopsItSoTheJobRunsOnce() {
        LocalDate date = today();
        putPipeline(waitingForSensor("fence-live"));
        String holder = evaluate("fence-live", date);
        awaitNotReady("fence-live");

        JsonNode refused = expect(409, "DELETE", lockPath("fence-live", date), null, null);
        assertThat(refused.path("detail").asText()).contains(holder, "still RUNNING", "force=true");
        Cli refusedByCli = unlock("fence-live", date);
        assertThat(refusedByCli.code()).isNotZero();
        assertThat(refusedByCli.err()).contains(holder, "still RUNNING");
        assertThat(expect(200, "GET", lockPath("fence-live", date), null, null)
                        .path("owner")
                        .asText())
                .isEqualTo(holder);
        assertThat(status(arnOf(holder))).isEqualTo(ExecutionStatus.RUNNING);
        assertThat(eventsOf("fence-live", "LOCK_RELEASED")).isEmpty();

        Cli forced = unlock("fence-live", date, "--force", "--reason", "source moved; restarting the day");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(forced.out()).contains("stopped    " + holder + " (it was still RUNNING)");
        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.ABORTED);
        JsonNode audit = eventsOf("fence-live", "LOCK_RELEASED").getFirst();
        assertThat(audit.path("details").path("stoppedExecution").asText()).isEqualTo(holder);
        assertThat(audit.path("details").path("reason").asText()).isEqualTo("source moved; restarting the day");
        assertThat(call("GET", lockPath("fence-live", date), null, null).status())
                .isEqualTo(404);

        dataLands("fence-live");
        await("the day completed", () -> runLogStatus("fence-live", date, "daily"), "COMPLETED"::equals);
        assertThat(jobs.triggersOf("fence-live")).isEqualTo(1);
    }

    @Test
    void aHolderWhoseLockWasTakenCannotTriggerOrWriteTheRunLogAndSaysSo() {
        LocalDate date = today();
        putPipeline(waitingForSensor("fence-taken"));
        String holder = evaluate("fence-taken", date);
        awaitNotReady("fence-taken");

        // The holder's lock expires and another execution takes it (written through the SDK, as the store would).
        LockKey key = new LockKey("fence-taken", "daily", date);
        String intruder = "fence-taken_" + date + "_daily_intruder";
        takeLock(key, intruder);
        JsonNode arrival = expect(200, "PUT", "/sensors/fence-taken-src", "application/json", "{\"count\":5}");

        assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(jobs.triggersOf("fence-taken"))
                .as("the fenced-out holder started no job")
                .isZero();
        assertThat(runLogs("fence-taken")).as("nor wrote the day's run log").isEmpty();
        JsonNode lost = eventsOf("fence-taken", "LOCK_LOST").getFirst();
        assertThat(lost.path("details").path("executionName").asText()).isEqualTo(holder);
        assertThat(lost.path("message").asText()).contains(holder, "no longer holds", "nothing written");
        assertThat(visited(arnOf(holder))).contains("TriggerPipeline", "AlertError", "ExecutionFailed");
        assertThat(expect(200, "GET", lockPath("fence-taken", date), null, null)
                        .path("owner")
                        .asText())
                .as("the lock was not the holder's to release")
                .isEqualTo(intruder);

        // The intruder goes away: the data's own evaluation runs the day, once.
        try (DynamoDbClient db = dynamoDb()) {
            db.deleteItem(b -> b.tableName(LocalRuntime.TABLE_NAME).key(keyOf(key)));
        }
        for (JsonNode started : arrival.path("evaluations")) {
            awaitDone(started.path("executionName").asText());
        }
        await("the day completed", () -> runLogStatus("fence-taken", date, "daily"), "COMPLETED"::equals);
        assertThat(jobs.triggersOf("fence-taken")).isEqualTo(1);
    }

    /** Overwrites the lock item with another owner, live for hours, as a takeover after expiry leaves it. */
    private void takeLock(LockKey key, String owner) {
        Instant now = rt.clock().instant();
        Map<String, AttributeValue> item = new java.util.HashMap<>(keyOf(key));
        item.put("owner", AttributeValue.fromS(owner));
        item.put("acquiredAt", AttributeValue.fromS(InterlockJson.timestamp(now)));
        item.put(
                TableDefinition.TTL,
                AttributeValue.fromN(Long.toString(now.plus(Duration.ofHours(5)).getEpochSecond())));
        try (DynamoDbClient db = dynamoDb()) {
            db.putItem(b -> b.tableName(LocalRuntime.TABLE_NAME).item(item));
        }
    }

    private static Map<String, AttributeValue> keyOf(LockKey key) {
        var itemKey = TableKeys.lock(key);
        return Map.of(
                TableDefinition.PK, AttributeValue.fromS(itemKey.pk()),
                TableDefinition.SK, AttributeValue.fromS(itemKey.sk()));
    }
}
