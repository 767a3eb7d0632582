package dev.interlock.orchestrator;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.Spacing;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.trait.QuietPeriod;
import dev.interlock.model.trait.TraitVerdict;
import dev.interlock.store.RunLogKey;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What holds a ready round of {@link CheckReadiness} back: the data its traits read is still changing
 * ({@code quietPeriod}), or the day's previous run started less than {@code minInterval} ago.
 */
final class ReadinessHolds {

    private final Collaborators collaborators;

    ReadinessHolds(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Why a ready round is held back, in the READINESS_CHECKED event's words and details. */
    record Hold(String message, Map<String, Object> details) {}

    /** The first hold on a ready round: the quiet period, then the spacing of the day's runs. */
    Optional<Hold> of(ActionRequest request, PipelineConfig pipeline, List<TraitVerdict> results) {
        return quietHold(request, pipeline, results).or(() -> spacingHold(request, pipeline));
    }

    /** Held while the latest change the verdicts report is less than {@code quietPeriod} ago. */
    private Optional<Hold> quietHold(ActionRequest request, PipelineConfig pipeline, List<TraitVerdict> results) {
        Duration quiet = span(request, "quietPeriod", pipeline.quietPeriod());
        Optional<Instant> until = QuietPeriod.holdsUntil(results, quiet, collaborators.now());
        Optional<QuietPeriod.Change> change = until.flatMap(u -> QuietPeriod.lastChange(results));
        if (until.isEmpty() || change.isEmpty()) {
            return Optional.empty();
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("quietUntil", InterlockJson.timestamp(until.get()));
        details.put("changedAt", InterlockJson.timestamp(change.get().at()));
        details.put("changedBy", change.get().traitType());
        return Optional.of(new Hold(
                "quiet until " + ReadableTime.of(until.get(), zoneOf(pipeline, request)) + ": "
                        + change.get().traitType()
                        + " changed at " + ReadableTime.of(change.get().at(), zoneOf(pipeline, request))
                        + " (quietPeriod "
                        + pipeline.quietPeriod() + ")",
                details));
    }

    /**
     * Held while the day's previous run (the run log's, when it is not this execution's) started less than
     * {@code minInterval} ago. Reads the run log and that run only when the pipeline sets a spacing.
     */
    private Optional<Hold> spacingHold(ActionRequest request, PipelineConfig pipeline) {
        Duration min = span(request, "minInterval", pipeline.minInterval());
        if (min == null) {
            return Optional.empty();
        }
        Optional<String> previous = collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()))
                .map(RunLog::runId)
                .filter(runId -> !runId.equals(request.runId()));
        if (previous.isEmpty()) {
            return Optional.empty();
        }
        Instant started = collaborators
                .provider()
                .runs()
                .get(previous.get())
                .map(RunState::createdAt)
                .orElse(null);
        return Spacing.holdsUntil(started, min, collaborators.now()).map(until -> {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("spacedUntil", InterlockJson.timestamp(until));
            details.put("previousRunId", previous.get());
            details.put("previousStartedAt", InterlockJson.timestamp(started));
            return new Hold(
                    "spaced until " + ReadableTime.of(until, zoneOf(pipeline, request)) + ": the day's previous run "
                            + previous.get() + " started at " + ReadableTime.of(started, zoneOf(pipeline, request))
                            + " (minInterval "
                            + pipeline.minInterval() + ")",
                    details);
        });
    }

    /** A duration field of the pipeline; null when unset (or one registration would now refuse, which is logged). */
    private Duration span(ActionRequest request, String field, String text) {
        if (text == null) {
            return null;
        }
        try {
            return TimeSpan.parse(text);
        } catch (IllegalArgumentException e) {
            collaborators
                    .log()
                    .warn(request.logContext(), field + " not applied: " + e.getMessage(), Map.of(field, text));
            return null;
        }
    }

    private static ZoneId zoneOf(PipelineConfig pipeline, ActionRequest request) {
        return CheckReadiness.zoneOf(pipeline, request);
    }
}
