package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code handleLateArrival}: records the drifted traits as late arrivals and asks for the day to be processed again:
 * a rerun record {@code rerun-<runId>} and a {@code replay} marker, unless the day's rerun budget is spent (then the
 * rerun is recorded REJECTED and no marker is written). The lock is released before the marker is written, so the
 * replay execution is not turned away as "lock held".
 */
public final class HandleLateArrival implements Action {

    /** Always-present payload; {@code rerunId} is {@code ""} when none was recorded. */
    public record Payload(boolean rerunRequested, String rerunId) {
    }

    /** Request payload. */
    record Request(List<String> drifted) {
    }

    private final Collaborators collaborators;

    public HandleLateArrival(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        if (request.runId() == null) {
            return Outcome.error("runId is required: the rerun is named after the run that drifted", errorPayload());
        }
        if (collaborators.pipeline(request).isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        List<String> drifted = request.payload(Request.class).drifted();
        drifted = drifted == null ? List.of() : drifted;
        recordLateArrivals(request, drifted);
        String rerunId = "rerun-" + request.runId();
        Optional<Rerun> existing = collaborators.provider().reruns().get(rerunId);
        if (existing.isPresent()) {
            // A repeated call: answer as the first one did, re-writing the (idempotent) marker if it asked for one.
            if (existing.get().status() == RerunStatus.REJECTED) {
                return Outcome.skip(existing.get().reason(), new Payload(false, rerunId));
            }
            requestReplay(request, existing.get());
            return Outcome.proceed(new Payload(true, rerunId));
        }
        int used = collaborators.provider().reruns().count(request.pipelineId(), request.date(), request.scheduleId());
        int budget = collaborators.settings().maxRerunsPerDay();
        Instant now = collaborators.now();
        Map<String, Object> metadata = Map.of("drifted", drifted);
        if (used >= budget) {
            String reason = "rerun budget spent (" + used + " of " + budget + " reruns today)";
            collaborators.provider().reruns().put(new Rerun(rerunId, request.pipelineId(), request.scheduleId(), request.date(),
                    MarkerSource.LATE_ARRIVAL, request.runId(), reason, null, RerunStatus.REJECTED, null, now, null, metadata));
            collaborators.record(request, EventKind.RERUN_REQUESTED, RerunStatus.REJECTED.wireName(), reason, metadata);
            return Outcome.skip(reason, new Payload(false, rerunId));
        }
        Rerun rerun = new Rerun(rerunId, request.pipelineId(), request.scheduleId(), request.date(), MarkerSource.LATE_ARRIVAL,
                request.runId(), "late arrival detected: " + String.join(", ", drifted), null, RerunStatus.PENDING, null, now,
                null, metadata);
        collaborators.provider().reruns().put(rerun);
        collaborators.record(request, EventKind.RERUN_REQUESTED, RerunStatus.PENDING.wireName(), rerun.reason(), metadata);
        requestReplay(request, rerun);
        return Outcome.proceed(new Payload(true, rerunId));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, "");
    }

    private void recordLateArrivals(ActionRequest request, List<String> drifted) {
        Set<String> known = collaborators.provider().lateArrivals()
                .list(request.pipelineId(), request.date(), request.scheduleId()).stream()
                .filter(l -> request.runId().equals(l.runId()))
                .map(LateArrival::traitType)
                .collect(Collectors.toSet());
        Instant now = collaborators.now();
        int offset = 0;
        for (String traitType : drifted) {
            if (known.contains(traitType)) {
                continue;
            }
            // Late-arrival items are keyed by millisecond: one millisecond apart keeps several traits of one call apart.
            Instant detectedAt = now.plusMillis(offset++);
            collaborators.provider().lateArrivals().put(new LateArrival(request.pipelineId(), request.date(),
                    request.scheduleId(), traitType, request.runId(), null, null, 0, detectedAt));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("traitType", traitType);
            collaborators.record(request, EventKind.LATE_ARRIVAL_DETECTED, "DRIFT",
                    "late arrival: " + traitType + " changed after completion", details);
        }
    }

    private void requestReplay(ActionRequest request, Rerun rerun) {
        if (request.executionName() != null) {
            collaborators.provider().locks().release(LockOwner.key(request), request.executionName());
        }
        Marker marker = new Marker(request.pipelineId(), request.scheduleId(), request.date(), MarkerSource.LATE_ARRIVAL,
                rerun.rerunId(), true, MarkerSource.LATE_ARRIVAL.wireName(), request.runId(), collaborators.now());
        if (collaborators.provider().cascade().writeMarker(marker)) {
            collaborators.record(request, EventKind.MARKER_WRITTEN, "REPLAY", "replay marker written for " + rerun.rerunId(),
                    Map.of("rerunId", rerun.rerunId()));
        }
    }
}
