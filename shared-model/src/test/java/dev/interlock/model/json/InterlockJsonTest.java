package dev.interlock.model.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterlockJsonTest {

    private static final Instant T = Instant.parse("2026-02-23T10:15:30.123Z");

    @Test
    void writesTimestampsAsUtcIsoWithMillisecondsEvenWhenTheFractionIsZero() {
        var state = runState(Instant.parse("2026-02-23T10:15:30Z"));
        JsonNode tree = InterlockJson.tree(state);
        assertThat(tree.get("createdAt").asText()).isEqualTo("2026-02-23T10:15:30.000Z");
        assertThat(InterlockJson.write(new Alert(
                        AlertLevel.ERROR,
                        AlertKind.RUN_FAILED,
                        "p",
                        null,
                        null,
                        "m",
                        null,
                        Instant.parse("2026-02-23T10:15:30.123456789Z"))))
                .isEqualTo("{\"level\":\"error\",\"kind\":\"RUN_FAILED\",\"pipelineId\":\"p\",\"message\":\"m\","
                        + "\"timestamp\":\"2026-02-23T10:15:30.123Z\"}");
    }

    @Test
    void runStateRoundTripsAndOmitsNulls() {
        var state = runState(T);
        String json = InterlockJson.write(state);
        assertThat(json)
                .doesNotContain("failureMessage")
                .doesNotContain("null")
                .contains("\"date\":\"2026-02-23\"")
                .contains("\"status\":\"RUNNING\"")
                .contains("\"triggerType\":\"glue\"");
        assertThat(InterlockJson.read(json, RunState.class)).isEqualTo(state);
    }

    @Test
    void readsKeysCaseInsensitivelyLikeTheGoOriginalsPayloads() {
        RunLog log = InterlockJson.read("""
                {"pipelineID":"gold","scheduleID":"h07","DATE":"2026-02-23","status":"failed","attemptNumber":2,
                 "runID":"r1","failureCategory":"","retryHistory":[{"attempt":1,"status":"FAILED","runId":"r0",
                 "failureCategory":"SOMETHING_NEW","startedAt":"2026-02-23T10:15:30.123456789Z"}],
                 "updatedAt":"2026-02-23T10:15:30Z","unknownKey":{"x":1}}""", RunLog.class);
        assertThat(log.pipelineId()).isEqualTo("gold");
        assertThat(log.scheduleId()).isEqualTo("h07");
        assertThat(log.date()).isEqualTo(LocalDate.of(2026, 2, 23));
        assertThat(log.status()).isEqualTo(RunLogStatus.FAILED);
        assertThat(log.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(log.retryHistory())
                .containsExactly(new RetryAttempt(
                        1,
                        RunLogStatus.FAILED,
                        "r0",
                        null,
                        FailureCategory.TRANSIENT,
                        Instant.parse("2026-02-23T10:15:30.123456789Z"),
                        null));
        assertThat(log.updatedAt()).isEqualTo(Instant.parse("2026-02-23T10:15:30Z"));
    }

    @Test
    void runLogRoundTrips() {
        var log = new RunLog(
                "p",
                LocalDate.of(2026, 2, 23),
                "daily",
                RunLogStatus.COMPLETED,
                1,
                "r1",
                "p_2026-02-23_daily_0a1b2c3d",
                null,
                null,
                List.of(new RetryAttempt(1, RunLogStatus.FAILED, "r0", "boom", FailureCategory.TIMEOUT, T, T)),
                false,
                T,
                T,
                T);
        assertThat(InterlockJson.read(InterlockJson.write(log), RunLog.class)).isEqualTo(log);
    }

    @Test
    void pipelineConfigRoundTripsThroughJsonAndYaml() {
        PipelineConfig config = Documents.read("""
                name: silver.orders
                archetype: batch-ingestion
                traits:
                  source-freshness:
                    evaluator: builtin:sensor-freshness
                    config: {sensor: orders, maxAgeSeconds: 900}
                    ttl: 300
                trigger:
                  type: HTTP
                  url: https://jobs.example.com/run
                  headers: {Authorization: "Bearer ${INTERLOCK_TOKEN}"}
                retry:
                  maxAttempts: 5
                sla: {completionDeadline: "07:30", timezone: Europe/Berlin}
                schedules:
                  - {name: daily, after: "06:00", deadline: "+45m"}
                exclusions: {days: [Saturday], dates: ["2026-12-25"]}
                watch:
                  monitoring: {enabled: true, duration: 2h}
                dryRun: true
                """, PipelineConfig.class);
        assertThat(config.trigger())
                .isEqualTo(new HttpTrigger(
                        "POST",
                        "https://jobs.example.com/run",
                        Map.of("Authorization", "Bearer ${INTERLOCK_TOKEN}"),
                        null,
                        30));
        assertThat(config.retry())
                .isEqualTo(new RetryPolicy(5, 30, 2.0, List.of(FailureCategory.TRANSIENT, FailureCategory.TIMEOUT)));
        assertThat(config.monitoring()).isEqualTo(new MonitoringConfig(true, "2h", null, null));
        assertThat(config.dryRun()).isTrue();
        assertThat(config.evaluationIntervalSeconds()).isEqualTo(60);
        assertThat(config.pollIntervalSeconds()).isEqualTo(30);
        assertThat(config.pollLimit()).isEqualTo(120);
        assertThat(config.traits().get("source-freshness").config()).containsEntry("maxAgeSeconds", 900);

        String json = InterlockJson.write(config);
        assertThat(json)
                .contains("\"type\":\"http\"")
                .contains("\"monitoring\":{\"enabled\":true,\"duration\":\"2h\"}")
                .doesNotContain("watch");
        assertThat(InterlockJson.read(json, PipelineConfig.class)).isEqualTo(config);
        assertThat(Documents.read(Documents.yaml(config), PipelineConfig.class)).isEqualTo(config);
    }

    @Test
    void topLevelMonitoringWinsOverTheWatchAlias() {
        PipelineConfig config = InterlockJson.read("""
                {"name":"ab","monitoring":{"enabled":false},"watch":{"monitoring":{"enabled":true,"duration":"1h"}}}""", PipelineConfig.class);
        assertThat(config.monitoring().enabled()).isFalse();
    }

    @Test
    void unknownTriggerTypeNamesTheFieldAndTheAllowedValues() {
        assertThatThrownBy(() ->
                        InterlockJson.read("{\"name\":\"ab\",\"trigger\":{\"type\":\"ftp\"}}", PipelineConfig.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("trigger.type")
                .hasMessageContaining("'ftp'")
                .hasMessageContaining("http, airflow, glue, emr, emr-serverless, step-function, databricks, lambda");
    }

    @Test
    void readErrorsNameThePathOfTheBadValue() {
        assertThatThrownBy(() ->
                        InterlockJson.read("{\"name\":\"ab\",\"retry\":{\"maxAttempts\":\"x\"}}", PipelineConfig.class))
                .hasMessageStartingWith("invalid PipelineConfig JSON at $.retry.maxAttempts: ");
        assertThatThrownBy(() -> Documents.read("schedules:\n  - name: [a]\n", PipelineConfig.class))
                .hasMessageStartingWith("invalid PipelineConfig document at $.schedules[0].name: ");
    }

    @Test
    void unknownEnumValuesAreRejectedWithTheAllowedList() {
        assertThatThrownBy(() -> TraitStatus.fromJson("MAYBE"))
                .hasMessage("unknown trait status 'MAYBE'; allowed: PASS, FAIL, STALE, ERROR");
        assertThatThrownBy(() -> InterlockJson.read("\"sometimes\"", RunStatus.class))
                .hasMessageContaining("unknown run status 'sometimes'");
        assertThat(MarkerSource.fromJson("LATE_ARRIVAL")).isEqualTo(MarkerSource.LATE_ARRIVAL);
        assertThat(TriggerType.fromJson("Emr_Serverless")).isEqualTo(TriggerType.EMR_SERVERLESS);
        assertThat(InterlockJson.write(MarkerSource.LATE_ARRIVAL)).isEqualTo("\"late-arrival\"");
    }

    @Test
    void failureCategoryReadsEmptyAndUnknownAsTransient() {
        assertThat(FailureCategory.fromJson("")).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(FailureCategory.fromJson(null)).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(FailureCategory.fromJson("quota")).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(FailureCategory.fromJson("permanent")).isEqualTo(FailureCategory.PERMANENT);
    }

    @Test
    void readYamlOrJsonPicksTheParserFromTheFirstCharacter() {
        assertThat(InterlockJson.looksLikeJson("  \n{\"a\":1}")).isTrue();
        assertThat(InterlockJson.looksLikeJson("[1]")).isTrue();
        assertThat(InterlockJson.looksLikeJson("name: x")).isFalse();
        assertThat(InterlockJson.tree("a: 1").get("a").asInt()).isEqualTo(1);
    }

    private static RunState runState(Instant at) {
        return new RunState(
                "r1",
                "silver",
                "daily",
                LocalDate.of(2026, 2, 23),
                RunStatus.RUNNING,
                3,
                TriggerType.GLUE,
                "silver_2026-02-23_daily_0a1b2c3d",
                Map.of("glue_job_run_id", "jr_1"),
                null,
                null,
                at,
                at);
    }
}
