package dev.interlock.model.rollup;

import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/**
 * What a completed rollup does when one of its upstream periods completes again (a rerun, a late window):
 * {@code onUpstreamRerun} of a rollup (docs/pipeline-reference.md, "Rollups"). Every policy records an event.
 */
public enum RerunPolicy implements WireEnum {
    /** Process the rollup's day again: a rerun, within the day's rerun budget. */
    RERUN("rerun"),
    /** Tell on-call: an {@code UPSTREAM_RERUN} alert; the rollup keeps its output. */
    ALERT("alert"),
    /** Only the event: the rollup keeps its output and nobody is paged. */
    IGNORE("ignore");

    private final String wireName;

    RerunPolicy(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a policy; unknown values are rejected with the allowed list. */
    public static RerunPolicy parse(String raw) {
        return WireEnum.parse(RerunPolicy.class, raw, "onUpstreamRerun");
    }
}
