package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.RunLogKey;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code notifyDownstream}: one {@code cascade} marker per downstream pipeline (from the downstream index, no scan),
 * same schedule and date, keyed by the upstream run so a repeat writes nothing new. When the upstream re-processed a
 * day it had already completed, the markers are replays: the downstreams' outputs are stale too.
 */
public final class NotifyDownstream implements Action {

    /** Always-present payload: {@code "<pipeline>/<schedule>"} of every downstream notified. */
    public record Payload(List<String> notified) {}

    private final Collaborators collaborators;

    public NotifyDownstream(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        if (request.runId() == null) {
            return Outcome.error("runId is required: cascade markers are keyed by the upstream run", errorPayload());
        }
        List<String> downstreams = collaborators.provider().cascade().downstreamOf(request.pipelineId());
        if (downstreams.isEmpty()) {
            return Outcome.proceed(new Payload(List.of()));
        }
        boolean replay = reprocessed(request);
        String suffix = TableKeys.cascadeMarkerSuffix(request.pipelineId(), request.runId());
        List<String> notified = new ArrayList<>();
        List<String> written = new ArrayList<>();
        for (String downstream : downstreams) {
            Marker marker = new Marker(
                    downstream,
                    request.scheduleId(),
                    request.date(),
                    MarkerSource.CASCADE,
                    suffix,
                    replay,
                    request.pipelineId(),
                    request.runId(),
                    collaborators.now());
            try {
                if (collaborators.provider().cascade().writeMarker(marker)) {
                    written.add(downstream);
                }
                notified.add(downstream + "/" + request.scheduleId());
            } catch (RuntimeException e) {
                // One unreachable downstream must not keep the others from starting; the watchdog reports it later.
                collaborators
                        .log()
                        .error(request.logContext(), "cascade marker not written", Map.of("downstream", downstream), e);
            }
        }
        if (!written.isEmpty()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("downstream", written);
            details.put("replay", replay);
            collaborators.record(
                    request,
                    EventKind.CASCADE_NOTIFIED,
                    "NOTIFIED",
                    "cascade markers written for " + String.join(", ", written),
                    details);
        }
        return Outcome.proceed(new Payload(notified));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(List.of());
    }

    /** Whether this run completed a day that an earlier run had already completed. */
    private boolean reprocessed(ActionRequest request) {
        return collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()))
                .map(log -> log.retryHistory().stream()
                        .filter(a -> a.status() == RunLogStatus.COMPLETED)
                        .map(RetryAttempt::runId)
                        .anyMatch(runId -> runId != null && !runId.equals(request.runId())))
                .orElse(false);
    }
}
