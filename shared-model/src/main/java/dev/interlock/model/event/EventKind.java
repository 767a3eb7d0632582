package dev.interlock.model.event;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** What an event records; events are the per-pipeline audit trail. */
public enum EventKind implements WireEnum {
    TRAIT_EVALUATED("TRAIT_EVALUATED"),
    READINESS_CHECKED("READINESS_CHECKED"),
    RUN_STATE_CHANGED("RUN_STATE_CHANGED"),
    TRIGGER_FIRED("TRIGGER_FIRED"),
    TRIGGER_FAILED("TRIGGER_FAILED"),
    RETRY_SCHEDULED("RETRY_SCHEDULED"),
    RETRY_EXHAUSTED("RETRY_EXHAUSTED"),
    VALIDATION_EXHAUSTED("VALIDATION_EXHAUSTED"),
    SLA_BREACHED("SLA_BREACHED"),
    EXCLUDED("EXCLUDED"),
    CASCADE_NOTIFIED("CASCADE_NOTIFIED"),
    MARKER_WRITTEN("MARKER_WRITTEN"),
    RERUN_REQUESTED("RERUN_REQUESTED"),
    RERUN_STATUS_CHANGED("RERUN_STATUS_CHANGED"),
    MONITORING_STARTED("MONITORING_STARTED"),
    /**
     * Monitoring after completion waits for its next round (written before every monitoring wait; status
     * {@code STARTED} for an execution's first, else {@code WAITING}). Details: {@code monitoringStartedAt},
     * {@code monitoringEndsAt}, {@code nextRoundAt}, {@code intervalSeconds}: what the day's status shows.
     */
    MONITORING_WAITING("MONITORING_WAITING"),
    MONITORING_DRIFT_DETECTED("MONITORING_DRIFT_DETECTED"),
    MONITORING_COMPLETED("MONITORING_COMPLETED"),
    LATE_ARRIVAL_DETECTED("LATE_ARRIVAL_DETECTED"),
    DRY_RUN_WOULD_TRIGGER("DRY_RUN_WOULD_TRIGGER"),
    /**
     * Dry run ({@link DryRunShadow}): the day became ready again after it would have run, so new data would start a
     * late-arrival rerun.
     */
    DRY_RUN_WOULD_RERUN("DRY_RUN_WOULD_RERUN"),
    /** Dry run: the day became ready before an SLA deadline (details: {@code deadline}, {@code sla}). */
    DRY_RUN_SLA_MET("DRY_RUN_SLA_MET"),
    /** Dry run: an SLA deadline would be missed; the alert it would send is in the details, not on the topic. */
    DRY_RUN_SLA_MISSED("DRY_RUN_SLA_MISSED"),
    /**
     * Dry run: the wait for data would end FAILED (the validation deadline, or a required trait's PERMANENT error);
     * no FAILED run log is written and no alert is sent.
     */
    DRY_RUN_WOULD_BE_EXHAUSTED("DRY_RUN_WOULD_BE_EXHAUSTED"),
    /** Dry run: any other alert the day would send (details: {@code alertKind}); nothing reaches the topic. */
    DRY_RUN_WOULD_ALERT("DRY_RUN_WOULD_ALERT"),
    SENSOR_UPDATED("SENSOR_UPDATED"),
    /**
     * An OpenLineage run event of a job (or dataset) this pipeline's {@code lineage-complete} trait waits for was
     * received at {@code POST /lineage}: status {@code EVALUATION_STARTED}, or {@code SKIPPED} with the reason (an
     * event other than COMPLETE, a paused pipeline, a window not open, a day already COMPLETED).
     */
    LINEAGE_RECEIVED("LINEAGE_RECEIVED"),
    /** A marker met the lock of a holder that will evaluate the day again anyway: its work is the holder's now. */
    MARKER_ABSORBED("MARKER_ABSORBED"),
    /** A marker met a held lock and waits to run after the holder releases it. */
    MARKER_DEFERRED("MARKER_DEFERRED"),
    /** An execution out of time budget handed its work to a new execution (a successor marker). */
    EXECUTION_HANDED_OVER("EXECUTION_HANDED_OVER"),
    /** An operator released a lock (audit: who, which holder, why). */
    LOCK_RELEASED("LOCK_RELEASED"),
    /** An operator muted this pipeline's (or its team's) alerts for a window (audit: scope, window, who, why). */
    MUTED("MUTED"),
    /** An operator lifted a mute before it ended (audit: which mute, who, why). */
    UNMUTED("UNMUTED"),
    /** An operator paused the pipeline: no new execution starts until it is resumed (audit: who, why). */
    PAUSED("PAUSED"),
    /**
     * An operator resumed the pipeline, forward-only (audit: who, why, how long it was paused, and the windows that
     * opened meanwhile and were not run: {@code missedWindows}).
     */
    RESUMED("RESUMED"),
    /**
     * An operator asked for a backfill (audit: who, why, the range, mode, concurrency, cascade and how many days it
     * runs and skips); a pipeline event, with no day.
     */
    BACKFILL_REQUESTED("BACKFILL_REQUESTED"),
    /**
     * A day of a backfill moved (status {@code RUNNING} when the backfill started it, or its end: {@code COMPLETED},
     * {@code FAILED}, {@code SKIPPED} with the reason); an event of that day naming the backfill.
     */
    BACKFILL_DAY("BACKFILL_DAY"),
    /** An operator cancelled a backfill (audit: who, why): its pending days are skipped, its running days finish. */
    BACKFILL_CANCELLED("BACKFILL_CANCELLED"),
    /** A backfill ended (status {@code COMPLETED} or {@code CANCELLED}); the message sums its days up. */
    BACKFILL_FINISHED("BACKFILL_FINISHED"),
    /**
     * A completion did not wake the pipeline's downstreams because the backfill it served runs without cascade (the
     * downstream pipelines are named in the details).
     */
    CASCADE_HELD("CASCADE_HELD"),
    /**
     * An alert of this day was not published because a mute covered it ({@link MuteEvents}): the alert is in the
     * details with the mute that silenced it; or (status {@code PAUSED}) a deadline of a paused pipeline passed and
     * its {@code SLA_MISSED} was not sent ({@link PauseEvents}).
     */
    ALERT_MUTED("ALERT_MUTED"),
    /**
     * An execution found that it no longer holds its day's lock (released by an operator, expired, taken over) when it
     * was about to trigger, create a run or write the run log: nothing was written, and it stops.
     */
    LOCK_LOST("LOCK_LOST"),
    /**
     * An execution took over the unfinished run of an execution that died with its job started (aborted, timed out):
     * it follows that job instead of starting a second one beside it.
     */
    RUN_ADOPTED("RUN_ADOPTED"),
    /** A job outlived its poll window; it is still followed, up to the pipeline's maximum job duration. */
    RUN_OVERDUE("RUN_OVERDUE"),
    /** A job ran longer than the pipeline's maximum job duration and was asked to stop. */
    RUN_CANCEL_REQUESTED("RUN_CANCEL_REQUESTED"),
    /** A gate (exclusion, lock, run log) could not decide; the execution failed on it. */
    GATE_ERROR("GATE_ERROR"),
    /**
     * The stream router started no execution for a marker item: it is unreadable (status {@code UNREADABLE}, e.g. a
     * date that is no date), older than {@code STALE_MARKER_DAYS} and no replay ({@code STALE}), or its pipeline is
     * paused ({@code PAUSED}, naming who paused it and why). The message says why.
     */
    MARKER_SKIPPED("MARKER_SKIPPED"),
    /** The run-log gate turned an evaluation away (already completed, no attempts left, not retryable). */
    EVALUATION_SKIPPED("EVALUATION_SKIPPED"),
    /**
     * No job-state event ended a callback wait by its check time: the watchdog asked the job system, found the job
     * ended and completed the wait itself (the event was lost or late). Details name the reason and the job.
     */
    JOB_EVENT_RECOVERED("JOB_EVENT_RECOVERED"),
    /**
     * The watchdog's callback check asked the job system about a waited-for job and was refused for good (PERMANENT:
     * the job is unknown to it, access denied): the run is not decided on it (its wait's own timeout and fallback poll
     * still do), the check is asked again later, and a {@code JOB_CHECK_FAILED} alert goes out once a day.
     */
    JOB_CHECK_FAILED("JOB_CHECK_FAILED"),
    /**
     * A job's end came for a wait that had already ended (the job-state event and the watchdog both completed it, or
     * the execution moved on): the run kept its recorded outcome and nothing else changed.
     */
    JOB_WAIT_ALREADY_ENDED("JOB_WAIT_ALREADY_ENDED"),
    /**
     * A job ended after the execution that waited for it was gone (aborted, timed out, failed, or no longer holding the
     * day's lock): its job-state event or the watchdog's callback check recorded the day's end as the execution would
     * have (run log, completion SLA check, cascade). Details name who learned it.
     */
    JOB_END_RECORDED("JOB_END_RECORDED"),
    /**
     * A job succeeded after Interlock had recorded its run FAILED (e.g. TIMEOUT) and its execution had ended: the run
     * and the day are COMPLETED after all, and the day cascades (alert {@code JOB_SUCCEEDED_LATE}).
     */
    JOB_SUCCEEDED_LATE("JOB_SUCCEEDED_LATE"),
    /**
     * A pipeline's post-run checks ({@code postRun}) were evaluated after its job reported success: status
     * {@code PASSED} (every required check passed; the day is COMPLETED) or {@code FAILED} (the run is FAILED
     * {@code VERIFICATION}); details {@code checks} (name, status, required, reason, value of each) and
     * {@code failing}.
     */
    POST_RUN_CHECKED("POST_RUN_CHECKED"),
    /**
     * The readiness rule's {@code proceedAt} had passed and every {@code essential} trait passed, so the day went on to
     * its job without the traits that did not pass: details {@code proceededWithout} (those traits), {@code essential}
     * and {@code proceedAt}; an alert {@code PROCEEDED_DEGRADED} goes with it and the run log keeps the list.
     */
    PROCEEDED_DEGRADED("PROCEEDED_DEGRADED"),
    /**
     * An operator forced one day ready ({@code POST /pipelines/{id}/days/{date}/force-ready}; the audit): details
     * {@code forcedBy}, {@code reason}, {@code expiresAt}. Its next evaluation triggers without the blocking traits.
     */
    FORCED_READY("FORCED_READY"),
    /**
     * A day that was not ready went on to its job because an operator had forced it ready: the message says who and
     * why, details {@code forcedBy}, {@code reason}, {@code forcedAt} and {@code proceededWithout} (the traits that held
     * it back); an alert {@code FORCED_READY} goes with it and the run log keeps {@code forced}.
     */
    PROCEEDED_FORCED("PROCEEDED_FORCED"),
    /**
     * An upstream window a completed rollup reads completed again (a rerun, or a window that came in after the rollup
     * ran), recorded on the rollup's day: status the rollup's {@code onUpstreamRerun} policy ({@code RERUN},
     * {@code ALERT}, {@code IGNORE}); details {@code upstreamPipeline}, {@code upstreamScheduleId},
     * {@code upstreamRunId}, {@code upstreamReprocessed} (the window had completed before) and, for a rerun,
     * {@code rerunId}.
     */
    UPSTREAM_RERUN("UPSTREAM_RERUN"),
    /**
     * An alert was sent to operators (the topic on AWS, the alert sink locally): status the alert kind, message the
     * alert's, details {@code alertKind}, {@code alertLevel} and the alert's own details ({@link AlertEvent}). One per
     * sent alert; a deduplicated repeat adds none. These events are also the alert history of {@code GET /alerts}.
     */
    ALERT_SENT("ALERT_SENT"),
    /** A task of the state machine failed in a way no state handled. */
    EXECUTION_ERROR("EXECUTION_ERROR"),
    /**
     * An OpenLineage run event of a run could not be delivered (status: its event type); the message says where to
     * and why. The run itself is not affected (docs/openlineage.md).
     */
    LINEAGE_NOT_SENT("LINEAGE_NOT_SENT");

    private final String wireName;

    EventKind(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static EventKind fromJson(String raw) {
        return WireEnum.parse(EventKind.class, raw, "event kind");
    }
}
