package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class VirtualClockTest {

    private final VirtualClock clock = new VirtualClock(T0);

    @Test
    void waitersWakeInDeadlineOrderAtTheirDeadlines() throws Exception {
        List<String> log = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        VirtualClock.Frozen frozen = clock.freeze();
        try {
            for (int seconds : new int[] {30, 10, 20}) {
                clock.start("w" + seconds, () -> {
                    try {
                        clock.newGate().await(T0.plusSeconds(seconds));
                        log.add(seconds + "@" + clock.now());
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    } finally {
                        done.countDown();
                    }
                });
            }
        } finally {
            frozen.close();
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(log)
                .containsExactly("10@2026-03-01T00:00:10Z", "20@2026-03-01T00:00:20Z", "30@2026-03-01T00:00:30Z");
    }

    @Test
    void anOpenedGateReleasesItsWaiterWithoutMovingTime() throws Exception {
        EngineClock.Gate gate = clock.newGate();
        CountDownLatch done = new CountDownLatch(1);
        boolean[] opened = new boolean[1];
        VirtualClock.Frozen frozen = clock.freeze();
        try {
            clock.start("waiter", () -> {
                try {
                    opened[0] = gate.await(T0.plusSeconds(100));
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                done.countDown();
            });
            clock.start("opener", gate::open);
        } finally {
            frozen.close();
        }
        assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(opened[0]).isTrue();
        assertThat(clock.now()).isEqualTo(T0);
    }

    @Test
    void onlyParticipantsMayWait() {
        assertThatThrownBy(() -> clock.newGate().await(T0.plusSeconds(1))).isInstanceOf(IllegalStateException.class);
    }
}
