package dev.interlock.model.run;

import static dev.interlock.model.run.RunStatus.CANCELLED;
import static dev.interlock.model.run.RunStatus.COMPLETED;
import static dev.interlock.model.run.RunStatus.COMPLETED_MONITORING;
import static dev.interlock.model.run.RunStatus.FAILED;
import static dev.interlock.model.run.RunStatus.PENDING;
import static dev.interlock.model.run.RunStatus.RUNNING;
import static dev.interlock.model.run.RunStatus.TRIGGERING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RunStatusTest {

    @Test
    void terminalStatusesAreExactlyCompletedFailedCancelled() {
        assertThat(RunStatus.values()).filteredOn(RunStatus::isTerminal).containsExactly(COMPLETED, FAILED, CANCELLED);
    }

    @Test
    void transitionsFollowTheLifecyclePlusTriggeringToCompletedForSynchronousTriggers() {
        assertThat(PENDING.allowedNext()).containsExactlyInAnyOrder(TRIGGERING, FAILED, CANCELLED);
        assertThat(TRIGGERING.allowedNext()).containsExactlyInAnyOrder(RUNNING, COMPLETED, FAILED, CANCELLED);
        assertThat(RUNNING.allowedNext()).containsExactlyInAnyOrder(COMPLETED, COMPLETED_MONITORING, FAILED, CANCELLED);
        assertThat(COMPLETED_MONITORING.allowedNext()).containsExactlyInAnyOrder(COMPLETED, FAILED);
        for (RunStatus terminal : new RunStatus[] {COMPLETED, FAILED, CANCELLED}) {
            assertThat(terminal.allowedNext()).isEmpty();
        }
    }

    @ParameterizedTest
    @CsvSource({"PENDING,RUNNING", "PENDING,COMPLETED", "RUNNING,PENDING", "COMPLETED,RUNNING", "FAILED,TRIGGERING"})
    void illegalMovesAreRejected(RunStatus from, RunStatus to) {
        assertThat(from.canMoveTo(to)).isFalse();
    }

    @Test
    void moveToBumpsTheVersionAndRefusesToLeaveATerminalStatus() {
        Instant t0 = Instant.parse("2026-02-23T10:00:00Z");
        Instant t1 = t0.plusSeconds(5);
        var run = new RunState(
                "r1",
                "p",
                "daily",
                LocalDate.of(2026, 2, 23),
                PENDING,
                1,
                TriggerType.HTTP,
                null,
                Map.of(),
                null,
                null,
                t0,
                t0);
        RunState triggering = run.moveTo(TRIGGERING, t1);
        assertThat(triggering.version()).isEqualTo(2);
        assertThat(triggering.status()).isEqualTo(TRIGGERING);
        assertThat(triggering.updatedAt()).isEqualTo(t1);
        assertThat(triggering.createdAt()).isEqualTo(t0);
        RunState done = triggering.moveTo(COMPLETED, t1);
        assertThatThrownBy(() -> done.moveTo(RUNNING, t1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot move from COMPLETED to RUNNING");
    }
}
