package dev.interlock.model.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Which windows of a downstream a completed upstream window concerns. */
class CascadeTargetsTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 1);

    private static PipelineConfig downstream(String upstreamConfig, String schedules) {
        return RollupPeriodsTest.pipeline("gold", """
                traits:
                  upstream-dependency: {evaluator: "builtin:upstream-run-log", config: %s}
                %s""".formatted(upstreamConfig, schedules));
    }

    private static List<String> targets(PipelineConfig downstream, String upstreamScheduleId) {
        return CascadeTargets.of(downstream, "up", upstreamScheduleId, DATE).stream()
                .map(t -> t.scheduleId() + (t.rollup().isPresent() ? " (rollup)" : ""))
                .toList();
    }

    @Test
    void aDailyRollupOverAnHourlyUpstreamIsNotifiedOnItsDailyWindowForAnyHour() {
        PipelineConfig gold = downstream("{upstreamPipeline: up, rollup: {minCount: 20, onUpstreamRerun: rerun}}", "");

        for (String hour : List.of("hourly.0000", "hourly.0500", "hourly.2300")) {
            assertThat(CascadeTargets.of(gold, "up", hour, DATE))
                    .as(hour)
                    .containsExactly(
                            new CascadeTargets.Target("daily", Optional.of(new RollupConfig(20, RerunPolicy.RERUN))));
        }
    }

    @Test
    void anUpstreamScheduleThatNamesTheCompletedWindowsScheduleKeepsTheRollup() {
        PipelineConfig gold = downstream("{upstreamPipeline: up, upstreamSchedule: hourly, rollup: true}", "");

        assertThat(targets(gold, "hourly.0500")).containsExactly("daily (rollup)");
    }

    @Test
    void anUpstreamScheduleNamingAnotherScheduleFallsBackToTheSameId() {
        PipelineConfig gold = downstream("{upstreamPipeline: up, upstreamSchedule: quarterly, rollup: true}", "");

        assertThat(targets(gold, "hourly.0500")).containsExactly("hourly.0500");
        assertThat(targets(gold, "quarterly.0015")).containsExactly("daily (rollup)");
        assertThat(targets(gold, "quarterly"))
                .as("a plain schedule by its name")
                .containsExactly("daily (rollup)");
    }

    @Test
    void withoutARollupTheCompletedWindowsOwnIdIsTheTarget() {
        assertThat(targets(downstream("{upstreamPipeline: up}", ""), "hourly.0500"))
                .containsExactly("hourly.0500");
        assertThat(targets(downstream("{upstreamPipeline: up, rollup: false}", ""), "hourly.0500"))
                .containsExactly("hourly.0500");
        assertThat(targets(downstream("{upstreamPipeline: up}", ""), "daily")).containsExactly("daily");
    }

    @Test
    void aRollupOfAnotherUpstreamDoesNotConcernThisOne() {
        PipelineConfig gold = downstream("{upstreamPipeline: other, rollup: true}", "");

        assertThat(targets(gold, "hourly.0500")).containsExactly("hourly.0500");
    }

    @Test
    void aDownstreamWithTwoPlainSchedulesGetsBoth() {
        PipelineConfig gold = downstream(
                "{upstreamPipeline: ' up ', rollup: true}",
                "schedules: [{name: morning, after: '06:00'}, {name: evening, after: '18:00'}]");

        assertThat(targets(gold, "hourly.0500")).containsExactly("morning (rollup)", "evening (rollup)");
    }
}
