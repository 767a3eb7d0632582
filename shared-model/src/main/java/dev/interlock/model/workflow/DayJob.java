package dev.interlock.model.workflow;

import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import java.time.LocalDate;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The one rule that decides whether a pipeline day already has a job, so that no marker, rerun or evaluation starts a
 * second one beside a job still running or after one that ended without its end being recorded. A job another
 * execution started (that execution ended, aborted or timed out, or lost its lock) is followed instead of started
 * again: while it runs (TRIGGERING, RUNNING), and once it ended (its run COMPLETED or FAILED) until the day's run log
 * records that end — the run log is only read in that case. A run whose end the run log has is history: a retry or a
 * rerun the run-log gate admitted starts a new job.
 */
public final class DayJob {

    private DayJob() {}

    /** What the day has. */
    public sealed interface Verdict {}

    /** No job to follow: this execution starts its own. */
    public record NoJob() implements Verdict {}

    /** A job {@code run} another execution started, running or ended unrecorded: follow it, start nothing. */
    public record Follow(RunState run) implements Verdict {}

    /**
     * The verdict for execution {@code executionName} about to start a {@code triggerType} job for ({@code scheduleId},
     * {@code date}), given the pipeline's recent runs (any order) and, read only if needed, the day's run log.
     */
    public static Verdict of(
            List<RunState> recentRuns,
            String scheduleId,
            LocalDate date,
            String executionName,
            TriggerType triggerType,
            Supplier<Optional<RunLog>> runLog) {
        List<RunState> others = recentRuns.stream()
                .filter(run -> scheduleId.equals(run.scheduleId()) && date.equals(run.date()))
                .filter(run -> run.triggerType() == triggerType)
                .filter(run -> !Objects.equals(run.executionName(), executionName))
                .sorted(java.util.Comparator.comparing(RunState::createdAt))
                .toList();
        Optional<RunState> running = others.stream()
                .filter(run -> run.status() == RunStatus.TRIGGERING || run.status() == RunStatus.RUNNING)
                .reduce((older, newer) -> newer);
        if (running.isPresent()) {
            return new Follow(running.get());
        }
        List<RunState> ended = others.stream()
                .filter(run -> run.status() == RunStatus.COMPLETED || run.status() == RunStatus.FAILED)
                .toList();
        if (ended.isEmpty()) {
            return new NoJob();
        }
        Optional<RunLog> log = runLog.get();
        return ended.stream()
                .filter(run -> !recorded(run, log))
                .reduce((older, newer) -> newer)
                .<Verdict>map(Follow::new)
                .orElseGet(NoJob::new);
    }

    /** Whether the day's run log has the end of {@code run} (its COMPLETED or FAILED entry). */
    public static boolean recorded(RunState run, Optional<RunLog> log) {
        RunLogStatus end = run.status() == RunStatus.FAILED ? RunLogStatus.FAILED : RunLogStatus.COMPLETED;
        return log.flatMap(l -> AttemptLedger.entryOf(l, run.runId(), end)).isPresent();
    }
}
