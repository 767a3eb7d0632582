package dev.interlock.jobs;

import java.util.Objects;

/**
 * What a resumed start ({@link TriggerRequest#resumed()}) found out about the start of an earlier attempt of the same
 * run, which died between its claim and the record of its job. The trigger writes it on its {@code TRIGGER_FIRED}
 * event, so the audit trail says whether the job was found and followed or started now — nothing is decided silently.
 *
 * @param finding what the runner found
 * @param how     how it asked, in the job system's own terms (e.g. {@code glue GetJobRuns by --interlock-run-id})
 */
public record EarlierStart(Finding finding, String how) {

    public EarlierStart {
        Objects.requireNonNull(finding, "finding");
        Objects.requireNonNull(how, "how");
    }

    /** What a resumed start found. */
    public enum Finding {
        /** The earlier attempt had started the job: the result is that job, and nothing was started now. */
        FOUND,
        /** The job system knows no start of this run: the result is the job started now. */
        NONE,
        /**
         * Started with the run's idempotency token: the job system answers an earlier start of the run with that job
         * instead of starting a second, and does not say which of the two it was.
         */
        BY_TOKEN
    }

    public static EarlierStart found(String how) {
        return new EarlierStart(Finding.FOUND, how);
    }

    public static EarlierStart none(String how) {
        return new EarlierStart(Finding.NONE, how);
    }

    public static EarlierStart byToken(String how) {
        return new EarlierStart(Finding.BY_TOKEN, how);
    }
}
