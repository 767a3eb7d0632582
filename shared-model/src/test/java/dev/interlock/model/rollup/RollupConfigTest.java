package dev.interlock.model.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.testing.Documents;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The trait config key {@code rollup} as a user writes it: what it means, and what is wrong with it, at which path. */
class RollupConfigTest {

    private static final String PATH = "$.traits.upstream-dependency.config.rollup";

    /** A trait config as written in YAML, so numbers are read the way registration reads them. */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> traitConfig(String yaml) {
        return Documents.read("config: " + yaml, Map.class).get("config") instanceof Map<?, ?> config
                ? (Map<String, Object>) config
                : Map.of();
    }

    private static List<String> paths(Object raw) {
        return RollupConfig.errors(raw, PATH).stream()
                .map(RollupConfig.Problem::path)
                .toList();
    }

    @Test
    void trueAndAnEmptyObjectAskForEveryPeriodAndAlertOnARerun() {
        for (String yaml : List.of("{upstreamPipeline: up, rollup: true}", "{upstreamPipeline: up, rollup: {}}")) {
            Map<String, Object> config = traitConfig(yaml);

            assertThat(RollupConfig.errors(config.get("rollup"), PATH)).as(yaml).isEmpty();
            assertThat(RollupConfig.of(config)).as(yaml).contains(new RollupConfig(null, RerunPolicy.ALERT));
            assertThat(RollupConfig.declared(config)).as(yaml).isTrue();
        }
    }

    @Test
    void minCountAndThePolicyAreRead() {
        Map<String, Object> config = traitConfig("{rollup: {minCount: 20, onUpstreamRerun: rerun}}");

        assertThat(RollupConfig.errors(config.get("rollup"), PATH)).isEmpty();
        assertThat(RollupConfig.of(config)).contains(new RollupConfig(20, RerunPolicy.RERUN));
        assertThat(RollupConfig.of(traitConfig("{rollup: {onUpstreamRerun: ignore}}")))
                .contains(new RollupConfig(null, RerunPolicy.IGNORE));
    }

    @Test
    void thePolicyDefaultsToAlert() {
        assertThat(new RollupConfig(3, null).onUpstreamRerun()).isEqualTo(RerunPolicy.ALERT);
        assertThat(RollupConfig.of(traitConfig("{rollup: {minCount: 3}}"))
                        .orElseThrow()
                        .onUpstreamRerun())
                .isEqualTo(RerunPolicy.ALERT);
    }

    @Test
    void aValueThatIsNeitherAnObjectNorABooleanIsRefusedAtTheKey() {
        for (Object raw : List.<Object>of("yes", 24, List.of("minCount"))) {
            List<RollupConfig.Problem> problems = RollupConfig.errors(raw, PATH);

            assertThat(problems)
                    .as(String.valueOf(raw))
                    .extracting(RollupConfig.Problem::path)
                    .containsExactly(PATH);
            assertThat(problems.getFirst().message()).startsWith("rollup must be true or an object");
        }
        assertThat(RollupConfig.errors("yes", PATH).getFirst().message()).endsWith("got 'yes'");
        assertThat(RollupConfig.of(traitConfig("{rollup: 'yes'}"))).isEmpty();
    }

    @Test
    void anUnknownFieldIsRefusedAtItsOwnPath() {
        Map<String, Object> config = traitConfig("{rollup: {minCount: 2, onRerun: rerun}}");

        List<RollupConfig.Problem> problems = RollupConfig.errors(config.get("rollup"), PATH);

        assertThat(problems).extracting(RollupConfig.Problem::path).containsExactly(PATH + ".onRerun");
        assertThat(problems.getFirst().message()).contains("allowed: minCount, onUpstreamRerun");
        assertThat(RollupConfig.of(config))
                .as("a malformed rollup is read as none")
                .isEmpty();
    }

    @ParameterizedTest(name = "minCount {0}")
    @CsvSource(
            delimiter = '|',
            quoteCharacter = '"',
            value = {"0|got 0", "1.5|got 1.5", "'x'|got 'x'", "1441|got 1441", "-3|got -3"})
    void aMinCountThatIsNotAWholeNumberFromOneToTheMostPeriodsIsRefused(String written, String got) {
        Map<String, Object> config = traitConfig("{rollup: {minCount: " + written + "}}");

        List<RollupConfig.Problem> problems = RollupConfig.errors(config.get("rollup"), PATH);

        assertThat(problems).extracting(RollupConfig.Problem::path).containsExactly(PATH + ".minCount");
        assertThat(problems.getFirst().message())
                .startsWith("minCount must be a whole number from 1")
                .endsWith(got);
        assertThat(RollupConfig.of(config)).isEmpty();
    }

    @Test
    void theBoundsOfMinCountAreAllowed() {
        assertThat(paths(traitConfig("{rollup: {minCount: 1}}").get("rollup"))).isEmpty();
        assertThat(paths(traitConfig("{rollup: {minCount: 1440}}").get("rollup")))
                .isEmpty();
        assertThat(RollupConfig.MAX_PERIODS).isEqualTo(1440);
    }

    @Test
    void anUnknownPolicyIsRefusedWithTheAllowedOnes() {
        List<RollupConfig.Problem> unknown = RollupConfig.errors(
                traitConfig("{rollup: {onUpstreamRerun: retry}}").get("rollup"), PATH);
        List<RollupConfig.Problem> notText = RollupConfig.errors(
                traitConfig("{rollup: {onUpstreamRerun: 3}}").get("rollup"), PATH);

        assertThat(unknown).extracting(RollupConfig.Problem::path).containsExactly(PATH + ".onUpstreamRerun");
        assertThat(unknown.getFirst().message())
                .isEqualTo("unknown onUpstreamRerun 'retry'; allowed: rerun, alert, ignore");
        assertThat(notText).extracting(RollupConfig.Problem::path).containsExactly(PATH + ".onUpstreamRerun");
        assertThat(notText.getFirst().message()).contains("allowed: rerun, alert, ignore");
    }

    @Test
    void everyProblemOfOneRollupIsReported() {
        assertThat(paths(traitConfig("{rollup: {minCount: 0, onUpstreamRerun: retry, extra: 1}}")
                        .get("rollup")))
                .containsExactlyInAnyOrder(PATH + ".extra", PATH + ".minCount", PATH + ".onUpstreamRerun");
    }

    @Test
    void aRollupIsNotDeclaredWhenAbsentOrFalse() {
        Map<String, Object> off = traitConfig("{upstreamPipeline: up, rollup: false}");

        assertThat(RollupConfig.declared(traitConfig("{upstreamPipeline: up}"))).isFalse();
        assertThat(RollupConfig.declared(off)).isFalse();
        assertThat(RollupConfig.declared(null)).isFalse();
        assertThat(RollupConfig.errors(off.get("rollup"), PATH)).isEmpty();
        assertThat(RollupConfig.of(off)).isEmpty();
        assertThat(RollupConfig.of(traitConfig("{upstreamPipeline: up}"))).isEmpty();
        assertThat(RollupConfig.of(null)).isEmpty();
    }

    @Test
    void aWronglyWrittenRollupIsStillDeclaredSoRegistrationReportsIt() {
        Map<String, Object> config = new LinkedHashMap<>();
        config.put("rollup", "all");

        assertThat(RollupConfig.declared(config)).isTrue();
        assertThat(RollupConfig.of(config)).isEqualTo(Optional.empty());
    }

    @Test
    void neededIsEveryPeriodWithoutMinCountElseMinCountCappedAtThePeriods() {
        assertThat(new RollupConfig(null, null).needed(24)).isEqualTo(24);
        assertThat(new RollupConfig(20, null).needed(24)).isEqualTo(20);
        assertThat(new RollupConfig(20, null).needed(23)).isEqualTo(20);
        assertThat(new RollupConfig(20, null).needed(12))
                .as("a short day needs every period it has")
                .isEqualTo(12);
        assertThat(new RollupConfig(null, null).needed(0)).isZero();
    }
}
