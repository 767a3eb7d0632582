package dev.interlock.model.marker;

/**
 * The names of a marker item's top-level attributes: the store writes them and the stream router reads them from the
 * stream record's NewImage, with no table read (docs/table-design.md). The one place they are spelt.
 */
public final class MarkerAttributes {

    /** The pipeline the marker starts (also in the partition key {@code PIPELINE#<id>}). */
    public static final String PIPELINE_ID = "pipelineId";

    /** The schedule of the day; a marker without one is the pipeline's {@code daily} schedule. */
    public static final String SCHEDULE_ID = "scheduleId";

    /** The day, {@code YYYY-MM-DD}; a marker without one is for the schedule's current day. */
    public static final String DATE = "date";

    /** Who wrote it ({@link MarkerSource#wireName()}); a marker without one takes it from its sort key. */
    public static final String SOURCE = "source";

    /** Whether the execution proceeds over a COMPLETED day and a stale date. */
    public static final String REPLAY = "replay";

    /** The state a monitoring successor resumes with, a JSON object as a string. */
    public static final String CARRIED = "carried";

    private MarkerAttributes() {}
}
