package dev.interlock.model.workflow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.testing.Documents;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ExecutionBudgetTest {

    private static final Instant START = Instant.parse("2026-03-02T09:00:00Z");

    private static PipelineConfig pipeline(String trigger, String extra) {
        return Documents.read(
                "name: orders\narchetype: batch-ingestion\ntrigger: " + trigger + "\n" + extra, PipelineConfig.class);
    }

    @Test
    void theEndKeepsTheSafetyMarginForTheExecutionsEnding() {
        assertThat(new ExecutionBudget(START, 14400).end()).isEqualTo(START.plusSeconds(14400 - 900));
        assertThat(new ExecutionBudget(START, 600).end())
                .as("never before the start")
                .isEqualTo(START);
        assertThatThrownBy(() -> new ExecutionBudget(START, 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aSynchronousJobNeedsNoFollowingAnAsynchronousOneItsMaximumAndTwoPolls() {
        PipelineConfig http = pipeline("{type: http, url: 'https://jobs.example.com/run'}", "");
        PipelineConfig airflow = pipeline(
                "{type: airflow, url: 'https://airflow.example.com', dagId: d}",
                "maxJobDurationSeconds: 3600\npollIntervalSeconds: 60\n");

        assertThat(ExecutionBudget.followSeconds(http, 14400)).isZero();
        assertThat(ExecutionBudget.followSeconds(airflow, 14400)).isEqualTo(3600 + 2 * 60);
        assertThat(new ExecutionBudget(START, 14400).latestTrigger(http)).isEqualTo(START.plusSeconds(13500));
        assertThat(new ExecutionBudget(START, 14400).latestTrigger(airflow)).isEqualTo(START.plusSeconds(13500 - 3720));
    }

    @Test
    void theMaximumJobDurationIsHonouredUpToHalfTheExecutionAndNeverBelowAPoll() {
        PipelineConfig defaults = pipeline("{type: glue, jobName: j}", "");
        PipelineConfig tiny =
                pipeline("{type: glue, jobName: j}", "maxJobDurationSeconds: 10\npollIntervalSeconds: 60\n");

        assertThat(ExecutionBudget.maxJobDurationSeconds(defaults, 14400)).isEqualTo(7200);
        assertThat(ExecutionBudget.maxJobDurationSeconds(defaults, 3600))
                .as("a shorter execution")
                .isEqualTo(1800);
        assertThat(ExecutionBudget.maxJobDurationSeconds(tiny, 14400)).isEqualTo(60);
        assertThat(new ExecutionBudget(START, 3600).latestTrigger(defaults))
                .isEqualTo(START.plusSeconds(2700 - 1800 - 60));
        assertThat(new ExecutionBudget(START, 1800).latestTrigger(defaults))
                .as("never before the start")
                .isEqualTo(START);
    }
}
