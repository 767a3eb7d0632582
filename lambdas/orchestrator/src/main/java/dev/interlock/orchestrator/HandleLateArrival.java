package dev.interlock.orchestrator;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.rerun.LateArrival;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.store.RerunAcceptance;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code handleLateArrival}: records the drifted traits as late arrivals and asks for the day to be processed again: a
 * rerun record {@code rerun-<runId>}, its {@code replay} marker and its event, accepted all or nothing against the
 * day's rerun budget by the same atomic, budget-gated write as the API's reruns ({@code Provider.acceptRerun}), so the
 * two together never exceed it. A refused rerun is recorded SKIPPED with the reason, and no marker is written. The
 * lock is released before the marker is written, so the replay execution is not turned away as "lock held".
 */
public final class HandleLateArrival implements Action {

    /** Always-present payload; {@code rerunId} is {@code ""} when none was recorded. */
    public record Payload(boolean rerunRequested, String rerunId) {}

    /** Request payload. */
    record Request(List<String> drifted) {}

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
            // A repeated call: the first one wrote the rerun and its marker together; answer as it did.
            releaseLock(request);
            // Only a refused rerun has no execution.
            return existing.get().executionName() == null
                    ? Outcome.skip(existing.get().statusReason(), new Payload(false, rerunId))
                    : Outcome.proceed(new Payload(true, rerunId));
        }
        Instant now = collaborators.now();
        Map<String, Object> metadata = Map.of("drifted", drifted);
        Marker marker = Marker.rerun(
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                MarkerSource.LATE_ARRIVAL,
                rerunId,
                request.runId(),
                now);
        Rerun rerun = Rerun.requested(
                rerunId,
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                MarkerSource.LATE_ARRIVAL,
                request.runId(),
                "late arrival detected: " + String.join(", ", drifted),
                null,
                marker.executionName(),
                now,
                metadata);
        releaseLock(request);
        int budget = collaborators.settings().maxRerunsPerDay();
        return switch (collaborators
                .provider()
                .acceptRerun(rerun, marker, requested(request, rerun, RerunStatus.PENDING, rerun.reason()), budget)) {
            case RerunAcceptance.Accepted accepted -> Outcome.proceed(new Payload(true, rerunId));
            case RerunAcceptance.BudgetSpent spent -> {
                String reason = "rerun budget spent (" + spent.used() + " of " + budget + " reruns today)";
                // Recorded without an execution: the refused rerun never had a marker.
                Rerun refused = new Rerun(
                        rerunId,
                        rerun.pipelineId(),
                        rerun.scheduleId(),
                        rerun.date(),
                        rerun.source(),
                        rerun.originalRunId(),
                        rerun.reason(),
                        null,
                        RerunStatus.SKIPPED,
                        reason,
                        null,
                        null,
                        now,
                        now,
                        now,
                        metadata);
                collaborators
                        .provider()
                        .moveRerun(null, refused, requested(request, refused, RerunStatus.SKIPPED, reason));
                yield Outcome.skip(reason, new Payload(false, rerunId));
            }
            case RerunAcceptance.MarkerExists exists ->
                Outcome.error(
                        "the replay marker of " + rerunId
                                + " exists but its rerun does not (expired?); no rerun requested",
                        errorPayload());
        };
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, "");
    }

    private Event requested(ActionRequest request, Rerun rerun, RerunStatus status, String message) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("rerunId", rerun.rerunId());
        details.put("drifted", rerun.metadata().get("drifted"));
        if (rerun.executionName() != null) {
            details.put("executionName", rerun.executionName());
        }
        return collaborators.event(request, EventKind.RERUN_REQUESTED, status.wireName(), message, details);
    }

    /** This execution's lock, released by owner (a no-op when it is already released or held by another). */
    private void releaseLock(ActionRequest request) {
        if (request.executionName() != null) {
            collaborators.provider().locks().release(LockOwner.key(request), request.executionName());
        }
    }

    private void recordLateArrivals(ActionRequest request, List<String> drifted) {
        Set<String> known =
                collaborators
                        .provider()
                        .lateArrivals()
                        .list(request.pipelineId(), request.date(), request.scheduleId())
                        .stream()
                        .filter(l -> request.runId().equals(l.runId()))
                        .map(LateArrival::traitType)
                        .collect(Collectors.toSet());
        Instant now = collaborators.now();
        int offset = 0;
        for (String traitType : drifted) {
            if (known.contains(traitType)) {
                continue;
            }
            // Late-arrival items are keyed by millisecond: one millisecond apart keeps several traits of one call
            // apart.
            Instant detectedAt = now.plusMillis(offset++);
            collaborators
                    .provider()
                    .lateArrivals()
                    .put(new LateArrival(
                            request.pipelineId(),
                            request.date(),
                            request.scheduleId(),
                            traitType,
                            request.runId(),
                            null,
                            null,
                            0,
                            detectedAt));
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("traitType", traitType);
            collaborators.record(
                    request,
                    EventKind.LATE_ARRIVAL_DETECTED,
                    "DRIFT",
                    "late arrival: " + traitType + " changed after completion",
                    details);
        }
    }
}
