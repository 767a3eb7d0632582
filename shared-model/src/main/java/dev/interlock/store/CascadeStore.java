package dev.interlock.store;

import dev.interlock.model.marker.Marker;
import java.time.LocalDate;
import java.util.List;

/**
 * Markers (whose stream INSERT starts one evaluation) and the downstream index the cascade reads. Writers that may
 * run twice choose a deterministic suffix ({@code TableKeys.cascadeMarkerSuffix}, {@code scheduleMarkerSuffix}) so
 * the second write changes nothing.
 */
public interface CascadeStore {

    /**
     * Writes a marker only if none with its key exists. Returns true when it was created now; false means the same
     * marker was already written (one item, one stream INSERT, one execution).
     */
    boolean writeMarker(Marker marker);

    /** The unexpired markers of a pipeline for one execution date (the watchdog's "already started today?"). */
    List<Marker> markers(String pipelineId, LocalDate date);

    /** The pipelines that name {@code upstreamPipelineId} as an upstream, in name order. */
    List<String> downstreamOf(String upstreamPipelineId);
}
