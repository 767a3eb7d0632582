package dev.interlock.model.pipeline;

import static dev.interlock.model.run.FailureCategory.EVALUATOR_CRASH;
import static dev.interlock.model.run.FailureCategory.PERMANENT;
import static dev.interlock.model.run.FailureCategory.TIMEOUT;
import static dev.interlock.model.run.FailureCategory.TRANSIENT;
import static dev.interlock.model.run.FailureCategory.VALIDATION_EXHAUSTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RetryPolicyTest {

    @Test
    void eachAbsentFieldDefaultsOnItsOwn() {
        assertThat(InterlockJson.read("{}", RetryPolicy.class)).isEqualTo(RetryPolicy.DEFAULT);
        assertThat(InterlockJson.read("{\"maxAttempts\":5}", RetryPolicy.class))
                .isEqualTo(new RetryPolicy(5, 30, 2.0, List.of(TRANSIENT, TIMEOUT)));
        assertThat(InterlockJson.read("{\"backoffSeconds\":1,\"retryableFailures\":[]}", RetryPolicy.class))
                .isEqualTo(new RetryPolicy(3, 1, 2.0, List.of(TRANSIENT, TIMEOUT)));
        assertThat(InterlockJson.read("{\"name\":\"ab\"}", PipelineConfig.class).retry())
                .isEqualTo(RetryPolicy.DEFAULT);
    }

    @ParameterizedTest
    @CsvSource({
        "30, 2.0, 0, 30", "30, 2.0, 1, 30", "30, 2.0, 2, 60", "30, 2.0, 3, 120", "30, 2.0, 8, 3600",
        "10, 1.5, 3, 22", "10, 0, 3, 40", "10, -1, 2, 20", "1, 1.0, 50, 1", "5000, 2.0, 1, 3600",
        "30, 1e300, 5, 3600", "0, 2.0, 4, 0"
    })
    void backoffGrowsByTheMultiplierAndIsCappedAtAnHour(int seconds, double multiplier, int attempt, long expected) {
        var policy = new RetryPolicy(3, seconds, multiplier, null);
        assertThat(policy.backoff(attempt)).isEqualTo(Duration.ofSeconds(expected));
    }

    @Test
    void permanentIsNeverRetryableEvenWhenListed() {
        var policy = new RetryPolicy(3, 30, 2.0, List.of(PERMANENT, TRANSIENT));
        assertThat(policy.isRetryable(PERMANENT)).isFalse();
        assertThat(policy.isRetryable(TRANSIENT)).isTrue();
    }

    @Test
    void defaultPolicyRetriesTransientAndTimeoutOnly() {
        assertThat(RetryPolicy.DEFAULT.isRetryable(TRANSIENT)).isTrue();
        assertThat(RetryPolicy.DEFAULT.isRetryable(TIMEOUT)).isTrue();
        assertThat(RetryPolicy.DEFAULT.isRetryable(EVALUATOR_CRASH)).isFalse();
        assertThat(RetryPolicy.DEFAULT.isRetryable(VALIDATION_EXHAUSTED)).isFalse();
        assertThat(RetryPolicy.DEFAULT.isRetryable(PERMANENT)).isFalse();
    }

    @Test
    void anEmptyOrUnknownCategoryIsRetriedAsTransient() {
        assertThat(RetryPolicy.DEFAULT.isRetryable(null)).isTrue();
        assertThat(RetryPolicy.DEFAULT.isRetryable(FailureCategory.fromJson("")))
                .isTrue();
        assertThat(RetryPolicy.DEFAULT.isRetryable(FailureCategory.fromJson("QUOTA_EXCEEDED")))
                .isTrue();
        var onlyTimeouts = new RetryPolicy(3, 30, 2.0, List.of(TIMEOUT));
        assertThat(onlyTimeouts.isRetryable(null)).isFalse();
    }

    @Test
    void retriesAfterNeedsARetryableCategoryAndAttemptsLeft() {
        assertThat(RetryPolicy.DEFAULT.retriesAfter(2, TRANSIENT)).isTrue();
        assertThat(RetryPolicy.DEFAULT.retriesAfter(3, TRANSIENT)).isFalse();
        assertThat(RetryPolicy.DEFAULT.retriesAfter(1, PERMANENT)).isFalse();
    }
}
