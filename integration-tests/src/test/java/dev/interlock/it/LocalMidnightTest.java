package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.runtime.LocalRuntime;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Dates follow the pipeline's time zone: around local midnight in Tokyo and Los Angeles, an evaluation request, a
 * rerun request and a marker that name no date all mean the current date in the schedule's zone (else the SLA's),
 * not the UTC date. Each case starts its own runtime with the clock at the local time under test, in real time.
 */
class LocalMidnightTest extends EndToEnd {

    private Instant clockStart;

    @Override
    boolean sharedRuntime() {
        return false;
    }

    @Override
    double timeScale() {
        return 1.0;
    }

    @Override
    Instant clockStart() {
        return clockStart;
    }

    @ParameterizedTest(name = "{0} at {1} local: {2}")
    @CsvSource({
        // zone, local wall time, the local date expected, where the zone is configured
        "Asia/Tokyo,          2026-03-01T23:30, 2026-03-01, schedule",
        "Asia/Tokyo,          2026-03-02T00:30, 2026-03-02, schedule",
        "America/Los_Angeles, 2026-03-01T23:30, 2026-03-01, sla",
        "America/Los_Angeles, 2026-03-02T00:30, 2026-03-02, sla"
    })
    void aRequestOrMarkerWithoutADateMeansTodayInThePipelinesZone(
            String zone, String localTime, String expected, String configuredOn) throws Exception {
        clockStart = LocalDateTime.parse(localTime).atZone(ZoneId.of(zone)).toInstant();
        LocalDate utcDate = LocalDate.ofInstant(clockStart, ZoneOffset.UTC);
        LocalDate localDate = LocalDate.parse(expected);
        try (LocalRuntime runtime = startRuntime(null)) {
            String name = "midnight-"
                    + zone.substring(zone.indexOf('/') + 1).toLowerCase().replace('_', '-');
            String zoneConfig = configuredOn.equals("schedule")
                    ? "schedules: [{name: daily, timezone: " + zone + "}]"
                    : "sla: {timezone: " + zone + "}";
            putPipeline("""
                    name: %s
                    archetype: batch-ingestion
                    traits:
                      source-freshness: {evaluator: "builtin:always-pass"}
                      upstream-dependency: {evaluator: "builtin:always-pass"}
                      resource-availability: {evaluator: "builtin:always-pass"}
                    trigger: {type: http, url: "%s/jobs/%s"}
                    %s
                    """.formatted(name, jobs.endpoint(), name, zoneConfig));

            // An evaluation request without a date.
            JsonNode evaluation = expect(202, "POST", "/pipelines/" + name + "/evaluations", "application/json", "{}");
            assertThat(evaluation.path("marker").path("date").asText()).isEqualTo(expected);
            assertThat(awaitDone(evaluation.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(runLogStatus(name, localDate, "daily")).isEqualTo("COMPLETED");
            assertThat(runLogStatus(name, localDate.equals(utcDate) ? localDate.minusDays(1) : utcDate, "daily"))
                    .isEqualTo("none");

            // A rerun request without a date.
            JsonNode rerun = expect(
                    202, "POST", "/pipelines/" + name + "/reruns", "application/json", "{\"reason\":\"late file\"}");
            assertThat(rerun.path("rerun").path("date").asText()).isEqualTo(expected);
            assertThat(awaitDone(rerun.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);

            // A marker written by an external producer without a date (as the Go original's producers did).
            try (DynamoDbClient dynamo = DynamoDbClient.builder()
                    .endpointOverride(runtime.dynamoDbEndpoint())
                    .region(Region.US_EAST_1)
                    .httpClient(UrlConnectionHttpClient.create())
                    .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                    .build()) {
                dynamo.putItem(b -> b.tableName(LocalRuntime.TABLE_NAME)
                        .item(Map.of(
                                "PK", AttributeValue.fromS("PIPELINE#" + name),
                                "SK", AttributeValue.fromS("MARKER#external#no-date-1"),
                                "pipelineId", AttributeValue.fromS(name),
                                "source", AttributeValue.fromS("external"))));
            }
            List<ExecutionListItem> all =
                    await("the external marker's execution", () -> executions(name), l -> l.size() == 3);
            ExecutionListItem external = all.stream()
                    .filter(e -> !e.name()
                                    .equals(evaluation.path("executionName").asText())
                            && !e.name().equals(rerun.path("executionName").asText()))
                    .findFirst()
                    .orElseThrow();
            assertThat(input(external.executionArn()).path("date").asText()).isEqualTo(expected);
            assertThat(external.name()).startsWith(name + "_" + expected + "_daily_");
        }
    }
}
