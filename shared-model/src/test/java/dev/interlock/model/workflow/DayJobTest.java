package dev.interlock.model.workflow;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one rule for "is there already a job for this day". */
class DayJobTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 2);
    private static final Instant T0 = Instant.parse("2026-03-02T08:00:00Z");
    private final AtomicInteger runLogReads = new AtomicInteger();

    private static RunState run(String id, RunStatus status, String execution, int minutes) {
        return new RunState(
                id,
                "orders",
                "daily",
                DAY,
                status,
                3,
                TriggerType.GLUE,
                execution,
                Map.of(),
                null,
                null,
                T0.plusSeconds(60L * minutes),
                T0.plusSeconds(60L * minutes));
    }

    private DayJob.Verdict verdict(List<RunState> runs, Optional<RunLog> log) {
        return DayJob.of(runs, "daily", DAY, "exec-now", TriggerType.GLUE, () -> {
            runLogReads.incrementAndGet();
            return log;
        });
    }

    private static RunLog log(RunState... ended) {
        Optional<RunLog> log = Optional.empty();
        for (RunState run : ended) {
            log = Optional.of(
                    run.status() == RunStatus.COMPLETED
                            ? AttemptLedger.afterCompletion(
                                    log, "orders", DAY, "daily", run.runId(), run.executionName(), T0)
                            : AttemptLedger.afterFailure(
                                    log,
                                    "orders",
                                    DAY,
                                    "daily",
                                    run.runId(),
                                    run.executionName(),
                                    "failed",
                                    FailureCategory.TRANSIENT,
                                    T0));
        }
        return log.orElseThrow();
    }

    @Test
    void aDayWithoutRunsHasNoJobAndItsRunLogIsNotRead() {
        assertThat(verdict(List.of(), Optional.empty())).isInstanceOf(DayJob.NoJob.class);
        assertThat(runLogReads).hasValue(0);
    }

    @Test
    void aJobAnotherExecutionStartedAndStillRunningIsFollowed() {
        RunState running = run("r1", RunStatus.RUNNING, "exec-aborted", 0);
        assertThat(verdict(List.of(running), Optional.empty())).isEqualTo(new DayJob.Follow(running));
        assertThat(runLogReads).as("a running job needs no run log").hasValue(0);
    }

    @Test
    void aJobThatEndedWithoutTheRunLogRecordingItIsFollowedNotStartedAgain() {
        RunState completed = run("r1", RunStatus.COMPLETED, "exec-aborted", 0);
        assertThat(verdict(List.of(completed), Optional.empty())).isEqualTo(new DayJob.Follow(completed));
        RunState failed = run("r2", RunStatus.FAILED, "exec-aborted", 1);
        assertThat(verdict(List.of(failed), Optional.empty())).isEqualTo(new DayJob.Follow(failed));
    }

    @Test
    void endsTheRunLogHasAreHistoryARetryOrRerunStartsANewJob() {
        RunState completed = run("r1", RunStatus.COMPLETED, "exec-1", 0);
        RunState failed = run("r2", RunStatus.FAILED, "exec-2", 10);
        assertThat(verdict(List.of(completed, failed), Optional.of(log(completed, failed))))
                .isInstanceOf(DayJob.NoJob.class);
    }

    @Test
    void thisExecutionsOwnRunsOtherDaysSchedulesAndTypesAreNotItsJob() {
        RunState own = run("r1", RunStatus.RUNNING, "exec-now", 0);
        RunState otherDay = new RunState(
                "r2",
                "orders",
                "daily",
                DAY.minusDays(1),
                RunStatus.RUNNING,
                3,
                TriggerType.GLUE,
                "x",
                Map.of(),
                null,
                null,
                T0,
                T0);
        RunState otherSchedule = new RunState(
                "r3",
                "orders",
                "hourly",
                DAY,
                RunStatus.RUNNING,
                3,
                TriggerType.GLUE,
                "x",
                Map.of(),
                null,
                null,
                T0,
                T0);
        RunState otherType = new RunState(
                "r4",
                "orders",
                "daily",
                DAY,
                RunStatus.RUNNING,
                3,
                TriggerType.HTTP,
                "x",
                Map.of(),
                null,
                null,
                T0,
                T0);
        assertThat(verdict(List.of(own, otherDay, otherSchedule, otherType), Optional.empty()))
                .isInstanceOf(DayJob.NoJob.class);
    }

    @Test
    void theNewestOfSeveralIsFollowed() {
        RunState older = run("r1", RunStatus.RUNNING, "exec-1", 0);
        RunState newer = run("r2", RunStatus.TRIGGERING, "exec-2", 5);
        assertThat(verdict(List.of(newer, older), Optional.empty())).isEqualTo(new DayJob.Follow(newer));
    }

    @Test
    void aLateSuccessTurnsAFailedRunCompletedAtItsNextVersionAndOnlyAFailedOne() {
        RunState failed = run("r1", RunStatus.FAILED, "exec-1", 0);
        RunState late = failed.completedLate(T0.plusSeconds(3600));
        assertThat(late.status()).isEqualTo(RunStatus.COMPLETED);
        assertThat(late.version()).isEqualTo(failed.version() + 1);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () -> run("r2", RunStatus.RUNNING, "exec-1", 0).completedLate(T0))
                .isInstanceOf(IllegalStateException.class);
    }
}
