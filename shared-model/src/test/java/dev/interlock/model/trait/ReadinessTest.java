package dev.interlock.model.trait;

import static org.assertj.core.api.Assertions.assertThat;

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

    @Test
    void noTraitsAtAllIsReady() {
        assertThat(Readiness.of(List.of()).ready()).isTrue();
    }
}
