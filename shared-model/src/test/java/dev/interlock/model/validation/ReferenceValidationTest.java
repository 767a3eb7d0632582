package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReferenceValidationTest {

    private static PipelineConfig excluding(String exclusions) {
        return InterlockJson.read("""
                {"name":"gold","archetype":"batch-ingestion","trigger":{"type":"http","url":"https://jobs.example.com/x"},
                 "exclusions":%s}""".formatted(exclusions), PipelineConfig.class);
    }

    private static List<String> paths(List<ValidationError> errors) {
        return errors.stream().map(ValidationError::path).toList();
    }

    @Test
    void aCalendarThatIsNotRegisteredIsAnErrorAtItsPath() {
        List<ValidationError> errors =
                ReferenceValidation.exclusions(excluding("{\"calendar\":\"us-holidays-2062\"}"), null);
        assertThat(paths(errors)).containsExactly("$.exclusions.calendar");
        assertThat(errors.getFirst().message()).contains("'us-holidays-2062' is not registered");
    }

    @Test
    void exclusionsThatLeaveNoWeekdayDisableThePipeline() {
        Calendar weekend = new Calendar("weekend", null, List.of("Saturday", "sunday"), List.of());
        PipelineConfig weekdaysExcluded = excluding(
                "{\"calendar\":\"weekend\",\"days\":[\"monday\",\"tuesday\",\"wednesday\",\"thursday\",\"friday\"]}");
        PipelineConfig everyDayInline = excluding(
                "{\"days\":[\"monday\",\"tuesday\",\"wednesday\",\"thursday\",\"friday\",\"saturday\",\"sunday\"]}");

        assertThat(paths(ReferenceValidation.exclusions(weekdaysExcluded, weekend)))
                .containsExactly("$.exclusions.calendar");
        assertThat(paths(ReferenceValidation.exclusions(everyDayInline, null))).containsExactly("$.exclusions.days");
        assertThat(ReferenceValidation.exclusions(
                        excluding("{\"calendar\":\"weekend\",\"days\":[\"monday\"]}"), weekend))
                .isEmpty();
        assertThat(ReferenceValidation.exclusions(excluding("{\"dates\":[\"2026-12-25\"]}"), null))
                .isEmpty();
    }

    @Test
    void onlyProblemsAChangeIntroducesAreItsDoing() {
        ValidationError old = new ValidationError("$.trigger.type", "unknown trigger type");
        ValidationError added = new ValidationError("$.traits.quality", "not declared");
        assertThat(ReferenceValidation.introduced(List.of(old), List.of(old, added)))
                .containsExactly(added);
        assertThat(ReferenceValidation.introduced(List.of(old), List.of(old))).isEmpty();
    }
}
