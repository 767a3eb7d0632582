package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.marker.ExecutionName;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rollup.CascadeTargets;
import dev.interlock.model.rollup.RerunPolicy;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.store.RerunAcceptance;
import dev.interlock.store.RunLogKey;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code notifyDownstream}: one {@code cascade} marker per downstream pipeline (from the downstream index, no scan),
 * same schedule and date, keyed by the upstream run so a repeat writes nothing new. When the upstream re-processed a
 * day it had already completed, the markers are replays: the downstreams' outputs are stale too. A downstream that
 * rolls this upstream up ({@link CascadeTargets}) is notified on each of its windows of the date; once such a window
 * has COMPLETED, a completion of one of its upstream windows follows the rollup's {@code onUpstreamRerun} policy
 * instead of a marker (docs/pipeline-reference.md, "Rollups").
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
        Optional<dev.interlock.model.run.RunState> failed = collaborators
                .provider()
                .runs()
                .get(request.runId())
                .filter(r -> r.status() == dev.interlock.model.run.RunStatus.FAILED);
        if (failed.isPresent()) {
            // A job that succeeded but failed its post-run checks (VERIFICATION) is no completion to cascade.
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("downstream", downstreams);
            details.put(
                    "failureCategory",
                    failed.get().failureCategory() == null
                            ? ""
                            : failed.get().failureCategory().wireName());
            collaborators.record(
                    request,
                    EventKind.CASCADE_HELD,
                    "NOT_COMPLETED",
                    "run " + request.runId() + " is FAILED: " + String.join(", ", downstreams) + " not woken",
                    details);
            return Outcome.proceed(new Payload(List.of()));
        }
        Optional<Rerun> held = heldBackfillDay(request);
        if (held.isPresent()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("backfillId", held.get().backfillId());
            details.put("downstream", downstreams);
            collaborators.record(
                    request,
                    EventKind.CASCADE_HELD,
                    "HELD",
                    "backfill " + held.get().backfillId() + " runs without cascade: " + String.join(", ", downstreams)
                            + " not woken",
                    details);
            return Outcome.proceed(new Payload(List.of()));
        }
        boolean replay = reprocessed(request);
        String suffix = TableKeys.cascadeMarkerSuffix(request.pipelineId(), request.runId());
        List<String> notified = new ArrayList<>();
        List<String> written = new ArrayList<>();
        List<String> notYetOpen = new ArrayList<>();
        for (String downstream : downstreams) {
            try {
                Optional<PipelineConfig> config =
                        collaborators.provider().pipelines().get(downstream);
                for (CascadeTargets.Target target : targets(downstream, config, request)) {
                    if (target.rollup().isPresent() && !opened(config.orElseThrow(), target, request)) {
                        // The watchdog starts the rollup's window when it opens; its rounds then count this window.
                        notYetOpen.add(downstream + "/" + target.scheduleId());
                        continue;
                    }
                    if (target.rollup().isPresent() && completed(downstream, target.scheduleId(), request.date())) {
                        // The rollup already ran on this day: its policy says what an input that changed means.
                        onUpstreamRerun(request, downstream, target, replay);
                        notified.add(downstream + "/" + target.scheduleId());
                        continue;
                    }
                    Marker marker = new Marker(
                            downstream,
                            target.scheduleId(),
                            request.date(),
                            MarkerSource.CASCADE,
                            suffix,
                            // A rollup not yet complete waits for the window anyway; only its policy replays it.
                            replay && target.rollup().isEmpty(),
                            request.pipelineId(),
                            request.runId(),
                            collaborators.now());
                    if (collaborators.provider().cascade().writeMarker(marker)) {
                        written.add(target.rollup().isPresent() ? downstream + "/" + target.scheduleId() : downstream);
                    }
                    notified.add(downstream + "/" + target.scheduleId());
                }
            } catch (RuntimeException e) {
                // One unreachable downstream must not keep the others from starting; the watchdog reports it later.
                collaborators
                        .log()
                        .error(request.logContext(), "cascade marker not written", Map.of("downstream", downstream), e);
            }
        }
        if (!written.isEmpty() || !notYetOpen.isEmpty()) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("downstream", written);
            details.put("replay", replay);
            if (!notYetOpen.isEmpty()) {
                details.put("notYetOpen", notYetOpen);
            }
            collaborators.record(
                    request,
                    EventKind.CASCADE_NOTIFIED,
                    "NOTIFIED",
                    (written.isEmpty()
                                    ? "no cascade marker written"
                                    : "cascade markers written for " + String.join(", ", written))
                            + (notYetOpen.isEmpty()
                                    ? ""
                                    : "; not yet open (the watchdog starts them when they open): "
                                            + String.join(", ", notYetOpen)),
                    details);
        }
        return Outcome.proceed(new Payload(notified));
    }

    /** The downstream's windows the completed one concerns ({@link CascadeTargets}); an unknown downstream's same id. */
    private static List<CascadeTargets.Target> targets(
            String downstream, Optional<PipelineConfig> config, ActionRequest request) {
        return config.map(c -> CascadeTargets.of(c, request.pipelineId(), request.scheduleId(), request.date()))
                .orElseGet(() -> List.of(new CascadeTargets.Target(request.scheduleId(), Optional.empty())));
    }

    /** Whether the rollup's window has opened (its {@code after}); a window of another day is read as open. */
    private boolean opened(PipelineConfig config, CascadeTargets.Target target, ActionRequest request) {
        try {
            return !collaborators
                    .now()
                    .isBefore(ScheduleWindow.of(config, target.scheduleId(), request.date())
                            .opensAt());
        } catch (RuntimeException e) {
            return true; // a schedule registration now refuses: let the execution say what is wrong
        }
    }

    private boolean completed(String pipelineId, String scheduleId, LocalDate date) {
        return collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(pipelineId, date, scheduleId))
                .map(log -> log.status() == RunLogStatus.COMPLETED)
                .orElse(false);
    }

    /**
     * A window a completed rollup reads completed again: the rollup's {@code onUpstreamRerun} policy — a rerun of the
     * rollup's day (within its rerun budget, keyed by the upstream run so a repeat asks once), an
     * {@code UPSTREAM_RERUN} alert, or nothing more — and, whatever the policy, an {@code UPSTREAM_RERUN} event on the
     * rollup's day.
     */
    private void onUpstreamRerun(
            ActionRequest request, String downstream, CascadeTargets.Target target, boolean reprocessed) {
        RerunPolicy policy = target.rollup().orElseThrow().onUpstreamRerun();
        Instant now = collaborators.now();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("upstreamPipeline", request.pipelineId());
        details.put("upstreamScheduleId", request.scheduleId());
        details.put("upstreamRunId", request.runId());
        details.put("upstreamReprocessed", reprocessed);
        details.put("onUpstreamRerun", policy.wireName());
        String what = "upstream " + request.pipelineId() + " " + request.scheduleId() + " of " + request.date()
                + (reprocessed ? " was processed again" : " came in") + " after this rollup completed";
        switch (policy) {
            case RERUN -> {
                String rerunId =
                        "rollup-" + request.runId() + "-" + ExecutionName.hash8(downstream + "/" + target.scheduleId());
                if (collaborators.provider().reruns().get(rerunId).isPresent()) {
                    return; // asked by an earlier call for this upstream run
                }
                details.put("rerunId", rerunId);
                Marker marker = Marker.rerun(
                        downstream, target.scheduleId(), request.date(), MarkerSource.CASCADE, rerunId, null, now);
                String reason = what + "; onUpstreamRerun: rerun";
                Rerun rerun = Rerun.requested(
                        rerunId,
                        downstream,
                        target.scheduleId(),
                        request.date(),
                        MarkerSource.CASCADE,
                        null,
                        reason,
                        null,
                        marker.executionName(),
                        now,
                        Map.of("upstreamPipeline", request.pipelineId(), "upstreamRunId", request.runId()));
                Event event = downstreamEvent(request, downstream, target, "RERUN", reason, details, now);
                RerunAcceptance accepted = collaborators
                        .provider()
                        .acceptRerun(
                                rerun, marker, event, collaborators.settings().maxRerunsPerDay());
                if (!(accepted instanceof RerunAcceptance.Accepted)) {
                    // The budget is spent (or the marker exists): say so on the rollup's day, and alert instead.
                    String refused = what + "; onUpstreamRerun: rerun refused ("
                            + (accepted instanceof RerunAcceptance.BudgetSpent spent
                                    ? "rerun budget spent, " + spent.used() + " reruns"
                                    : "its marker exists")
                            + ")";
                    collaborators
                            .provider()
                            .events()
                            .append(downstreamEvent(request, downstream, target, "ALERT", refused, details, now));
                    alert(request, downstream, target, refused, details);
                }
            }
            case ALERT -> {
                String message = what + "; its output may be stale (onUpstreamRerun: alert)";
                collaborators
                        .provider()
                        .events()
                        .append(downstreamEvent(request, downstream, target, "ALERT", message, details, now));
                alert(request, downstream, target, message, details);
            }
            case IGNORE ->
                collaborators
                        .provider()
                        .events()
                        .append(downstreamEvent(
                                request,
                                downstream,
                                target,
                                "IGNORE",
                                what + "; onUpstreamRerun: ignore",
                                details,
                                now));
        }
    }

    private Event downstreamEvent(
            ActionRequest request,
            String downstream,
            CascadeTargets.Target target,
            String status,
            String message,
            Map<String, Object> details,
            Instant now) {
        return new Event(
                EventKind.UPSTREAM_RERUN,
                downstream,
                target.scheduleId(),
                request.date(),
                null,
                null,
                status,
                message,
                details,
                now);
    }

    private void alert(
            ActionRequest request,
            String downstream,
            CascadeTargets.Target target,
            String message,
            Map<String, Object> details) {
        collaborators
                .alerts()
                .raise(
                        AlertKind.UPSTREAM_RERUN,
                        AlertLevel.WARNING,
                        downstream,
                        target.scheduleId(),
                        request.date(),
                        "Pipeline " + downstream + ": " + message,
                        details,
                        request.logContext());
    }

    @Override
    public Payload errorPayload() {
        return new Payload(List.of());
    }

    /** Whether this run completed a day that an earlier run had already completed. */
    /**
     * The backfill day this execution serves, when its backfill runs without cascade (its completions wake no
     * downstream); empty otherwise. One small Query of the day's reruns, made only when there are downstreams.
     */
    private Optional<Rerun> heldBackfillDay(ActionRequest request) {
        if (request.executionName() == null) {
            return Optional.empty();
        }
        return collaborators
                .provider()
                .reruns()
                .forExecution(request.pipelineId(), request.date(), request.scheduleId(), request.executionName())
                .filter(r -> r.backfillId() != null)
                .filter(r -> r.metadata() == null
                        || !Boolean.TRUE.equals(r.metadata().get("cascade")));
    }

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
