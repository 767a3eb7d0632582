package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The graph the CLI reads from pipeline documents: apply's upstreams-first order, a cycle, each one's neighbours. */
class PipelineGraphTest {

    private static JsonNode pipeline(String name, String... upstreams) {
        StringBuilder traits = new StringBuilder();
        for (int i = 0; i < upstreams.length; i++) {
            traits.append(i == 0 ? "" : ",")
                    .append("\"up-")
                    .append(i)
                    .append("\":{\"config\":{\"upstreamPipeline\":\" ")
                    .append(upstreams[i])
                    .append("\"}}");
        }
        return Output.parse("{\"name\":\"" + name + "\",\"Traits\":{" + traits + "}}");
    }

    @Test
    void upstreamsComeBeforeTheirDownstreamsAndTheRestKeepTheirOrder() {
        PipelineGraph graph = PipelineGraph.of(List.of(
                pipeline("a-gold", "m-silver", "b-bronze"),
                pipeline("m-silver", "z-raw"),
                pipeline("z-raw"),
                pipeline("b-bronze", "z-raw", "elsewhere")));

        assertThat(graph.cycle()).isEmpty();
        assertThat(graph.upstreamsFirst()).containsExactly("z-raw", "b-bronze", "m-silver", "a-gold");
        assertThat(PipelineGraph.of(List.of(pipeline("y"), pipeline("x"))).upstreamsFirst())
                .containsExactly("y", "x");
    }

    @Test
    void aCycleIsNamedFromItsFirstPipelineInDocumentOrder() {
        PipelineGraph graph = PipelineGraph.of(List.of(
                pipeline("raw"), pipeline("gold", "silver"), pipeline("silver", "bronze"), pipeline("bronze", "gold")));

        assertThat(graph.cycle()).hasValue(List.of("gold", "silver", "bronze", "gold"));
    }

    @Test
    void aPipelineWaitingForItselfIsACycle() {
        assertThat(PipelineGraph.of(List.of(pipeline("solo", "solo"))).cycle()).hasValue(List.of("solo", "solo"));
    }

    @Test
    void downstreamsAreThePipelinesThatWaitForOne() {
        PipelineGraph graph = PipelineGraph.of(
                List.of(pipeline("bronze"), pipeline("silver", "bronze"), pipeline("audit", "bronze", "silver")));

        assertThat(graph.downstreamsOf("bronze")).containsExactly("audit", "silver");
        assertThat(graph.upstreamsOf("audit")).containsExactly("bronze", "silver");
        assertThat(graph.downstreamsOf("audit")).isEmpty();
    }
}
