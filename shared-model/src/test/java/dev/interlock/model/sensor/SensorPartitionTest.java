package dev.interlock.model.sensor;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.LocalDate;
import org.junit.jupiter.api.Test;

class SensorPartitionTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 1);

    @Test
    void expandsLikeTriggerArguments() {
        assertThat(SensorPartition.expand("${date}", "gold", "daily", DATE)).isEqualTo("2026-03-01");
        assertThat(SensorPartition.expand("${date}T${hour}", "gold", "h06", DATE))
                .isEqualTo("2026-03-01T06");
        assertThat(SensorPartition.expand(" ${pipelineId}.${scheduleID} ", "gold", "h06", DATE))
                .isEqualTo("gold.h06");
    }

    @Test
    void knowsWhetherATemplateDependsOnTheDate() {
        assertThat(SensorPartition.dependsOnDate("${date}T${hour}")).isTrue();
        assertThat(SensorPartition.dependsOnDate("${hour}")).isFalse();
        assertThat(SensorPartition.dependsOnDate("latest")).isFalse();
    }

    @Test
    void templatesMustExpandToAPartitionWithKnownPlaceholders() {
        assertThat(SensorPartition.templateProblem("${date}T${hour}")).isEmpty();
        assertThat(SensorPartition.templateProblem("dt=${date}")).isEmpty();
        assertThat(SensorPartition.templateProblem("${runId}"))
                .hasValueSatisfying(p -> assertThat(p).contains("${runId}"));
        assertThat(SensorPartition.templateProblem("${region}"))
                .hasValueSatisfying(p -> assertThat(p).contains("unknown placeholder"));
        assertThat(SensorPartition.templateProblem("${date}#x"))
                .hasValueSatisfying(p -> assertThat(p).contains("not a partition"));
        assertThat(SensorPartition.templateProblem(" ")).isPresent();
    }

    @Test
    void partitionsAreKeyAndPathSafe() {
        assertThat(SensorPartition.isValid("2026-03-01T06")).isTrue();
        assertThat(SensorPartition.isValid("dt=2026-03-01")).isTrue();
        assertThat(SensorPartition.isValid("a/b")).isFalse();
        assertThat(SensorPartition.isValid("a#b")).isFalse();
        assertThat(SensorPartition.isValid("-a")).isFalse();
        assertThat(SensorPartition.isValid(null)).isFalse();
    }
}
