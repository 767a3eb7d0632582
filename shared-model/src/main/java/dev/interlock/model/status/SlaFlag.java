package dev.interlock.model.status;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;

/**
 * Whether one (pipeline, date, schedule) keeps its SLA (docs/operations.md, "SLA flag"): the day is held to its
 * completion deadline ({@code schedules[].deadline}, else {@code sla.completionDeadline}), else to its evaluation
 * deadline ({@code sla.evaluationDeadline}); a day with neither has no flag. Done means completed for the completion
 * deadline, triggered for the evaluation deadline.
 *
 * @param state    on track, at risk or missed
 * @param what     which deadline: {@code completion} or {@code evaluation}
 * @param deadline the deadline (UTC)
 * @param margin   ISO-8601 duration, signed: time left before the deadline (or to spare, when done in time), negative
 *                 by how late the day is (or was); null when a done day's time is unknown
 * @param marginSeconds the margin in seconds (null with it)
 * @param delays   the downstream pipeline days a late day holds back (only while it is not done and at risk or missed)
 */
public record SlaFlag(
        SlaState state, String what, Instant deadline, String margin, Long marginSeconds, List<DelayedDay> delays) {

    /**
     * A day not done is at risk when its deadline is at most this far away: long enough to act on (look at the blocking
     * trait, nudge the upstream) before the page goes out, short enough not to flag a normal morning.
     */
    public static final Duration AT_RISK_WITHIN = Duration.ofMinutes(30);

    public SlaFlag {
        delays = Frozen.list(delays);
    }

    /** A downstream pipeline's day that waits for a late upstream day. */
    public record DelayedDay(String pipelineId, LocalDate date) {}

    /**
     * The flag of a day in {@code state} at {@code now}; null when the day is held to no deadline or is not run
     * (excluded, skipped, a dry run, or a window that opened before the schedule was registered: forward-only days are
     * never held to a deadline that passed before they existed).
     *
     * @param triggeredAt when the day's run started (null: not yet, or unknown)
     * @param completedAt when the day's job completed (null: not yet, or unknown)
     * @param downstreams the pipelines that wait for this one (their days of the same date are delayed)
     */
    public static SlaFlag of(
            DayState state,
            ScheduleWindow window,
            Instant triggeredAt,
            Instant completedAt,
            Instant now,
            List<String> downstreams) {
        if (state == DayState.EXCLUDED
                || state == DayState.SKIPPED
                || state == DayState.DRY_RUN
                || state == DayState.BEFORE_REGISTRATION) {
            return null;
        }
        boolean completion = window.completionDeadline() != null;
        Instant deadline = completion ? window.completionDeadline() : window.evaluationDeadline();
        if (deadline == null) {
            return null;
        }
        String what = completion ? "completion" : "evaluation";
        boolean completed = state == DayState.COMPLETED || state == DayState.MONITORING;
        boolean done = completion ? completed : completed || state == DayState.TRIGGERING || state == DayState.RUNNING;
        if (done) {
            Instant doneAt = completion ? completedAt : triggeredAt;
            if (doneAt == null) {
                return new SlaFlag(SlaState.ON_TRACK, what, deadline, null, null, List.of());
            }
            Duration margin = Duration.between(doneAt, deadline);
            SlaState judged = ScheduleWindow.breached(deadline, doneAt) ? SlaState.MISSED : SlaState.ON_TRACK;
            return new SlaFlag(judged, what, deadline, margin.toString(), margin.getSeconds(), List.of());
        }
        Duration left = Duration.between(now, deadline);
        SlaState judged = ScheduleWindow.breached(deadline, now)
                ? SlaState.MISSED
                : left.compareTo(AT_RISK_WITHIN) <= 0 ? SlaState.AT_RISK : SlaState.ON_TRACK;
        List<DelayedDay> delays = judged == SlaState.ON_TRACK
                ? List.of()
                : downstreams.stream()
                        .map(d -> new DelayedDay(d, window.date()))
                        .toList();
        return new SlaFlag(judged, what, deadline, left.toString(), left.getSeconds(), delays);
    }
}
