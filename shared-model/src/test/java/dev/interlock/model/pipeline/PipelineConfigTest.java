package dev.interlock.model.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.fixtures.SamplePipelines;
import dev.interlock.model.json.InterlockJson;
import org.junit.jupiter.api.Test;

class PipelineConfigTest {

    @Test
    void upstreamsAreTheUpstreamPipelineKeysOfItsOwnTraits() {
        PipelineConfig config = InterlockJson.read("""
                {"name":"gold","traits":{
                  "a":{"config":{"upstreamPipeline":"silver"}},
                  "b":{"config":{"upstreamPipeline":"bronze"}},
                  "c":{"config":{"upstreamPipeline":"silver"}},
                  "d":{"config":{"upstreamPipeline":""}},
                  "e":{"config":{"upstreamPipeline":7}},
                  "f":{"evaluator":"builtin:always-pass"}}}""", PipelineConfig.class);
        assertThat(config.upstreamPipelines()).containsExactly("bronze", "silver");
        assertThat(SamplePipelines.silverOrders().upstreamPipelines()).containsExactly("bronze");
    }

    @Test
    void withoutSchedulesThereIsOneImplicitDailySchedule() {
        PipelineConfig config = InterlockJson.read("{\"name\":\"gold\"}", PipelineConfig.class);
        assertThat(config.schedules()).isEmpty();
        assertThat(config.effectiveSchedules()).containsExactly(ScheduleConfig.named("daily"));
        assertThat(config.schedule("daily")).contains(ScheduleConfig.named("daily"));
        assertThat(config.schedule("h07")).isEmpty();
        assertThat(SamplePipelines.silverOrders().schedule("h07").orElseThrow().deadline())
                .isEqualTo("07:50");
    }

    @Test
    void writingDoesNotLeakDerivedValues() {
        String json = InterlockJson.write(SamplePipelines.silverOrders());
        assertThat(json).doesNotContain("upstreamPipelines").doesNotContain("effectiveSchedules");
        assertThat(InterlockJson.read(json, PipelineConfig.class)).isEqualTo(SamplePipelines.silverOrders());
    }
}
