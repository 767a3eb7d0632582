package dev.interlock.model.trigger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.secret.CredentialReference;
import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArgumentTemplateTest {

    private static final TemplateValues VALUES = new TemplateValues("gold", "h15", LocalDate.of(2026, 2, 23), "run-1");

    @Test
    void expandsEveryKnownPlaceholder() {
        assertThat(ArgumentTemplate.expand("s3://b/dt=${date}/hh=${hour}/${pipelineId}/${scheduleId}/${runId}", VALUES))
                .isEqualTo("s3://b/dt=2026-02-23/hh=15/gold/h15/run-1");
    }

    @Test
    void placeholderNamesAreCaseInsensitiveSoGoSpellingsWork() {
        assertThat(ArgumentTemplate.expand("${scheduleID}-${pipelineID}-${runID}-${DATE}", VALUES))
                .isEqualTo("h15-gold-run-1-2026-02-23");
    }

    @Test
    void plainTextAndUnbracedDollarsStayAsWrittenAndDoubleDollarBraceIsALiteral() {
        assertThat(ArgumentTemplate.expand("no templates", VALUES)).isEqualTo("no templates");
        assertThat(ArgumentTemplate.expand("cost $5 ${date} $date $$x", VALUES))
                .isEqualTo("cost $5 2026-02-23 $date $$x");
        assertThat(ArgumentTemplate.expand("--conf spark.x=$${spark.y}/${date}", VALUES))
                .isEqualTo("--conf spark.x=${spark.y}/2026-02-23");
    }

    @Test
    void anUnknownOrUnclosedPlaceholderIsRefusedNotSentLiterally() {
        assertThatThrownBy(() -> ArgumentTemplate.expand("${region}/${date}", VALUES))
                .isInstanceOf(ArgumentTemplate.TemplateException.class)
                .hasMessageStartingWith(
                        "unknown placeholder ${region}; known: ${date}, ${hour}, ${scheduleId}, ${pipelineId}, ${runId}")
                .hasMessageContaining("write $${…} to send {region} literally");
        assertThatThrownBy(() -> ArgumentTemplate.expand("${}", VALUES))
                .hasMessageStartingWith("unknown placeholder ${}");
        assertThatThrownBy(() -> ArgumentTemplate.expand("x ${date", VALUES))
                .hasMessage("'${date' opens a placeholder that is never closed (write $${ for a literal ${)");
    }

    @Test
    void credentialsAreRefusedWhereNoneMayGoAndResolvedWhereTheyMay() throws Exception {
        assertThatThrownBy(() -> ArgumentTemplate.expand("Bearer ${secret:airflow/prod#token}", VALUES))
                .hasMessage("${secret:airflow/prod#token}: credentials may only be sent in headers and bodies");
        assertThatThrownBy(() -> ArgumentTemplate.expand("$INTERLOCK_TOKEN", VALUES))
                .hasMessage("$INTERLOCK_TOKEN: credentials may only be sent in headers and bodies");

        Map<CredentialReference, String> store = Map.of(
                new CredentialReference.SecretsManagerSecret("airflow/prod", "token"), "s3cr3t",
                new CredentialReference.SsmParameter("/interlock/dbx"), "dbx",
                new CredentialReference.EnvironmentVariable("INTERLOCK_TOKEN"), "env");
        assertThat(ArgumentTemplate.render(
                        "${secret:airflow/prod#token}|${ssm:/interlock/dbx}|$INTERLOCK_TOKEN|${INTERLOCK_TOKEN}|${hour}",
                        VALUES,
                        store::get))
                .isEqualTo("s3cr3t|dbx|env|env|15");
    }

    @Test
    void parsesEveryKindOfPartWithWhatWasWritten() {
        List<ArgumentTemplate.Part> parts = ArgumentTemplate.parse("a${DATE}b${secret:x#k}$INTERLOCK_T-${nope}$${lit}");
        assertThat(parts)
                .hasSize(8)
                .startsWith(
                        new ArgumentTemplate.Part.Literal("a"),
                        new ArgumentTemplate.Part.RunValue("date", "${DATE}"),
                        new ArgumentTemplate.Part.Literal("b"),
                        new ArgumentTemplate.Part.Credential(
                                new CredentialReference.SecretsManagerSecret("x", "k"), "${secret:x#k}"),
                        new ArgumentTemplate.Part.Credential(
                                new CredentialReference.EnvironmentVariable("INTERLOCK_T"), "$INTERLOCK_T"),
                        new ArgumentTemplate.Part.Literal("-"));
        assertThat(parts.get(6))
                .isInstanceOfSatisfying(
                        ArgumentTemplate.Part.Invalid.class,
                        i -> assertThat(i.written()).isEqualTo("${nope}"));
        assertThat(parts.get(7)).isEqualTo(new ArgumentTemplate.Part.Literal("${lit}"));
        assertThat(ArgumentTemplate.parse("${secret:bad name}").getFirst())
                .isInstanceOfSatisfying(
                        ArgumentTemplate.Part.Invalid.class,
                        i -> assertThat(i.problem())
                                .startsWith("${secret:bad name}: 'bad name' is not a Secrets Manager secret name"));
        assertThat(ArgumentTemplate.parse("${ssm:a/b}").getFirst())
                .isInstanceOfSatisfying(
                        ArgumentTemplate.Part.Invalid.class,
                        i -> assertThat(i.problem())
                                .isEqualTo("${ssm:a/b}: SSM parameter 'a/b' has a path, so it must start with '/'"));
        assertThat(ArgumentTemplate.parse("${secret:x#}").getFirst()).isInstanceOf(ArgumentTemplate.Part.Invalid.class);
    }

    @Test
    void runIdIsUnknownWhileTraitsAreEvaluated() {
        TemplateValues evaluation = new TemplateValues("gold", "daily", LocalDate.of(2026, 2, 23), null);
        assertThat(ArgumentTemplate.expand("${date}", evaluation)).isEqualTo("2026-02-23");
        assertThatThrownBy(() -> ArgumentTemplate.expand("${runId}", evaluation))
                .hasMessage("${runId} is not known here: traits are evaluated before a run exists");
    }

    @ParameterizedTest
    @CsvSource(
            value = {
                "h15,15",
                "h00,00",
                "h23,23",
                "hourly,''",
                "h7,''",
                "h123,''",
                "daily,''",
                "H15,''",
                "hab,''",
                "h24,''",
                "hourly.1400,14",
                "q.0045,00",
                "hourly.2400,''",
                "hourly.1460,''",
                "hourly,''",
                ".1400,''"
            })
    void hourIsTheHourOfACronWindowOrOfAScheduleNamedH00ToH23(String scheduleId, String hour) {
        assertThat(new TemplateValues("p", scheduleId, LocalDate.of(2026, 2, 23), "r").hour())
                .isEqualTo(hour);
    }

    @Test
    void expandsEveryDataFieldOfEveryTriggerType() {
        var emrSl = (EmrServerlessTrigger) ArgumentTemplate.expand(
                new EmrServerlessTrigger(
                        "app",
                        "job",
                        "arn:aws:iam::1:role/r",
                        "s3://b/e.py",
                        List.of("--date", "${date}"),
                        "--conf spark.hour=${hour}",
                        Map.of("k", "${runId}")),
                VALUES);
        assertThat(emrSl.entryPointArguments()).containsExactly("--date", "2026-02-23");
        assertThat(emrSl.sparkSubmitParameters()).isEqualTo("--conf spark.hour=15");
        assertThat(emrSl.arguments()).containsExactly(Map.entry("k", "run-1"));

        var airflow = (AirflowTrigger) ArgumentTemplate.expand(
                new AirflowTrigger(
                        "https://af",
                        "dag",
                        Map.of("X", "${INTERLOCK_T}"),
                        "{\"d\":\"${date}\"}",
                        Map.of("hour", "${hour}", "nested", Map.of("d", List.of("${date}", 3))),
                        30),
                VALUES);
        assertThat(airflow.conf()).isEqualTo(Map.of("hour", "15", "nested", Map.of("d", List.of("2026-02-23", 3))));
        // Headers and body are rendered once, by the HTTP layer, with credentials.
        assertThat(airflow.headers()).containsExactly(Map.entry("X", "${INTERLOCK_T}"));
        assertThat(airflow.body()).isEqualTo("{\"d\":\"${date}\"}");

        var lambda = (LambdaTrigger) ArgumentTemplate.expand(
                new LambdaTrigger(
                        "fn",
                        InterlockJson.json()
                                .createObjectNode()
                                .put("date", "${date}")
                                .put("n", 1)),
                VALUES);
        assertThat(lambda.payload().toString()).isEqualTo("{\"date\":\"2026-02-23\",\"n\":1}");
    }

    @Test
    void expandsTriggerArgumentsKeepingKeysOrderAndOtherFields() {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("--date", "${date}");
        args.put("--hour", "${hour}");
        args.put("--fixed", "x");
        var glue = (GlueTrigger) ArgumentTemplate.expand(new GlueTrigger("job", args), VALUES);
        assertThat(glue.jobName()).isEqualTo("job");
        assertThat(glue.arguments())
                .containsExactly(
                        Map.entry("--date", "2026-02-23"), Map.entry("--hour", "15"), Map.entry("--fixed", "x"));

        var dbx = (DatabricksTrigger) ArgumentTemplate.expand(
                new DatabricksTrigger(
                        "w", "j", null, Map.of("run", "${runId}"), Map.of("Authorization", "${date}"), 30),
                VALUES);
        assertThat(dbx.notebookParams()).containsExactly(Map.entry("run", "run-1"));
        assertThat(dbx.headers()).containsExactly(Map.entry("Authorization", "${date}"));

        var http = new HttpTrigger("POST", "https://x/${date}", Map.of(), null, 30);
        assertThat(ArgumentTemplate.expand(http, VALUES)).isSameAs(http);
    }
}
