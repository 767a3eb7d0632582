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

    private static final Instant DAY_RECORDED = Instant.parse("2026-03-03T12:30:00Z");

    private static RunState run(RunStatus status) {
        return run(status, null, Map.of());
    }

    /** The run whose day was recorded COMPLETED (after its post-run checks, if any). */
    private static RunState dayCompleted(RunStatus from) {
        return run(from).dayCompleted(DAY_RECORDED);
    }

    @Test
    void aJobThatStartsThenEndsIsOneStartAndOneEnd() {
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING), run(RunStatus.RUNNING)))
                .containsExactly(START);
        // A run first seen running (its job started before anything reported it) is started too.
        assertThat(RunTransition.events(null, run(RunStatus.RUNNING))).containsExactly(START);
        assertThat(RunTransition.events(run(RunStatus.RUNNING), dayCompleted(RunStatus.RUNNING)))
                .containsExactly(COMPLETE);
        assertThat(RunTransition.events(run(RunStatus.RUNNING), run(RunStatus.FAILED)))
                .containsExactly(FAIL);
        assertThat(RunTransition.events(run(RunStatus.RUNNING), run(RunStatus.CANCELLED)))
                .containsExactly(ABORT);
    }

    @Test
    void aJobTheJobSystemReportsSucceededIsNotCompleteUntilItsDayIsRecorded() {
        // The run-checker (or the job's callback) records the job's success: post-run checks may still fail it.
        assertThat(RunTransition.events(run(RunStatus.RUNNING), run(RunStatus.COMPLETED)))
                .isEmpty();
        // The checks passed and the day was recorded COMPLETED: now the run is complete.
        assertThat(RunTransition.events(run(RunStatus.COMPLETED), dayCompleted(RunStatus.COMPLETED)))
                .containsExactly(COMPLETE);
        // The checks failed: the job that said SUCCEEDED is a FAIL, never a COMPLETE.
        RunState unverified = run(RunStatus.COMPLETED).failedVerification("post-run check rows failed", DAY_RECORDED);
        assertThat(RunTransition.events(run(RunStatus.COMPLETED), unverified)).containsExactly(FAIL);
        // Seen again (a stream re-delivery, a repeated logResult that rewrites nothing new): nothing more.
        assertThat(RunTransition.events(dayCompleted(RunStatus.COMPLETED), dayCompleted(RunStatus.COMPLETED)))
                .isEmpty();
    }

    @Test
    void aJobThatSucceedsAfterInterlockRecordedItFailedCompletesAfterItsFail() {
        RunState timedOut = run(RunStatus.FAILED, FailureCategory.TIMEOUT, Map.of());
        assertThat(RunTransition.events(timedOut, timedOut.completedLate(DAY_RECORDED)))
                .containsExactly(COMPLETE);
    }

    @Test
    void monitoringAfterCompletionAddsNothingUnlessItFails() {
        assertThat(RunTransition.events(run(RunStatus.RUNNING), run(RunStatus.COMPLETED_MONITORING)))
                .isEmpty();
        assertThat(RunTransition.events(run(RunStatus.COMPLETED_MONITORING), run(RunStatus.FAILED)))
                .containsExactly(FAIL);
    }

    @Test
    void aSynchronousJobReportsItsStartWithItsEnd() {
        // Completed inside its trigger call: started now, complete once logResult records the day.
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING), run(RunStatus.COMPLETED)))
                .containsExactly(START);
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING), dayCompleted(RunStatus.TRIGGERING)))
                .containsExactly(START, COMPLETE);
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING), run(RunStatus.FAILED)))
                .containsExactly(START, FAIL);
        assertThat(RunTransition.events(run(RunStatus.TRIGGERING), run(RunStatus.CANCELLED)))
                .containsExactly(START, ABORT);
    }

    @Test
    void aRunThatNeverTriggeredStartedNoJob() {
        assertThat(RunTransition.events(null, run(RunStatus.PENDING))).isEmpty();
        assertThat(RunTransition.events(run(RunStatus.PENDING), run(RunStatus.TRIGGERING)))
                .isEmpty();
        assertThat(RunTransition.events(run(RunStatus.PENDING), run(RunStatus.CANCELLED)))
                .isEmpty();
        assertThat(RunTransition.events(run(RunStatus.PENDING), run(RunStatus.FAILED)))
                .isEmpty();
    }

    @Test
    void aChangeThatKeepsTheStatusEmitsNothing() {
        // proceedingWithout / forcedWithout / metadata updates bump the version but keep the status.
        assertThat(RunTransition.events(
                        run(RunStatus.RUNNING), run(RunStatus.RUNNING).nextVersion(DAY_RECORDED)))
                .isEmpty();
        assertThat(RunTransition.events(run(RunStatus.COMPLETED), run(RunStatus.COMPLETED)))
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
