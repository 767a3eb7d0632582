package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ClosestNameTest {

    private static final List<String> PIPELINE_KEYS = List.of(
            "name",
            "description",
            "archetype",
            "tier",
            "traits",
            "trigger",
            "retry",
            "sla",
            "schedules",
            "exclusions",
            "monitoring",
            "watch",
            "dryRun",
            "evaluationIntervalSeconds",
            "pollIntervalSeconds",
            "pollLimit");

    @Test
    void typicalSlipsFindTheKeyMeant() {
        assertThat(ClosestName.among("retires", PIPELINE_KEYS)).contains("retry");
        assertThat(ClosestName.among("schedule", PIPELINE_KEYS)).contains("schedules");
        assertThat(ClosestName.among("exclusion", PIPELINE_KEYS)).contains("exclusions");
        assertThat(ClosestName.among("dry_run", PIPELINE_KEYS)).contains("dryRun");
        assertThat(ClosestName.among("evaluationInterval", PIPELINE_KEYS)).contains("evaluationIntervalSeconds");
        assertThat(ClosestName.among("trigers", PIPELINE_KEYS)).contains("trigger");
        assertThat(ClosestName.among("--fiel", List.of("--file", "--endpoint", "--region", "--dry-run")))
                .contains("--file");
        assertThat(ClosestName.among("SLA", PIPELINE_KEYS)).contains("sla");
    }

    @Test
    void namesFarFromEveryKnownOneGetNoGuess() {
        assertThat(ClosestName.among("owner", PIPELINE_KEYS)).isEmpty();
        assertThat(ClosestName.among("x", PIPELINE_KEYS)).isEmpty();
        assertThat(ClosestName.among("", PIPELINE_KEYS)).isEmpty();
        assertThat(ClosestName.hint("owner", PIPELINE_KEYS)).isEmpty();
        assertThat(ClosestName.hint("retires", PIPELINE_KEYS)).isEqualTo("; did you mean 'retry'?");
    }

    @Test
    void withinBoundsTheEdits() {
        assertThat(ClosestName.within("glueJobName", List.of("glueJobNames", "stackName"), 2))
                .contains("glueJobNames");
        assertThat(ClosestName.within("teamName", List.of("glueJobNames", "stackName"), 2))
                .isEmpty();
    }

    @Test
    void transpositionsCountAsOneEdit() {
        assertThat(ClosestName.distance("fiel", "file")).isEqualTo(1);
        assertThat(ClosestName.distance("retires", "retry")).isEqualTo(3);
    }
}
