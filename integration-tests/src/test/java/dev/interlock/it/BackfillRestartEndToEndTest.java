package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import dev.interlock.local.runtime.LocalRuntime;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A backfill across a restart: the local runtime stops (Ctrl-C) while a backfill's day runs and starts
 * again on the same {@code --data-dir}; the backfill goes on where it stood and completes, each day's job started
 * once. A day's marker written again (a producer's retry, a stream record delivered twice) starts no second execution.
 */
class BackfillRestartEndToEndTest extends EndToEnd {

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        return 120.0;
    }

    /** The job server is outside the runtime: it keeps running across a restart. */
    @Override
    FakeJobServer jobServer(LocalRuntime runtime, FakeJobServer previous) throws Exception {
        return previous != null ? previous : super.jobServer(runtime, null);
    }

    private JsonNode backfill(String id) {
        return expect(200, "GET", "/backfills/" + id, null, null);
    }

    private long dagRuns(String dag) {
        return jobs.received().stream().filter(r -> r.job().contains(dag)).count();
    }

    @Test
    void aBackfillGoesOnAfterARestartOnItsDataDirectoryAndARedeliveredMarkerStartsNothing(@TempDir Path dataDir)
            throws Exception {
        startRuntime(dataDir);
        String id = "bfr-orders";
        jobs.durationOf("bfr_dag", Duration.ofMinutes(10));
        putReadyPipelineWithoutRetry(id, "{type: airflow, url: \"" + jobs.endpoint() + "\", dagId: bfr_dag}");
        LocalDate from = today().minusDays(4);
        JsonNode started = expect(
                202,
                "POST",
                "/pipelines/" + id + "/backfills",
                "application/json",
                "{\"from\":\"" + from + "\",\"to\":\"" + today().minusDays(1) + "\",\"reason\":\"after the outage\"}");
        String backfillId = started.path("backfillId").asText();
        JsonNode first = started.path("days").get(0);
        assertThat(first.path("status").asText()).isEqualTo("RUNNING");

        // The first day's marker written again while it runs: the same key, the same execution name, nothing new.
        await("the first day's job running", () -> dagRuns("bfr_dag"), n -> n == 1);
        Map<String, AttributeValue> marker;
        try (DynamoDbClient db = dynamoDb()) {
            Map<String, AttributeValue> key = Map.of(
                    "PK", AttributeValue.fromS("PIPELINE#" + id),
                    "SK",
                            AttributeValue.fromS(
                                    "MARKER#backfill#" + first.path("rerunId").asText()));
            marker = db.getItem(
                            b -> b.tableName(LocalRuntime.TABLE_NAME).key(key).consistentRead(true))
                    .item();
            assertThat(marker).as("the day's marker").isNotEmpty();
            db.deleteItem(b -> b.tableName(LocalRuntime.TABLE_NAME).key(key));
            db.putItem(b -> b.tableName(LocalRuntime.TABLE_NAME).item(marker));
        }

        rt.close(); // Ctrl-C while the first day's job runs
        startRuntime(dataDir);

        JsonNode done = await(
                "backfill " + backfillId + " completed after the restart",
                () -> backfill(backfillId),
                b -> b.path("status").asText().equals("COMPLETED"));
        assertThat(done.at("/counts/completed").asInt()).isEqualTo(4);
        for (LocalDate d = from; d.isBefore(today()); d = d.plusDays(1)) {
            assertThat(runLogStatus(id, d, "daily")).as("run log of %s", d).isEqualTo("COMPLETED");
        }
        assertThat(dagRuns("bfr_dag")).as("each day's job started once").isEqualTo(4);
        assertThat(executions(id)).as("one execution per day").hasSize(4);
        assertThat(eventsOf(id, "BACKFILL_FINISHED")).hasSize(1);
    }
}
