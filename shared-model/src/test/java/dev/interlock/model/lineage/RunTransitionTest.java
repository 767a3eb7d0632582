package dev.interlock.model.lineage;

import static dev.interlock.model.lineage.LineageEventType.ABORT;
import static dev.interlock.model.lineage.LineageEventType.COMPLETE;
import static dev.interlock.model.lineage.LineageEventType.FAIL;
import static dev.interlock.model.lineage.LineageEventType.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.RunStatus;
import org.junit.jupiter.api.Test;

class RunTransitionTest {

    @Test
    void aJobThatStartsThenEndsIsOneStartAndOneEnd() {
        assertThat(RunTransition.events(RunStatus.TRIGGERING, RunStatus.RUNNING))
                .containsExactly(START);
        assertThat(RunTransition.events(RunStatus.RUNNING, RunStatus.COMPLETED)).containsExactly(COMPLETE);
        assertThat(RunTransition.events(RunStatus.RUNNING, RunStatus.FAILED)).containsExactly(FAIL);
        assertThat(RunTransition.events(RunStatus.RUNNING, RunStatus.CANCELLED)).containsExactly(ABORT);
    }

    @Test
    void monitoringAfterCompletionIsTheCompletionAndItsEndAddsNothingUnlessItFails() {
        assertThat(RunTransition.events(RunStatus.RUNNING, RunStatus.COMPLETED_MONITORING))
                .containsExactly(COMPLETE);
        assertThat(RunTransition.events(RunStatus.COMPLETED_MONITORING, RunStatus.COMPLETED))
                .isEmpty();
        assertThat(RunTransition.events(RunStatus.COMPLETED_MONITORING, RunStatus.FAILED))
                .containsExactly(FAIL);
    }

    @Test
    void aSynchronousJobReportsItsStartWithItsEnd() {
        assertThat(RunTransition.events(RunStatus.TRIGGERING, RunStatus.COMPLETED))
                .containsExactly(START, COMPLETE);
        assertThat(RunTransition.events(RunStatus.TRIGGERING, RunStatus.FAILED)).containsExactly(START, FAIL);
        assertThat(RunTransition.events(RunStatus.TRIGGERING, RunStatus.CANCELLED))
                .containsExactly(START, ABORT);
    }

    @Test
    void aRunThatNeverTriggeredStartedNoJob() {
        assertThat(RunTransition.events(null, RunStatus.PENDING)).isEmpty();
        assertThat(RunTransition.events(RunStatus.PENDING, RunStatus.TRIGGERING))
                .isEmpty();
        assertThat(RunTransition.events(RunStatus.PENDING, RunStatus.CANCELLED)).isEmpty();
        assertThat(RunTransition.events(RunStatus.PENDING, RunStatus.FAILED)).isEmpty();
    }

    @Test
    void aChangeThatKeepsTheStatusEmitsNothing() {
        // proceedingWithout / forcedWithout / metadata updates bump the version but keep the status.
        assertThat(RunTransition.events(RunStatus.RUNNING, RunStatus.RUNNING)).isEmpty();
        assertThat(RunTransition.events(RunStatus.COMPLETED, RunStatus.COMPLETED))
                .isEmpty();
    }
}
