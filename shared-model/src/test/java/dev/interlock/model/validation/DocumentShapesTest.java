package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

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
import dev.interlock.model.trigger.TriggerType;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The shapes repeat the records' field names; this keeps the two from drifting apart. */
class DocumentShapesTest {

    @Test
    void thePipelineShapeCoversEveryFieldOfEveryPipelineRecord() {
        Map<String, Shape> pipeline = fields(DocumentShapes.PIPELINE);
        assertThat(pipeline.keySet()).containsAll(names(PipelineConfig.class)).contains("watch", "kind");
        assertThat(fields(pipeline.get("traits")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(TraitConfig.class));
        assertThat(fields(pipeline.get("retry")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(RetryPolicy.class));
        assertThat(fields(pipeline.get("sla")).keySet()).containsExactlyInAnyOrderElementsOf(names(SlaConfig.class));
        assertThat(fields(pipeline.get("schedules")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(ScheduleConfig.class));
        assertThat(fields(pipeline.get("exclusions")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(ExclusionConfig.class));
        assertThat(fields(pipeline.get("monitoring")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(MonitoringConfig.class));
    }

    @Test
    void eachTriggerTypeKnowsExactlyTheFieldsAndAliasesOfItsRecord() {
        Shape.Tagged trigger = (Shape.Tagged) fields(DocumentShapes.PIPELINE).get("trigger");
        assertThat(trigger.variants().keySet())
                .containsExactlyInAnyOrderElementsOf(Arrays.stream(TriggerType.values())
                        .map(TriggerType::wireName)
                        .toList());
        for (TriggerType type : TriggerType.values()) {
            Class<?> record = Arrays.stream(TriggerConfig.class.getPermittedSubclasses())
                    .filter(c -> c.getSimpleName().equalsIgnoreCase(type.name().replace("_", "") + "Trigger"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no record for " + type));
            List<String> expected = new ArrayList<>(List.of("type"));
            expected.addAll(names(record));
            assertThat(trigger.variants().get(type.wireName()).fields().keySet())
                    .as(type.wireName())
                    .containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void archetypeAndCalendarShapesCoverTheirRecords() {
        Map<String, Shape> archetype = fields(DocumentShapes.ARCHETYPE);
        assertThat(archetype.keySet()).containsExactlyInAnyOrderElementsOf(withKind(names(Archetype.class)));
        assertThat(fields(archetype.get("requiredTraits")).keySet())
                .containsExactlyInAnyOrderElementsOf(names(TraitDefinition.class));
        assertThat(fields(DocumentShapes.CALENDAR).keySet())
                .containsExactlyInAnyOrderElementsOf(withKind(names(Calendar.class)));
    }

    /** {@code kind} is the CLI's document discriminator, accepted by every document shape. */
    private static List<String> withKind(List<String> names) {
        List<String> all = new ArrayList<>(names);
        all.add("kind");
        return all;
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
