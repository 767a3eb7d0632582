package dev.interlock.orchestrator;

import dev.interlock.log.Metric;
import dev.interlock.log.Metrics;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;

/**
 * The metrics the orchestrator publishes where it decides what they count (docs/metrics.md): a readiness round, a
 * run's end, a completion judged against its deadline. Each is an embedded-metric-format line through the action's
 * logger; none can fail the action ({@link Metrics}).
 */
final class PublishedMetrics {

    private PublishedMetrics() {}

    /** One evaluation, NOT READY or not; for a ready round, the time since its schedule window opened. */
    static void round(Collaborators c, ActionRequest request, PipelineConfig pipeline, boolean ready) {
        Map<Metric, Double> values = Metrics.values(Metric.EVALUATIONS, 1, Metric.NOT_READY_ROUNDS, ready ? 0 : 1);
        if (ready) {
            try {
                Instant opened = ScheduleWindow.of(pipeline, request.scheduleId(), request.date())
                        .opensAt();
                values.put(Metric.TIME_TO_READY, Math.max(0.0, seconds(opened, c.now())));
            } catch (IllegalArgumentException | DateTimeException e) {
                // no window to measure from: the counts still go out
            }
        }
        c.log().metrics().put(request.logContext(), values);
    }

    /**
     * A run recorded COMPLETED by the call that began at {@code callStarted} (a repeated call, which finds the
     * completion already recorded before it began, counts nothing): one completion and, when the call moved the
     * {@code run} (null: the trigger completed it), the job's duration from the job's start — when the run went
     * RUNNING, else its creation just before the trigger.
     */
    static void completed(
            Collaborators c, ActionRequest request, RetryAttempt entry, Instant callStarted, RunState run) {
        if (!recordedBy(entry, callStarted)) {
            return;
        }
        Map<Metric, Double> values = Metrics.values(Metric.RUNS_COMPLETED, 1);
        if (run != null) {
            Instant jobStarted =
                    run.status() == RunStatus.RUNNING && run.updatedAt() != null ? run.updatedAt() : run.createdAt();
            if (jobStarted != null) {
                values.put(Metric.JOB_DURATION, Math.max(0.0, seconds(jobStarted, entry.completedAt())));
            }
        }
        c.log().metrics().put(request.logContext(), values);
    }

    /** Whether the call that began at {@code callStarted} recorded the completion {@code entry} (not a repeated call). */
    static boolean recordedBy(RetryAttempt entry, Instant callStarted) {
        return entry.completedAt() != null && !entry.completedAt().isBefore(callStarted.truncatedTo(ChronoUnit.MILLIS));
    }

    /** A run newly recorded FAILED. */
    static void failed(Collaborators c, ActionRequest request) {
        c.log().metrics().put(request.logContext(), Metric.RUNS_FAILED, 1);
    }

    /**
     * A completion, recorded at {@code completedAt}, judged against its deadline: the margin (negative when late) and
     * whether it was missed.
     */
    static void completionSla(Collaborators c, ActionRequest request, Instant deadline, Instant completedAt) {
        Instant now = completedAt;
        c.log()
                .metrics()
                .put(
                        request.logContext(),
                        Metrics.values(
                                Metric.SLA_MARGIN,
                                seconds(now, deadline),
                                Metric.SLA_MISSED,
                                ScheduleWindow.breached(deadline, now) ? 1 : 0));
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toMillis() / 1000.0;
    }
}
