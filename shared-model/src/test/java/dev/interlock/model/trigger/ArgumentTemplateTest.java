package dev.interlock.model.trigger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.LocalDate;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ArgumentTemplateTest {

    private static final TemplateValues VALUES = new TemplateValues("gold", "h15", LocalDate.of(2026, 2, 23), "run-1");

    @Test
    void expandsEveryKnownPlaceholder() {
        assertThat(ArgumentTemplate.expand("s3://b/dt=${date}/hh=${hour}/${pipelineId}/${scheduleId}/${runId}", VALUES))
                .isEqualTo("s3://b/dt=2026-02-23/hh=15/gold/h15/run-1");
    }

    @Test
    void placeholderNamesAreCaseInsensitiveSoGoSpellingsWork() {
        assertThat(ArgumentTemplate.expand("${scheduleID}-${pipelineID}-${runID}-${DATE}", VALUES)).isEqualTo("h15-gold-run-1-2026-02-23");
    }

    @Test
    void unknownPlaceholdersAndPlainTextStayAsWritten() {
        assertThat(ArgumentTemplate.expand("${region}/${date}/$date/${}", VALUES)).isEqualTo("${region}/2026-02-23/$date/${}");
        assertThat(ArgumentTemplate.expand("no templates", VALUES)).isEqualTo("no templates");
        assertThat(ArgumentTemplate.expand("cost $5 ${date}", VALUES)).isEqualTo("cost $5 2026-02-23");
    }

    @ParameterizedTest
    @CsvSource(value = {"h15,15", "h00,00", "h23,23", "hourly,''", "h7,''", "h123,''", "daily,''", "H15,''", "hab,''"})
    void hourIsOnlyTheTwoDigitsOfAnHourlyScheduleId(String scheduleId, String hour) {
        assertThat(new TemplateValues("p", scheduleId, LocalDate.of(2026, 2, 23), "r").hour()).isEqualTo(hour);
    }

    @Test
    void expandsTriggerArgumentsKeepingKeysOrderAndOtherFields() {
        Map<String, String> args = new LinkedHashMap<>();
        args.put("--date", "${date}");
        args.put("--hour", "${hour}");
        args.put("--fixed", "x");
        var glue = (GlueTrigger) ArgumentTemplate.expand(new GlueTrigger("job", args), VALUES);
        assertThat(glue.jobName()).isEqualTo("job");
        assertThat(glue.arguments()).containsExactly(Map.entry("--date", "2026-02-23"), Map.entry("--hour", "15"), Map.entry("--fixed", "x"));

        var dbx = (DatabricksTrigger) ArgumentTemplate.expand(
                new DatabricksTrigger("w", "j", null, Map.of("run", "${runId}"), Map.of("Authorization", "${date}"), 30), VALUES);
        assertThat(dbx.notebookParams()).containsExactly(Map.entry("run", "run-1"));
        assertThat(dbx.headers()).containsExactly(Map.entry("Authorization", "${date}"));

        var http = new HttpTrigger("POST", "https://x/${date}", Map.of(), null, 30);
        assertThat(ArgumentTemplate.expand(http, VALUES)).isSameAs(http);
    }
}
