package dev.interlock.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackoffTest {

    private static Backoff withJitter(double jitter, List<Duration> slept) {
        return new Backoff(5, Duration.ofMillis(100), Duration.ofSeconds(1), () -> jitter, slept::add);
    }

    @Test
    void theCeilingDoublesPerRetryUpToTheCap() {
        Backoff highest = withJitter(0.999_999, new ArrayList<>());
        assertThat(List.of(1, 2, 3, 4, 5, 40).stream().map(highest::delayBefore).toList())
                .containsExactly(
                        Duration.ofMillis(100),
                        Duration.ofMillis(200),
                        Duration.ofMillis(400),
                        Duration.ofMillis(800),
                        Duration.ofMillis(1000),
                        Duration.ofMillis(1000));
    }

    @Test
    void fullJitterCanWaitNothingAtAll() {
        Backoff lowest = withJitter(0.0, new ArrayList<>());
        assertThat(lowest.delayBefore(1)).isZero();
        assertThat(lowest.delayBefore(30)).isZero();
        assertThat(withJitter(0.5, new ArrayList<>()).delayBefore(3)).isEqualTo(Duration.ofMillis(200));
    }

    @Test
    void attemptsAreBoundedAndPausesGoToTheSleeper() {
        List<Duration> slept = new ArrayList<>();
        Backoff backoff = withJitter(0.5, slept);
        assertThat(backoff.allowsAnotherAfter(4)).isTrue();
        assertThat(backoff.allowsAnotherAfter(5)).isFalse();
        backoff.pause(1, "test");
        backoff.pause(2, "test");
        assertThat(slept).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void anInterruptedPauseStopsTheOperationAndKeepsTheInterrupt() {
        Backoff backoff = new Backoff(3, Duration.ofMillis(10), Duration.ofMillis(10), () -> 0.5, d -> {
            throw new InterruptedException("stop");
        });
        try {
            assertThatThrownBy(() -> backoff.pause(1, "runLogs.update"))
                    .isInstanceOf(StoreException.class)
                    .hasMessageContaining("runLogs.update");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void nonsenseSettingsAreRejected() {
        assertThatThrownBy(() -> new Backoff(0, Duration.ZERO, Duration.ZERO, () -> 0, d -> {}))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new Backoff(3, Duration.ofSeconds(2), Duration.ofSeconds(1), () -> 0, d -> {}))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
