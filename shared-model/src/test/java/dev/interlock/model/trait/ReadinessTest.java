package dev.interlock.model.trait;

import dev.interlock.model.run.FailureCategory;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ReadinessTest {

    static TraitResult result(String type, TraitStatus status, boolean required) {
        return new TraitResult("p", "daily", LocalDate.of(2026, 2, 23), type, status, null, null,
                status == TraitStatus.ERROR ? FailureCategory.TRANSIENT : null, required, null, null);
    }

    @Test
    void readyWhenEveryRequiredTraitPassesWhateverTheOptionalOnesSay() {
        Readiness readiness = Readiness.of(List.of(result("a", TraitStatus.PASS, true), result("b", TraitStatus.FAIL, false),
                result("c", TraitStatus.ERROR, false)));
        assertThat(readiness).isEqualTo(new Readiness(true, List.of(), List.of()));
    }

    @Test
    void requiredFailStaleAndErrorBlockAndRequiredErrorsAreListedForAlerting() {
        Readiness readiness = Readiness.of(List.of(result("a", TraitStatus.FAIL, true), result("b", TraitStatus.STALE, true),
                result("c", TraitStatus.ERROR, true), result("d", TraitStatus.PASS, true)));
        assertThat(readiness.ready()).isFalse();
        assertThat(readiness.blocking()).containsExactly("a", "b", "c");
        assertThat(readiness.errored()).containsExactly("c");
    }

    @Test
    void noTraitsMeansReady() {
        assertThat(Readiness.of(List.of()).ready()).isTrue();
    }
}
