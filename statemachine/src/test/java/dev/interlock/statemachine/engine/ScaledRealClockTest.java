package dev.interlock.statemachine.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.statemachine.model.StateMachineDefinition;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScaledRealClockTest {

    @Test
    void aScaledWaitAdvancesEngineTimeByTheFullDuration() throws Exception {
        ScaledRealClock clock = new ScaledRealClock(3600);
        StateMachine machine = StateMachine.builder("scaled", StateMachineDefinition.parse("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":600,"End":true}}}"""))
                .clock(clock)
                .build();
        // 600 engine seconds at 3600x is about 0.17 s of real time; the generous bound only guards against hangs.
        ExecutionDescription d = machine.start("w", "{}").await(Duration.ofSeconds(30));
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(Duration.between(d.startDate(), d.stopDate())).isGreaterThanOrEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void stopWakesARealTimeWait() throws Exception {
        StateMachine machine =
                StateMachine.builder("real", StateMachineDefinition.parse("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":86400,"End":true}}}""")).build();
        Execution execution = machine.start("w", "{}");
        machine.stopExecution(execution.executionArn(), "Stop", "test");
        assertThat(execution.await(Duration.ofSeconds(30)).status()).isEqualTo(ExecutionStatus.ABORTED);
    }

    @Test
    void rejectsNonPositiveScales() {
        assertThatThrownBy(() -> new ScaledRealClock(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new ScaledRealClock(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    }
}
