package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import java.util.Map;

/**
 * Hands an execution's remaining work to a new execution when its own time budget cannot hold it: a successor marker,
 * keyed by the handing execution so a retried call writes it once, whose stream INSERT starts the successor. A rerun
 * the handing execution serves passes to the successor with the work, so its outcome is the successor's and the
 * handing execution's end does not settle it.
 */
final class Successors {

    private final Collaborators collaborators;

    Successors(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Writes the successor marker (once) and answers the execution it starts. */
    String handOver(ActionRequest request, MarkerSource source, String predecessor, boolean replay) {
        Marker marker = Marker.handOver(
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                source,
                predecessor,
                replay,
                collaborators.now());
        if (collaborators.provider().cascade().writeMarker(marker)) {
            collaborators.record(
                    request,
                    EventKind.MARKER_WRITTEN,
                    source.wireName().toUpperCase(java.util.Locale.ROOT),
                    "successor marker written for " + predecessor,
                    Map.of("successorExecution", marker.executionName()));
        }
        if (replay) {
            passRerun(request, predecessor, marker.executionName());
        }
        return marker.executionName();
    }

    private void passRerun(ActionRequest request, String predecessor, String successor) {
        // Found by the predecessor's name only until it has passed: a retried call finds nothing and writes nothing.
        collaborators
                .provider()
                .reruns()
                .forExecution(request.pipelineId(), request.date(), request.scheduleId(), predecessor)
                .filter(rerun -> !rerun.status().isTerminal())
                .ifPresent(rerun -> {
                    Map<String, Object> details = new java.util.LinkedHashMap<>();
                    details.put("rerunId", rerun.rerunId());
                    details.put("from", rerun.status().wireName());
                    details.put("executionName", predecessor);
                    details.put("successorExecution", successor);
                    collaborators
                            .provider()
                            .moveRerun(
                                    rerun.status(),
                                    rerun.handedOverTo(successor, collaborators.now()),
                                    collaborators.event(
                                            request,
                                            EventKind.RERUN_STATUS_CHANGED,
                                            rerun.status().wireName(),
                                            "rerun " + rerun.rerunId() + " passed from " + predecessor + " to "
                                                    + successor,
                                            details));
                });
    }
}
