package dev.interlock.model.trait;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.FailureCategory;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PostRunVerdictTest {

    private static TraitVerdict verdict(String name, TraitStatus status, String reason, boolean required) {
        return new TraitVerdict(
                name, status, null, reason, status == TraitStatus.ERROR ? FailureCategory.TRANSIENT : null, required);
    }

    @Test
    void noChecksPass() {
        assertThat(PostRunVerdict.NONE.passed()).isTrue();
        assertThat(PostRunVerdict.NONE.status()).isEqualTo("PASSED");
    }

    @Test
    void everyRequiredCheckMustPassAndAnOptionalFailureIsOnlyShown() {
        PostRunVerdict v = new PostRunVerdict(List.of(
                verdict("rows-written", TraitStatus.PASS, null, true),
                verdict("audit", TraitStatus.FAIL, "late", false)));
        assertThat(v.passed()).isTrue();
        assertThat(v.message()).isEqualTo("2 post-run checks passed");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> checks =
                (List<Map<String, Object>>) v.details().get("checks");
        assertThat(checks).hasSize(2);
        assertThat(checks.get(1))
                .containsEntry("status", "FAIL")
                .containsEntry("required", false)
                .containsEntry("reason", "late");
    }

    @Test
    void aRequiredFailOrErrorFailsTheRunAndTheMessageNamesEach() {
        PostRunVerdict v = new PostRunVerdict(List.of(
                verdict("rows-written", TraitStatus.FAIL, "sensor s field 'rows' is 0, not gt 0", true),
                verdict("schema", TraitStatus.ERROR, "evaluator timed out", true),
                verdict("fresh", TraitStatus.PASS, null, true)));
        assertThat(v.passed()).isFalse();
        assertThat(v.status()).isEqualTo("FAILED");
        assertThat(v.failing()).extracting(TraitVerdict::traitType).containsExactly("rows-written", "schema");
        assertThat(v.message())
                .isEqualTo("post-run check rows-written failed: sensor s field 'rows' is 0, not gt 0; "
                        + "post-run check schema errored: evaluator timed out");
        assertThat(v.details()).containsEntry("failing", List.of("rows-written", "schema"));
    }
}
