package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cron schedules and ${hour} at registration: each refusal names its field and says why. */
class CronScheduleValidationTest {

    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find);

    private Validated<PipelineConfig> pipeline(String schedules, String partition, String argument) {
        return validation.validateText("""
                name: orders
                archetype: batch-ingestion
                traits:
                  source-freshness:
                    evaluator: builtin:sensor-freshness
                    config: {sensor: landing, maxAgeSeconds: 900, partition: "%s"}
                  upstream-dependency: {evaluator: builtin:always-pass}
                  resource-availability: {evaluator: builtin:always-pass}
                trigger: {type: glue, jobName: orders, arguments: {"--hour": "%s"}}
                schedules: %s
                """.formatted(partition, argument, schedules));
    }

    @Test
    void anHourlyCronInOneLineIsValidAndFillsHour() {
        Validated<PipelineConfig> result = pipeline(
                "[{name: hourly, cron: '0 * * * *', timezone: Europe/Berlin, deadline: '+40m'}]",
                "${date}T${hour}",
                "${hour}");
        assertThat(result.errors()).isEmpty();
        assertThat(result.value().schedules().getFirst().cron()).isEqualTo("0 * * * *");
    }

    @Test
    void theTwentyFourEntryFormStillFillsHour() {
        assertThat(pipeline("[{name: h00, after: '00:00'}, {name: h01, after: '01:00'}]", "${date}T${hour}", "${hour}")
                        .errors())
                .isEmpty();
    }

    @Test
    void hourInATemplateOfAScheduleWithoutAnHourIsRefusedAtEachField() {
        Validated<PipelineConfig> result = pipeline("[{name: daily, after: '06:00'}]", "${date}T${hour}", "${hour}");
        assertThat(result.errors())
                .extracting(ValidationError::path)
                .containsExactly("$.trigger.arguments.--hour", "$.traits.source-freshness.config.partition");
        assertThat(result.errors().getFirst().message())
                .contains("'daily' cannot fill")
                .contains("cron schedule");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                "seconds field|[{name: s, cron: '0 0 * * * *'}]|$.schedules[0].cron|seconds field is not supported",
                "value out of range|[{name: s, cron: '0 25 * * *'}]|$.schedules[0].cron|not a cron expression",
                "never fires|[{name: s, cron: '0 0 30 2 *'}]|$.schedules[0].cron|never fires",
                "after as a time of day|[{name: s, cron: '0 * * * *', after: '06:00'}]|$.schedules[0].after|duration",
                "deadline as a time of day|[{name: s, cron: '0 * * * *', deadline: '07:00'}]|$.schedules[0].deadline|+40m",
                "blank cron|[{name: s, cron: ' '}]|$.schedules[0].cron|must be a cron expression",
                "plain name shaped like a window|[{name: x.1400, after: '14:00'}]|$.schedules[0].name|ends like the window",
                "bad zone|[{name: s, cron: '0 * * * *', timezone: Mars/Olympus}]|$.schedules[0].timezone|Mars/Olympus"
            })
    void aBadCronScheduleIsRefusedAtItsPath(String what, String schedules, String path, String message) {
        Validated<PipelineConfig> result = pipeline(schedules, "${date}", "${date}");
        assertThat(result.errors()).extracting(ValidationError::path).isEqualTo(List.of(path));
        assertThat(result.errors().getFirst().message()).contains(message);
    }

    @Test
    void aCronScheduleNameLeavesRoomForItsWindowSuffix() {
        String name = "n".repeat(59);
        Validated<PipelineConfig> result = pipeline("[{name: " + name + ", cron: '0 * * * *'}]", "${date}", "${date}");
        assertThat(result.errors())
                .singleElement()
                .satisfies(e -> assertThat(e.path()).isEqualTo("$.schedules[0].name"));
    }
}
