package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;

import java.util.Map;

/**
 * Hands an execution's remaining work to a new execution when its own time budget cannot hold it: a successor marker,
 * keyed by the handing execution so a retried call writes it once, whose stream INSERT starts the successor.
 */
final class Successors {

    private final Collaborators collaborators;

    Successors(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Writes the successor marker (once) and answers the execution it starts. */
    String handOver(ActionRequest request, MarkerSource source, String predecessor, boolean replay) {
        Marker marker = Marker.handOver(request.pipelineId(), request.scheduleId(), request.date(), source, predecessor, replay,
                collaborators.now());
        if (collaborators.provider().cascade().writeMarker(marker)) {
            collaborators.record(request, EventKind.MARKER_WRITTEN, source.wireName().toUpperCase(java.util.Locale.ROOT),
                    "successor marker written for " + predecessor, Map.of("successorExecution", marker.executionName()));
        }
        return marker.executionName();
    }
}
