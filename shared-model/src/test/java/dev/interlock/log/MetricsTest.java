package dev.interlock.log;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class MetricsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-03-03T12:00:00Z"), ZoneOffset.UTC);

    @Test
    void anAlertLineDeclaresThePipelineAndTheFleetDimensionSetsWithTheirValues() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new Metrics(new PrintStream(out, true, StandardCharsets.UTF_8), CLOCK, () -> false)
                .alert(LogContext.of("orders", "daily", "2026-03-03"), "RUN_FAILED");
        JsonNode line = InterlockJson.tree(out.toString(StandardCharsets.UTF_8).trim());
        JsonNode directive = line.at("/_aws/CloudWatchMetrics/0");
        assertThat(line.at("/_aws/Timestamp").asLong()).isEqualTo(CLOCK.millis());
        assertThat(directive.path("Namespace").asText()).isEqualTo("Interlock");
        assertThat(directive.path("Dimensions").toString())
                .isEqualTo("[[\"PipelineId\",\"AlertKind\"],[\"AlertKind\"]]");
        assertThat(directive.at("/Metrics/0/Name").asText()).isEqualTo("Alerts");
        assertThat(line.path("PipelineId").asText()).isEqualTo("orders");
        assertThat(line.path("AlertKind").asText()).isEqualTo("RUN_FAILED");
        assertThat(line.path("Alerts").asDouble()).isEqualTo(1.0);
        assertThat(line.path("date").asText()).isEqualTo("2026-03-03");
    }

    @Test
    void aMetricThatCannotBeWrittenFailsNothing() {
        PrintStream broken = new PrintStream(OutputStream.nullOutputStream()) {
            @Override
            public void println(String x) {
                throw new IllegalStateException("stdout is gone");
            }
        };
        assertThatCode(() -> new Metrics(broken, CLOCK, () -> false)
                        .put(LogContext.of("orders", "daily", "2026-03-03"), Metric.EVALUATIONS, 1))
                .doesNotThrowAnyException();
    }

    @Test
    void aMutedLoggerPublishesNothing() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new StructuredLog("t", new PrintStream(out, true, StandardCharsets.UTF_8), CLOCK, () -> true)
                .metrics()
                .put(LogContext.of("orders", "daily", "2026-03-03"), Metric.TRIGGERS, 1);
        assertThat(out.size()).isZero();
    }
}
