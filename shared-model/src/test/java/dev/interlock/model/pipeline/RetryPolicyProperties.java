package dev.interlock.model.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

class RetryPolicyProperties {

    @Property(tries = 1000)
    void backoffNeverShrinksAndNeverExceedsAnHour(
            @ForAll @IntRange(min = 0, max = 5000) int seconds,
            @ForAll @DoubleRange(min = 1.0, max = 10.0) double multiplier,
            @ForAll @IntRange(min = 0, max = 60) int attempt) {
        var policy = new RetryPolicy(3, seconds, multiplier, null);
        Duration now = policy.backoff(attempt);
        Duration next = policy.backoff(attempt + 1);
        assertThat(next).isGreaterThanOrEqualTo(now);
        assertThat(next).isLessThanOrEqualTo(Duration.ofSeconds(RetryPolicy.MAX_BACKOFF_SECONDS));
        assertThat(now).isGreaterThanOrEqualTo(Duration.ZERO);
    }
}
