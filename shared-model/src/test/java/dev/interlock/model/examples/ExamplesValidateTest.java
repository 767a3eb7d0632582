package dev.interlock.model.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.validation.DocumentValidation;
import dev.interlock.model.validation.PipelineValidation;
import dev.interlock.model.validation.Validated;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every document under examples/ is valid as registration would judge it. */
class ExamplesValidateTest {

    private static final Path EXAMPLES = Path.of("..", "examples");
    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find);

    private static List<Path> documents() throws IOException {
        try (Stream<Path> s = Files.walk(EXAMPLES)) {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().toList();
        }
    }

    @TestFactory
    Stream<DynamicTest> everyExampleValidates() throws IOException {
        return documents().stream()
                .map(p -> DynamicTest.dynamicTest(EXAMPLES.relativize(p).toString(), () -> {
                    String text = Files.readString(p);
                    Validated<?> v = text.contains("kind: calendar")
                            ? DocumentValidation.calendar(text)
                            : validation.validateText(text);
                    assertThat(v.errors()).as(p.toString()).isEmpty();
                }));
    }

    @Test
    void theExamplesCoverTheAdvertisedShapes() throws IOException {
        PipelineConfig silver = validation
                .validateText(Files.readString(EXAMPLES.resolve("medallion/silver-orders.yaml")))
                .orThrow();
        assertThat(silver.trigger()).isInstanceOfSatisfying(EmrServerlessTrigger.class, t -> {
            assertThat(t.executionRoleArn()).startsWith("arn:aws:iam::");
            assertThat(t.entryPoint()).startsWith("s3://");
        });
        assertThat(silver.upstreamPipelines()).containsExactly("bronze-orders");
        PipelineConfig bronze = validation
                .validateText(Files.readString(EXAMPLES.resolve("medallion/bronze-orders.yaml")))
                .orThrow();
        assertThat(bronze.trigger()).isInstanceOf(GlueTrigger.class);
        PipelineConfig kpis = validation
                .validateText(Files.readString(EXAMPLES.resolve("hourly/clickstream-hourly-kpis.yaml")))
                .orThrow();
        // One cron schedule, 24 windows (pipeline days) a day.
        assertThat(kpis.effectiveSchedules())
                .singleElement()
                .satisfies(s -> assertThat(s.hasCron()).isTrue());
        assertThat(dev.interlock.model.schedule.ScheduleWindows.idsOn(kpis, java.time.LocalDate.of(2026, 3, 1)))
                .hasSize(24)
                .startsWith("hourly.0010");
        assertThat(documents()).hasSize(7);
    }
}
