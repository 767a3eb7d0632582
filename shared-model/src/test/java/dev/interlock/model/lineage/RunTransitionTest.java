package dev.interlock.model.lineage;

import static dev.interlock.model.lineage.LineageEventType.ABORT;
import static dev.interlock.model.lineage.LineageEventType.COMPLETE;
import static dev.interlock.model.lineage.LineageEventType.FAIL;
import static dev.interlock.model.lineage.LineageEventType.START;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.JobStop;
import dev.interlock.model.run.MaximumDuration;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
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

    private static RunState run(RunStatus status, FailureCategory category, Map<String, String> metadata) {
        Instant at = Instant.parse("2026-03-03T12:00:00Z");
        return new RunState(
                "r1",
                "gold",
                "daily",
                LocalDate.of(2026, 3, 3),
                status,
                2,
                TriggerType.GLUE,
                "exec",
                metadata,
                category == null ? null : "why",
                category,
                at,
                at);
    }

    @Test
    void aJobStoppedByInterlockAtItsMaximumOrReportedStoppedIsAnAbortNotAFail() {
        RunState running = run(RunStatus.RUNNING, null, Map.of());
        RunState timedOutByInterlock = run(
                RunStatus.FAILED,
                FailureCategory.TIMEOUT,
                Map.of(MaximumDuration.CANCEL_REQUESTED_AT, "2026-03-03T12:05:00Z"));
        RunState stoppedByAnOperator =
                run(RunStatus.FAILED, FailureCategory.PERMANENT, Map.of(JobStop.STOPPED_AS, "STOPPED"));

        assertThat(RunTransition.events(running, timedOutByInterlock)).containsExactly(ABORT);
        assertThat(RunTransition.events(running, stoppedByAnOperator)).containsExactly(ABORT);
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING, null, Map.of()), stoppedByAnOperator))
                .containsExactly(START, ABORT);
        assertThat(RunTransition.events(running, run(RunStatus.CANCELLED, null, Map.of())))
                .containsExactly(ABORT);
    }

    @Test
    void aJobThatFailedByItselfIsAFail() {
        RunState running = run(RunStatus.RUNNING, null, Map.of());
        assertThat(RunTransition.events(running, run(RunStatus.FAILED, FailureCategory.TRANSIENT, Map.of())))
                .containsExactly(FAIL);
        // A job that timed out on its own (Step Functions TIMED_OUT) was not stopped by anyone.
        assertThat(RunTransition.events(running, run(RunStatus.FAILED, FailureCategory.TIMEOUT, Map.of())))
                .containsExactly(FAIL);
        // Interlock asked it to stop, but gave up before it stopped: the job did not end by the stop.
        assertThat(RunTransition.events(
                        running,
                        run(
                                RunStatus.FAILED,
                                FailureCategory.PERMANENT,
                                Map.of(MaximumDuration.CANCEL_REQUESTED_AT, "2026-03-03T12:05:00Z"))))
                .containsExactly(FAIL);
    }
}
