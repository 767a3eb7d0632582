package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.watch.ScheduleWatch;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The informational SLA checks: one deadline of the schedule window on the execution date; past it, an alert of
 * one kind, sent once per (pipeline, date, schedule), unless the deadline passed before the schedule was registered
 * (then only an event says so). The machine reads nothing from the answer. The evaluation deadline is checked by
 * {@code checkReadiness} on every round, the completion deadline when the day's completion is recorded — after its
 * post-run checks passed — at the time it was recorded ({@link CheckCompletionSla#judgeCompletion}).
 */
final class SlaDeadline {

    /** Always-present payload; {@code deadline} is ISO-8601 or {@code ""} when none is configured. */
    record Payload(boolean breached, String deadline) {}

    private final Collaborators collaborators;
    private final Function<ScheduleWindow, Instant> deadlineOf;
    private final AlertKind kind;
    private final String what;

    SlaDeadline(
            Collaborators collaborators, Function<ScheduleWindow, Instant> deadlineOf, AlertKind kind, String what) {
        this.collaborators = collaborators;
        this.deadlineOf = deadlineOf;
        this.kind = kind;
        this.what = what;
    }

    Outcome check(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), new Payload(false, ""));
        }
        return check(request, pipeline.get());
    }

    /** The check against a pipeline the caller has already read (no read of its own). */
    Outcome check(ActionRequest request, PipelineConfig pipeline) {
        return checkAt(request, pipeline, collaborators.now());
    }

    private Outcome checkAt(ActionRequest request, PipelineConfig pipeline, Instant at) {
        ScheduleWindow window;
        try {
            window = ScheduleWindow.of(pipeline, request.scheduleId(), request.date());
        } catch (IllegalArgumentException | DateTimeException e) {
            return Outcome.error("invalid " + what + " deadline: " + e.getMessage(), new Payload(false, ""));
        }
        return judge(request, deadlineOf.apply(window), window::zone, at);
    }

    /**
     * The same check against a deadline resolved when the run started ({@code ""}: none), without reading the
     * pipeline: a pipeline changed or deleted since is judged by the deadline it had then.
     */
    Outcome check(ActionRequest request, String resolved) {
        return checkAt(request, resolved, collaborators.now());
    }

    /**
     * The check of something that happened at {@code at} (a completion as recorded) rather than now, against the
     * deadline resolved when the run started, or — {@code resolved} null: a caller that was not given it — the
     * pipeline's as it is now.
     */
    Outcome checkAt(ActionRequest request, String resolved, Instant at) {
        if (resolved == null) {
            return collaborators
                    .pipeline(request)
                    .map(p -> checkAt(request, p, at))
                    .orElseGet(() -> Outcome.error(Collaborators.notFound(request), new Payload(false, "")));
        }
        Instant deadline;
        try {
            deadline = resolved.isBlank() ? null : Instant.parse(resolved);
        } catch (DateTimeException e) {
            return Outcome.error("invalid " + what + " deadline '" + resolved + "'", new Payload(false, ""));
        }
        return judge(request, deadline, () -> zoneOf(request), at);
    }

    /**
     * The deadline of the request's day — resolved when the run started, else ({@code resolved} null) the pipeline's —
     * without judging anything ({@code breached} false).
     */
    Outcome deadlineOnly(ActionRequest request, String resolved) {
        if (resolved != null) {
            return Outcome.proceed(new Payload(false, resolved));
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), new Payload(false, ""));
        }
        try {
            Instant deadline =
                    deadlineOf.apply(ScheduleWindow.of(pipeline.get(), request.scheduleId(), request.date()));
            return Outcome.proceed(new Payload(false, deadline == null ? "" : InterlockJson.timestamp(deadline)));
        } catch (IllegalArgumentException | DateTimeException e) {
            return Outcome.error("invalid " + what + " deadline: " + e.getMessage(), new Payload(false, ""));
        }
    }

    /**
     * The zone a message shows the resolved deadline in: the schedule's as the pipeline says now (only the words
     * depend on it, not the judgement), UTC for a pipeline deleted since.
     */
    private ZoneId zoneOf(ActionRequest request) {
        return collaborators
                .pipeline(request)
                .map(p -> ReadableTime.zoneOf(p, request.scheduleId()))
                .orElse(ZoneOffset.UTC);
    }

    private Outcome judge(ActionRequest request, Instant deadline, Supplier<ZoneId> zone, Instant now) {
        if (deadline == null) {
            return Outcome.proceed(new Payload(false, ""));
        }
        String text = InterlockJson.timestamp(deadline);
        if (!ScheduleWindow.breached(deadline, now)) {
            return Outcome.proceed(new Payload(false, text));
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("deadline", text);
        details.put("observedAt", InterlockJson.timestamp(now));
        if (request.runId() != null) {
            details.put("runId", request.runId());
        }
        String message = what + " SLA breached for " + request.pipelineId() + " schedule " + request.scheduleId()
                + " on " + request.date() + " (deadline " + ReadableTime.withZone(deadline, zone.get()) + ")";
        Optional<Instant> registered = registeredAt(request);
        if (registered.isPresent() && !deadline.isAfter(registered.get())) {
            // A caught-up window or a backfill: the deadline passed before the schedule existed
            // (docs/pipeline-reference.md, catchUp).
            details.put("registeredAt", InterlockJson.timestamp(registered.get()));
            collaborators.record(
                    request,
                    EventKind.SLA_BREACHED,
                    kind.wireName(),
                    message + ": not alerted, the deadline passed before the schedule was registered",
                    details);
            return Outcome.proceed(new Payload(true, text));
        }
        if (collaborators
                .alerts()
                .raise(
                        kind,
                        AlertLevel.WARNING,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        message,
                        details,
                        request.logContext())) {
            collaborators.record(request, EventKind.SLA_BREACHED, kind.wireName(), message, details);
        }
        return Outcome.proceed(new Payload(true, text));
    }

    /**
     * Since when the request's schedule exists in its current form (for a schedule id the config does not list, since
     * the earliest of its schedules), or empty for a pipeline the watchdog has no watch of yet.
     */
    private Optional<Instant> registeredAt(ActionRequest request) {
        return collaborators.provider().watchdog().watch(request.pipelineId()).flatMap(watch -> {
            ScheduleWatch schedule = watch.schedules().get(request.scheduleId());
            if (schedule != null) {
                return Optional.of(schedule.since());
            }
            return watch.schedules().values().stream().map(ScheduleWatch::since).min(Instant::compareTo);
        });
    }
}
