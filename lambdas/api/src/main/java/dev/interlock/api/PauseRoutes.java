package dev.interlock.api;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.PauseEvents;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.watch.WatchEvent;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.store.Provider;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pausing a pipeline (docs/operations.md, "Pausing a pipeline"): {@code POST /pipelines/{id}/pause} with a reason stops
 * new executions of it, {@code POST /pipelines/{id}/resume} lets them start again forward-only (the answer lists the
 * windows that opened meanwhile, to run by hand), {@code GET /pauses} lists the paused pipelines. Each is audited as a
 * {@code PAUSED} / {@code RESUMED} event of the pipeline: a pause whose record cannot be written is taken back, and
 * a resume is recorded before the pause ends.
 */
final class PauseRoutes {

    /** A pause as the API answers it. */
    record PauseView(String pipelineId, String reason, String pausedBy, Instant pausedAt) {
        static PauseView of(Pause pause) {
            return new PauseView(pause.pipelineId(), pause.reason(), pause.pausedBy(), pause.pausedAt());
        }
    }

    /** A resume as the API answers it: the pause that ended, who ended it, and the windows it kept from running. */
    record ResumeView(
            String pipelineId,
            String reason,
            String pausedBy,
            Instant pausedAt,
            String resumedBy,
            Instant resumedAt,
            int missedWindowCount,
            List<Map<String, Object>> missedWindows) {}

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;

    PauseRoutes(Provider provider, RequestBody body, Clock clock) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
    }

    ApiResponse pause(ApiRequest request, Map<String, String> path) {
        String pipelineId = PathIds.pipelineId(path.get("id"));
        String reason = reason(request, true, "pause");
        PipelineConfig config = pipeline(pipelineId);
        Pause pause = new Pause(pipelineId, reason, request.caller(), clock.instant());
        if (!provider.pauses().put(pause)) {
            provider.pauses().get(pipelineId).ifPresent(p -> alreadyPaused(p, config));
            throw new IllegalStateException("pipeline '" + pipelineId + "' was paused and resumed meanwhile; retry");
        }
        // Only the pause that took effect is audited, and a pause whose record cannot be written is taken back.
        try {
            provider.events().append(PauseEvents.paused(pause));
        } catch (RuntimeException e) {
            provider.pauses().delete(pipelineId);
            throw e;
        }
        return ApiResponse.json(200, PauseView.of(pause));
    }

    ApiResponse resume(ApiRequest request, Map<String, String> path) {
        String pipelineId = PathIds.pipelineId(path.get("id"));
        String reason = reason(request, false, "resume");
        PipelineConfig config = pipeline(pipelineId);
        Pause pause = provider.pauses()
                .get(pipelineId)
                .orElseThrow(() -> ProblemException.of(
                        ProblemType.CONFLICT, "pipeline '" + pipelineId + "' is not paused; nothing to resume"));
        Instant now = clock.instant();
        List<WatchEvent> missed = missed(config, pause, now);
        provider.events().append(PauseEvents.resumed(pause, request.caller(), reason, now, missed));
        provider.pauses().delete(pipelineId);
        return ApiResponse.json(
                200,
                new ResumeView(
                        pipelineId,
                        pause.reason(),
                        pause.pausedBy(),
                        pause.pausedAt(),
                        request.caller(),
                        now,
                        missed.size(),
                        missed.stream()
                                .limit(PauseEvents.MISSED_LISTED)
                                .map(PauseEvents::window)
                                .toList()));
    }

    /** The body's {@code reason} (its only field), required or not; a 400 naming the field when it is bad. */
    private String reason(ApiRequest request, boolean required, String what) {
        List<ValidationError> errors = new ArrayList<>();
        RequestFields fields = RequestFields.read(body.readObject(request, !required), List.of("reason"), errors);
        String reason = fields.prose("reason", required, Pause.MAX_REASON, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the " + what + " request has " + errors.size() + " problem(s)", errors);
        }
        return reason;
    }

    /** The most recent events read for the days a pause turned away. */
    static final int EVENTS_READ = 500;

    /**
     * What a pause kept from running, oldest first, one entry per window: the windows that opened while it lasted, and
     * the days whose markers or sensor data it turned away (a cascade for a window that opened before the pause).
     */
    private List<WatchEvent> missed(PipelineConfig config, Pause pause, Instant now) {
        Map<String, WatchEvent> windows = new java.util.LinkedHashMap<>();
        for (WatchEvent opened : WatchPlan.openedBetween(config, pause.pausedAt(), now)) {
            windows.putIfAbsent(opened.scheduleId() + "/" + opened.date(), opened);
        }
        for (Event event : provider.events().latest(config.name(), EVENTS_READ)) {
            if (event.date() != null
                    && event.scheduleId() != null
                    && !event.timestamp().isBefore(pause.pausedAt())
                    && event.details() != null
                    && pause.pausedAt()
                            .toString()
                            .equals(String.valueOf(event.details().get("pausedAt")))) {
                windows.putIfAbsent(
                        event.scheduleId() + "/" + event.date(),
                        new WatchEvent(
                                event.scheduleId(), event.date(), WatchEvent.Kind.WINDOW_OPENS, event.timestamp()));
            }
        }
        return windows.values().stream()
                .sorted(java.util.Comparator.comparing(WatchEvent::date)
                        .thenComparing(WatchEvent::at)
                        .thenComparing(WatchEvent::scheduleId))
                .toList();
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        return ApiResponse.json(
                200,
                Map.of(
                        "items",
                        provider.pauses().list().stream().map(PauseView::of).toList()));
    }

    /** A 409 when {@code pipelineId} is paused: a marker written for it would start nothing. */
    static void refuseIfPaused(Provider provider, PipelineConfig pipeline) {
        String pipelineId = pipeline.name();
        provider.pauses().get(pipelineId).ifPresent(pause -> {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    "pipeline '" + pipelineId + "' is " + pause.describe(ReadableTime.zoneOf(pipeline, null))
                            + "; its markers start nothing until it is resumed (POST /pipelines/" + pipelineId
                            + "/resume)");
        });
    }

    private PipelineConfig pipeline(String pipelineId) {
        return provider.pipelines().get(pipelineId).orElseThrow(() -> PipelineRoutes.notFound(pipelineId));
    }

    private static void alreadyPaused(Pause pause, PipelineConfig config) {
        throw ProblemException.of(
                ProblemType.CONFLICT,
                "pipeline '" + pause.pipelineId() + "' is already " + pause.describe(ReadableTime.zoneOf(config, null))
                        + "; resume it first");
    }
}
