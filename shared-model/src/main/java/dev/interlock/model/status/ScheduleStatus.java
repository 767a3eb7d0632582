package dev.interlock.model.status;

import dev.interlock.model.json.Frozen;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Why one (pipeline, date, schedule) is where it is: its state, a one-line reason, what holds it back, what happens
 * next and when, and the facts behind them (window, attempts, lock, run, job, upstreams).
 *
 * @param lockHolder the execution holding the evaluation lock, null when free
 * @param runId      the day's latest run, null before the first evaluation created one
 * @param warnings   optional traits ({@code required: false}) that did not pass in the latest evaluation: shown,
 *                   never holding the day back and never alerting
 * @param proceededWithout the traits the day's run went on without past its readiness rule's {@code proceedAt} (the
 *                   run's while it runs, else the run log's): empty when it was fully ready
 * @param sla        how the day stands against its SLA deadline, and which downstream days it holds back; null when
 *                   it is held to no deadline or not run
 * @param monitoring the watch for late data after completion while it lasts (state {@link DayState#MONITORING}), else
 *                   null
 * @param forced     who forced the day ready and why, when its run started only because of that (the run's while it
 *                   runs, else the run log's); null otherwise, and absent from the JSON
 * @param postRun    the day's latest post-run check verdict (its {@code POST_RUN_CHECKED} event); null when no run of
 *                   the day was checked, and absent from the JSON
 */
public record ScheduleStatus(
        String scheduleId,
        DayState state,
        String reason,
        List<BlockingTrait> blocking,
        NextAction nextAction,
        Deadline deadline,
        Window window,
        Attempts attempts,
        String lockHolder,
        String runId,
        String runStatus,
        Job job,
        Instant lastEvaluatedAt,
        List<Upstream> upstreams,
        List<DryRunRecord> dryRun,
        List<BlockingTrait> warnings,
        List<String> proceededWithout,
        SlaFlag sla,
        Monitoring monitoring,

        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        dev.interlock.model.force.Forced forced,

        @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
        PostRun postRun) {

    public ScheduleStatus {
        blocking = Frozen.list(blocking);
        proceededWithout = Frozen.list(proceededWithout);
        warnings = Frozen.list(warnings);
        upstreams = Frozen.list(upstreams);
        dryRun = Frozen.list(dryRun);
    }

    /** This day as a paused pipeline's idle day shows it: PAUSED for {@code reason}, resumed next, no SLA flag. */
    public ScheduleStatus paused(String reason) {
        return new ScheduleStatus(
                scheduleId,
                DayState.PAUSED,
                reason,
                blocking,
                new NextAction("resume", null),
                deadline,
                window,
                attempts,
                lockHolder,
                runId,
                runStatus,
                job,
                lastEvaluatedAt,
                upstreams,
                dryRun,
                warnings,
                proceededWithout,
                null,
                monitoring,
                forced,
                postRun);
    }

    /**
     * What a dry-run pipeline's day would have done, oldest first: its {@code DRY_RUN_*} events (would trigger, would
     * rerun, each SLA deadline met or missed, would be exhausted, would alert). Empty for other pipelines.
     */
    public record DryRunRecord(String kind, String status, String message, Instant at) {}

    /**
     * A trait that holds the day back: a required trait that did not pass in the latest evaluation.
     *
     * @param value what the evaluator observed (e.g. the sensor's fields), null when it reported nothing
     */
    public record BlockingTrait(
            String traitType, String status, String reason, Map<String, Object> value, Instant evaluatedAt) {
        public BlockingTrait {
            value = value == null ? null : Frozen.map(value);
        }
    }

    /** What Interlock does next for this day and when ({@code at} null when it waits for something outside it). */
    public record NextAction(String what, Instant at) {}

    /** The deadline that matters now, and whether it has passed. */
    public record Deadline(String what, Instant at, boolean breached) {}

    /** The schedule's window on this date, in its zone. */
    public record Window(
            String zone,
            Instant opensAt,
            Instant evaluationDeadline,
            Instant validationDeadline,
            Instant completionDeadline) {}

    /** Terminal failures counted against the retry policy, and how many it allows. */
    public record Attempts(int used, int max) {}

    /**
     * The job the run started: its trigger type, the job system's id, a link where one can be built from what the
     * job reported, and every id it reported.
     */
    public record Job(String type, String id, String link, Map<String, String> metadata) {
        public Job {
            metadata = Frozen.map(metadata);
        }
    }

    /**
     * Monitoring after completion, as its loop recorded it: when the monitored job completed, when the watch ends, and
     * when its next round re-evaluates the traits (null when not known).
     */
    public record Monitoring(String runId, Instant startedAt, Instant endsAt, Instant nextRoundAt) {}

    /**
     * The post-run checks ({@code postRun}, docs/post-run-checks.md) of the day's latest checked run, as its
     * {@code POST_RUN_CHECKED} event recorded them: a day FAILED by {@code VERIFICATION} says here which check failed
     * and why.
     *
     * @param verdict {@code PASSED} (every required check passed) or {@code FAILED}
     * @param checks  every check in {@code postRun} order
     */
    public record PostRun(String runId, String verdict, Instant at, List<Check> checks) {
        public PostRun {
            checks = Frozen.list(checks);
        }

        /**
         * One check's verdict.
         *
         * @param status PASS, FAIL or ERROR (a trait verdict's status)
         * @param reason why it did not pass (the evaluator's reason), null when it gave none
         */
        public record Check(String name, String status, boolean required, String reason) {}
    }

    /** An upstream this schedule waits for, with its own state for the same date. */
    public record Upstream(String pipelineId, String scheduleId, DayState state, String reason) {}
}
