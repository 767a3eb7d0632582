package dev.interlock.model.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.json.InterlockJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TriggerConfigJsonTest {

    @Test
    void everySpecTriggerTypeReadsIntoItsOwnRecordAndRoundTrips() {
        List<TriggerConfig> all = List.of(
                new HttpTrigger("PUT", "https://x/run", Map.of("h", "v"), "{}", 10),
                new AirflowTrigger("https://airflow", "dag_1", Map.of(), null, Map.of("k", 1), 30),
                new GlueTrigger("job", Map.of("--date", "${date}")),
                new EmrTrigger("j-1", "step", "s3://b/app.jar", Map.of("date", "${date}")),
                new EmrServerlessTrigger(
                        "app-1",
                        "run",
                        "arn:aws:iam::1:role/r",
                        "s3://b/main.py",
                        List.of("--x"),
                        "--conf a=b",
                        Map.of()),
                new StepFunctionTrigger("arn:aws:states:eu-west-1:1:stateMachine:m", Map.of("date", "${date}")),
                new DatabricksTrigger(
                        "https://dbc.cloud.databricks.com", "nightly", 42L, Map.of("d", "${date}"), Map.of(), 30),
                new LambdaTrigger("fn", InterlockJson.tree("{\"a\":[1,2]}")));
        for (TriggerConfig trigger : all) {
            String json = InterlockJson.write(trigger);
            assertThat(json).startsWith("{\"type\":\"" + trigger.type().wireName() + "\"");
            assertThat(InterlockJson.read(json, TriggerConfig.class)).isEqualTo(trigger);
        }
        assertThat(all).extracting(TriggerConfig::type).containsExactly(TriggerType.values());
    }

    @Test
    void goSpellingsAndAliasesStillRead() {
        var airflow = (AirflowTrigger) InterlockJson.read(
                "{\"type\":\"airflow\",\"url\":\"u\",\"dagID\":\"d\",\"timeout\":12}", TriggerConfig.class);
        assertThat(airflow.dagId()).isEqualTo("d");
        assertThat(airflow.timeoutSeconds()).isEqualTo(12);
        var emr = (EmrTrigger) InterlockJson.read(
                "{\"type\":\"emr\",\"clusterID\":\"j\",\"jobName\":\"s\",\"command\":\"a.jar\"}", TriggerConfig.class);
        assertThat(emr).isEqualTo(new EmrTrigger("j", "s", "a.jar", Map.of()));
        var sfn = (StepFunctionTrigger) InterlockJson.read(
                "{\"type\":\"Step-Function\",\"stateMachineARN\":\"arn\",\"input\":{\"a\":\"b\"}}",
                TriggerConfig.class);
        assertThat(sfn).isEqualTo(new StepFunctionTrigger("arn", Map.of("a", "b")));
        var dbx = (DatabricksTrigger) InterlockJson.read(
                "{\"type\":\"databricks\",\"workspaceURL\":\"w\",\"jobName\":\"j\",\"arguments\":{\"a\":\"b\"}}",
                TriggerConfig.class);
        assertThat(dbx.notebookParams()).containsExactly(Map.entry("a", "b"));
    }

    @Test
    void httpDefaultsMethodAndTimeout() {
        var http = (HttpTrigger) InterlockJson.read("{\"type\":\"http\",\"url\":\"u\"}", TriggerConfig.class);
        assertThat(http.method()).isEqualTo("POST");
        assertThat(http.timeoutSeconds()).isEqualTo(30);
        assertThat(http.headers()).isEmpty();
    }

    @Test
    void missingOrMistypedTypeIsAnErrorAtTriggerType() {
        assertThatThrownBy(() -> InterlockJson.read("{\"url\":\"u\"}", TriggerConfig.class))
                .hasMessageContaining("trigger.type is required; allowed: http, airflow");
        assertThatThrownBy(() -> InterlockJson.read("{\"type\":3}", TriggerConfig.class))
                .hasMessageContaining("trigger.type must be a string");
        assertThatThrownBy(() -> InterlockJson.read("\"http\"", TriggerConfig.class))
                .hasMessageContaining("trigger must be an object");
    }

    @Test
    void synchronousTypesAreHttpAndLambda() {
        assertThat(TriggerType.values())
                .filteredOn(TriggerType::synchronous)
                .containsExactly(TriggerType.HTTP, TriggerType.LAMBDA);
    }
}
