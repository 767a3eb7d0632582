package dev.interlock.model.trait;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReadinessTest {

    /** A verdict as the machine passes it on, read as the orchestrator reads it (statuses as written). */
    static TraitVerdict result(String type, String status, Boolean required) {
        return TraitVerdict.read(type, status, null, null, "ERROR".equals(status) ? "TRANSIENT" : null, required);
    }

    @Test
    void readyWhenEveryRequiredTraitPassesWhateverTheOptionalOnesSay() {
        Readiness readiness = Readiness.of(
                List.of(result("a", "PASS", true), result("b", "FAIL", false), result("c", "ERROR", false)));

        assertThat(readiness.ready()).isTrue();
        assertThat(readiness.blocking()).isEmpty();
        assertThat(readiness.requiredErrors()).isEmpty();
        assertThat(readiness.optionalErrors()).extracting(TraitVerdict::type).containsExactly("c");
    }

    @Test
    void requiredFailuresBlockAndRequiredErrorsAreListedApart() {
        Readiness readiness = Readiness.of(List.of(
                result("a", "FAIL", true),
                result("b", "STALE", true),
                result("c", "ERROR", true),
                result("d", "PASS", true)));

        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.blocking()).containsExactly("a", "b", "c");
        assertThat(readiness.requiredErrors()).extracting(TraitVerdict::type).containsExactly("c");
    }

    @Test
    void anUnknownStatusIsNotAPassAndAnAbsentRequiredFlagMeansRequired() {
        assertThat(Readiness.of(List.of(result("a", "MAYBE", true))).blocking()).containsExactly("a");
        assertThat(Readiness.of(List.of(result("a", "pass", null))).ready()).isTrue();
        assertThat(Readiness.of(List.of(result("a", "FAIL", null))).ready()).isFalse();
    }

    private static final ReadinessRule ANY_OF_ABC =
            new ReadinessRule(ReadinessRuleType.ANY, List.of("a", "b", "c"), null);
    private static final ReadinessRule TWO_OF_ABC =
            new ReadinessRule(ReadinessRuleType.AT_LEAST, List.of("a", "b", "c"), 2);

    @Test
    void anyIsReadyOnOnePooledPassWhenEveryRequiredTraitOutsideThePoolPassed() {
        // Pooled traits reach the orchestrator resolved optional (required: false).
        assertThat(Readiness.of(
                                List.of(
                                        result("a", "FAIL", false),
                                        result("b", "PASS", false),
                                        result("x", "PASS", true)),
                                ANY_OF_ABC)
                        .ready())
                .isTrue();
        Readiness requiredOutsideFails =
                Readiness.of(List.of(result("a", "PASS", false), result("x", "FAIL", true)), ANY_OF_ABC);
        assertThat(requiredOutsideFails.ready()).isFalse();
        assertThat(requiredOutsideFails.blocking()).containsExactly("x");
    }

    @Test
    void aShortPoolBlocksWithEveryPooledTraitThatDidNotPassIncludingOnesNotJudgedThisRound() {
        Readiness oneOfTwo = Readiness.of(
                List.of(result("a", "PASS", false), result("b", "STALE", false), result("x", "PASS", true)),
                TWO_OF_ABC);
        assertThat(oneOfTwo.ready()).isFalse();
        assertThat(oneOfTwo.blocking()).containsExactly("b", "c");

        assertThat(Readiness.of(
                                List.of(
                                        result("a", "PASS", false),
                                        result("c", "PASS", false),
                                        result("b", "FAIL", false)),
                                TWO_OF_ABC)
                        .ready())
                .isTrue();
        assertThat(Readiness.of(List.of(), ANY_OF_ABC).blocking()).containsExactly("a", "b", "c");
    }

    @Test
    void aPooledErrorIsLoggedNotAlertedAndNeverStopsTheDayWhileOthersMayPass() {
        Readiness readiness = Readiness.of(
                List.of(
                        TraitVerdict.read("a", "ERROR", null, "refused", "PERMANENT", false),
                        result("b", "FAIL", false),
                        result("c", "FAIL", false)),
                ANY_OF_ABC);
        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.requiredErrors()).isEmpty();
        assertThat(readiness.permanentError()).isEmpty();
        assertThat(readiness.optionalErrors()).extracting(TraitVerdict::type).containsExactly("a");
    }

    @Test
    void noTraitsAtAllIsReady() {
        assertThat(Readiness.of(List.of()).ready()).isTrue();
    }
}
