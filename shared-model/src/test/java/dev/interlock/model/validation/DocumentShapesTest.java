package dev.interlock.model.validation;

import com.fasterxml.jackson.annotation.JsonAlias;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.pipeline.ExclusionConfig;
import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.SlaConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.trigger.TriggerConfig;
import org.junit.jupiter.api.Test;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The shapes repeat the records' field names; this keeps the two from drifting apart. */
class DocumentShapesTest {

    @Test
    void thePipelineShapeCoversEveryFieldOfEveryPipelineRecord() {
        Map<String, Shape> pipeline = fields(DocumentShapes.PIPELINE);
        assertThat(pipeline.keySet()).containsAll(names(PipelineConfig.class)).contains("watch");
        assertThat(fields(pipeline.get("traits")).keySet()).containsExactlyInAnyOrderElementsOf(names(TraitConfig.class));
        assertThat(fields(pipeline.get("retry")).keySet()).containsExactlyInAnyOrderElementsOf(names(RetryPolicy.class));
        assertThat(fields(pipeline.get("sla")).keySet()).containsExactlyInAnyOrderElementsOf(names(SlaConfig.class));
        assertThat(fields(pipeline.get("schedules")).keySet()).containsExactlyInAnyOrderElementsOf(names(ScheduleConfig.class));
        assertThat(fields(pipeline.get("exclusions")).keySet()).containsExactlyInAnyOrderElementsOf(names(ExclusionConfig.class));
        assertThat(fields(pipeline.get("monitoring")).keySet()).containsExactlyInAnyOrderElementsOf(names(MonitoringConfig.class));
    }

    @Test
    void theTriggerShapeCoversEveryFieldAndAliasOfEveryTriggerType() {
        Set<String> shaped = fields(fields(DocumentShapes.PIPELINE).get("trigger")).keySet();
        List<String> expected = new ArrayList<>(List.of("type"));
        for (Class<?> type : TriggerConfig.class.getPermittedSubclasses()) {
            expected.addAll(names(type));
        }
        assertThat(shaped).containsExactlyInAnyOrderElementsOf(Set.copyOf(expected));
    }

    @Test
    void archetypeAndCalendarShapesCoverTheirRecords() {
        Map<String, Shape> archetype = fields(DocumentShapes.ARCHETYPE);
        assertThat(archetype.keySet()).containsExactlyInAnyOrderElementsOf(names(Archetype.class));
        assertThat(fields(archetype.get("requiredTraits")).keySet()).containsExactlyInAnyOrderElementsOf(names(TraitDefinition.class));
        assertThat(fields(DocumentShapes.CALENDAR).keySet()).containsExactlyInAnyOrderElementsOf(names(Calendar.class));
    }

    /** Record component names plus their {@link JsonAlias} spellings. */
    private static List<String> names(Class<?> record) {
        List<String> names = new ArrayList<>();
        for (RecordComponent component : record.getRecordComponents()) {
            names.add(component.getName());
            JsonAlias alias = aliasOf(record, component);
            if (alias != null) {
                names.addAll(Arrays.asList(alias.value()));
            }
        }
        return names;
    }

    private static JsonAlias aliasOf(Class<?> record, RecordComponent component) {
        JsonAlias onComponent = component.getAnnotation(JsonAlias.class);
        if (onComponent != null) {
            return onComponent;
        }
        try {
            return record.getDeclaredField(component.getName()).getAnnotation(JsonAlias.class);
        } catch (NoSuchFieldException e) {
            return null;
        }
    }

    private static Map<String, Shape> fields(Shape shape) {
        return switch (shape) {
            case Shape.Obj obj -> obj.fields();
            case Shape.MapOf map -> fields(map.values());
            case Shape.ListOf list -> fields(list.elements());
            default -> throw new AssertionError("not an object shape: " + shape);
        };
    }
}
