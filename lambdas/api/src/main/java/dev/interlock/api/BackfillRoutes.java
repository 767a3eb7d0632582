package dev.interlock.api;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.backfill.Backfill;
import dev.interlock.model.backfill.BackfillDay;
import dev.interlock.model.backfill.BackfillPlan;
import dev.interlock.model.backfill.BackfillStatus;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ExclusionRule;
import dev.interlock.store.BackfillDriver;
import dev.interlock.store.Provider;
import dev.interlock.store.RunLogKey;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Backfills (docs/operations.md, "Backfills"): {@code POST /pipelines/{id}/backfills} plans a range of a pipeline's
 * windows ({@link BackfillPlan}) and, unless it is a dry run, records the backfill and starts its first days
 * ({@link BackfillDriver}); {@code GET /backfills[/{id}]} and {@code GET /pipelines/{id}/backfills} read progress;
 * {@code POST /backfills/{id}/cancel} skips the pending days and lets the running ones finish. Each day runs as a
 * rerun that spends no rerun budget and passes its own gate.
 */
final class BackfillRoutes {

    private final Provider provider;
    private final RequestBody body;
    private final Clock clock;
    private final Identifiers ids;
    private final BackfillDriver driver;

    BackfillRoutes(Provider provider, RequestBody body, Clock clock, Identifiers ids) {
        this.provider = provider;
        this.body = body;
        this.clock = clock;
        this.ids = ids;
        this.driver = new BackfillDriver(provider);
    }

    ApiResponse create(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        JsonNode document = body.readObject(request, false);
        PipelineConfig pipeline = provider.pipelines().get(id).orElseThrow(() -> PipelineRoutes.notFound(id));
        Instant now = clock.instant();
        BackfillRequest r = BackfillRequest.read(document, pipeline, now);
        if (!r.dryRun()) {
            PauseRoutes.refuseIfPaused(provider, pipeline);
            provider.backfills().active().stream()
                    .filter(b -> b.pipelineId().equals(id) && !b.status().isEnded())
                    .findFirst()
                    .ifPresent(b -> {
                        throw ProblemException.of(
                                ProblemType.CONFLICT,
                                "backfill " + b.backfillId() + " of " + id + " is still "
                                        + b.status().wireName() + "; wait for it or cancel it (POST /backfills/"
                                        + b.backfillId() + "/cancel)");
                    });
        }
        List<BackfillDay> days =
                BackfillPlan.plan(pipeline, r.schedules(), r.from(), r.to(), r.mode(), r.order(), facts(pipeline), now);
        Backfill backfill = new Backfill(
                r.dryRun() ? null : ids.next(),
                id,
                r.from(),
                r.to(),
                r.schedules(),
                r.mode(),
                r.maxConcurrency(),
                r.order(),
                r.cascade(),
                r.reason(),
                request.caller(),
                now,
                r.dryRun() ? null : BackfillStatus.RUNNING,
                null,
                null,
                now,
                null,
                false,
                1,
                days);
        if (r.dryRun()) {
            return ApiResponse.json(200, BackfillView.of(backfill, true));
        }
        Map<String, Object> details = BackfillDriver.details(backfill);
        details.put("requestedBy", request.caller());
        details.put("mode", r.mode().wireName());
        details.put("maxConcurrency", r.maxConcurrency());
        details.put("order", r.order().wireName());
        details.put("cascade", r.cascade());
        details.put("schedules", r.schedules());
        details.put("runs", backfill.counts().pending());
        details.put("skipped", backfill.counts().skipped());
        Event requested = BackfillDriver.pipelineEvent(
                backfill,
                EventKind.BACKFILL_REQUESTED,
                "REQUESTED",
                "backfill " + backfill.backfillId() + " of " + r.from() + " to " + r.to() + " asked for by "
                        + request.caller() + ": " + r.reason() + " ("
                        + backfill.counts().pending() + " to run, "
                        + backfill.counts().skipped() + " skipped)",
                details,
                now);
        if (!provider.backfills().create(backfill, requested)) {
            throw ProblemException.of(
                    ProblemType.CONFLICT, "backfill " + backfill.backfillId() + " exists already; retry");
        }
        Backfill started = driver.advance(backfill.backfillId(), clock.instant())
                .map(BackfillDriver.Advance::backfill)
                .orElse(backfill);
        return ApiResponse.json(202, BackfillView.of(started, false));
    }

    ApiResponse get(ApiRequest request, Map<String, String> path) {
        String id = PathIds.backfillId(path.get("backfillId"));
        return ApiResponse.json(200, BackfillView.of(backfill(id), false));
    }

    ApiResponse list(ApiRequest request, Map<String, String> path) {
        List<ValidationError> errors = new ArrayList<>();
        String pipeline = request.text("pipeline", 200, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the backfill listing has " + errors.size() + " problem(s)", errors);
        }
        return listOf(pipeline);
    }

    ApiResponse listOfPipeline(ApiRequest request, Map<String, String> path) {
        String id = PathIds.pipelineId(path.get("id"));
        if (provider.pipelines().get(id).isEmpty()) {
            throw PipelineRoutes.notFound(id);
        }
        return listOf(id);
    }

    private ApiResponse listOf(String pipelineId) {
        return ApiResponse.json(
                200,
                Map.of(
                        "items",
                        provider.backfills().list(pipelineId).stream()
                                .map(b -> BackfillView.of(b, false).withoutDays())
                                .toList()));
    }

    ApiResponse cancel(ApiRequest request, Map<String, String> path) {
        String id = PathIds.backfillId(path.get("backfillId"));
        List<ValidationError> errors = new ArrayList<>();
        RequestFields fields = RequestFields.read(body.readObject(request, true), List.of("reason"), errors);
        String reason = fields.prose("reason", false, Backfill.MAX_REASON, errors);
        if (!errors.isEmpty()) {
            throw ProblemException.invalid("the cancel request has " + errors.size() + " problem(s)", errors);
        }
        Backfill current = backfill(id);
        if (current.status().isEnded()) {
            throw ProblemException.of(
                    ProblemType.CONFLICT,
                    "backfill " + id + " is " + current.status().wireName() + "; nothing to cancel");
        }
        Backfill cancelled = driver.cancel(id, request.caller(), reason, clock.instant())
                .map(BackfillDriver.Advance::backfill)
                .orElseThrow(() -> notFound(id));
        return ApiResponse.json(200, BackfillView.of(cancelled, false));
    }

    private Backfill backfill(String id) {
        return provider.backfills().get(id).orElseThrow(() -> notFound(id));
    }

    private static ProblemException notFound(String id) {
        return ProblemException.of(ProblemType.NOT_FOUND, "backfill " + id + " not found");
    }

    /** What the table says of the range's days: run logs by key, exclusions with each calendar read once. */
    private BackfillPlan.DayFacts facts(PipelineConfig pipeline) {
        Map<String, Optional<Calendar>> calendars = new HashMap<>();
        return new BackfillPlan.DayFacts() {
            @Override
            public Optional<RunLogStatus> runLog(LocalDate date, String scheduleId) {
                return provider.runLogs()
                        .get(new RunLogKey(pipeline.name(), date, scheduleId))
                        .map(RunLog::status);
            }

            @Override
            public Optional<String> excluded(LocalDate date) {
                return ExclusionRule.reason(
                        name -> calendars.computeIfAbsent(
                                name, n -> provider.calendars().get(n)),
                        pipeline,
                        date);
            }
        };
    }
}
