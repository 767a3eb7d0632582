package dev.interlock.model.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.testing.Documents;
import org.junit.jupiter.api.Test;

class PipelineUpstreamsTest {

    @Test
    void upstreamsAreTheUpstreamPipelineValuesOfTheTraitsInNameOrder() {
        PipelineConfig gold = Documents.read("""
                name: gold
                traits:
                  upstream-silver: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: silver}}
                  upstream-bronze: {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: " bronze "}}
                  again-silver:    {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: silver, upstreamSchedule: h01}}
                  freshness:       {evaluator: "builtin:sensor-freshness", config: {sensor: orders}}
                  blank:           {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: ""}}
                  not-a-name:      {evaluator: "builtin:upstream-run-log", config: {upstreamPipeline: 42}}
                """, PipelineConfig.class);
        assertThat(gold.upstreamPipelines()).containsExactly("bronze", "silver");
    }

    @Test
    void aPipelineWithoutTraitsHasNoUpstreams() {
        assertThat(Documents.read("name: lone", PipelineConfig.class).upstreamPipelines())
                .isEmpty();
    }
}
