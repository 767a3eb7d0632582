package dev.interlock.model.status;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.rollup.RollupConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.JobMetadata;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.schedule.Exclusions;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.ScheduleWindows;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.status.ScheduleStatus.Attempts;
import dev.interlock.model.status.ScheduleStatus.BlockingTrait;
import dev.interlock.model.status.ScheduleStatus.Deadline;
import dev.interlock.model.status.ScheduleStatus.Job;
import dev.interlock.model.status.ScheduleStatus.NextAction;
import dev.interlock.model.status.ScheduleStatus.Upstream;
import dev.interlock.model.status.ScheduleStatus.Window;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.watch.WatchPlan;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.model.workflow.RunLogGate;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The one place that decides why a pipeline day is where it is. It reads only what {@link DayRecords} holds — run
 * logs, runs, trait results, locks, events, the exclusion calendar, the upstreams' run logs — and the clock, and
 * writes nothing: the API, the CLI and the web UI all show what this returns.
 */
public final class StatusDerivation {

    private StatusDerivation() {}

    /** The pipeline's zone: its first schedule's zone, else the SLA zone, else UTC (where "today" is read). */
    public static ZoneId zoneOf(PipelineConfig pipeline) {
        ScheduleConfig first = pipeline.effectiveSchedules().get(0);
        return ScheduleWindow.zoneOf(first, pipeline.sla());
    }

    /** Today in the pipeline's zone at {@code now}. */
    public static LocalDate today(PipelineConfig pipeline, Instant now) {
        return LocalDate.ofInstant(now, zoneOf(pipeline));
    }

    /** Derives every schedule's status of the day at {@code now}. */
    public static PipelineDayStatus derive(DayRecords records, Instant now) {
        PipelineConfig pipeline = records.pipeline();
        List<ScheduleStatus> schedules = new ArrayList<>();
        for (String scheduleId : ScheduleWindows.idsOn(pipeline, records.date())) {
            schedules.add(schedule(records, scheduleId, now));
        }
        return new PipelineDayStatus(
                pipeline.name(),
                records.date(),
                ReadableTime.zoneName(zoneOf(pipeline)),
                schedules,
                List.copyOf(pipeline.upstreamPipelines()),
                records.downstreams());
    }

    /**
     * A schedule's status while its pipeline is paused: a day no execution holds (waiting for its window, not ready
     * and not being evaluated, before registration, skipped) is {@link DayState#PAUSED}, with who paused it and why
     * and no SLA flag (a deadline a person chose to let pass is not news); a day that is moving, done, failed, excluded
     * or dry-run keeps its state, since running days finish.
     */
    public static ScheduleStatus paused(ScheduleStatus status, Pause pause) {
        boolean idle = switch (status.state()) {
            case WAITING_FOR_WINDOW, BEFORE_REGISTRATION, SKIPPED -> true;
            case NOT_READY -> status.lockHolder() == null;
            default -> false;
        };
        if (!idle) {
            return status;
        }
        return status.paused("pipeline "
                + pause.describe(ReadableTime.zone(
                        status.window() == null ? null : status.window().zone())));
    }

    /** The upstream (pipeline, schedule) pairs a schedule waits for: its traits' {@code upstreamPipeline}. */
    public static List<String[]> upstreamsOf(PipelineConfig pipeline, String scheduleId) {
        List<String[]> out = new ArrayList<>();
        for (TraitConfig trait : pipeline.traits().values()) {
            if (trait == null || trait.upstreamPipeline().isEmpty() || RollupConfig.declared(trait.config())) {
                // A rollup reads every window of its upstream's day: its trait's tally says how many are in.
                continue;
            }
            out.add(new String[] {
                trait.upstreamPipeline().get(), trait.upstreamSchedule().orElse(scheduleId)
            });
        }
        out.sort(Comparator.comparing((String[] p) -> p[0]).thenComparing(p -> p[1]));
        return out;
    }

    private static ScheduleStatus schedule(DayRecords records, String scheduleId, Instant now) {
        PipelineConfig pipeline = records.pipeline();
        LocalDate date = records.date();
        ScheduleWindow window = ScheduleWindow.of(pipeline, scheduleId, date);
        RunLog log = records.runLogs().get(scheduleId);
        RunState run = records.runs().get(scheduleId);
        String holder = records.lockHolders().get(scheduleId);
        List<Event> events = records.events().stream()
                .filter(e -> scheduleId.equals(e.scheduleId()) && date.equals(e.date()))
                .toList();
        List<TraitResult> traits = records.traits().getOrDefault(scheduleId, List.of());
        List<Upstream> upstreams = upstreams(records, scheduleId, now);
        Instant lastEvaluated = traits.stream()
                .map(TraitResult::evaluatedAt)
                .filter(Objects::nonNull)
                .max(Comparator.naturalOrder())
                .orElse(null);
        List<BlockingTrait> blocking = blocking(traits, events, pipeline.readinessRule());
        Attempts attempts = new Attempts(
                log == null ? 0 : AttemptLedger.attemptsUsed(log),
                pipeline.retry().maxAttempts());
        String runId = run != null ? run.runId() : log == null ? null : log.runId();
        Job job = run == null || run.metadata().isEmpty()
                ? null
                : new Job(
                        run.triggerType() == null ? null : run.triggerType().wireName(),
                        JobMetadata.jobId(run.triggerType(), run.metadata()),
                        JobMetadata.link(run.triggerType(), run.metadata()),
                        run.metadata());
        Window shown = new Window(
                ReadableTime.zoneName(window.zone()),
                window.opensAt(),
                window.evaluationDeadline(),
                window.validationDeadline(),
                window.completionDeadline());

        Verdict verdict = dryRunNoted(
                pipeline,
                verdict(
                        records,
                        scheduleId,
                        window,
                        log,
                        run,
                        holder,
                        events,
                        blocking,
                        upstreams,
                        lastEvaluated,
                        now));
        boolean done = verdict.state == DayState.COMPLETED
                || verdict.state == DayState.EXCLUDED
                || verdict.state == DayState.SKIPPED
                || verdict.state == DayState.DRY_RUN
                || verdict.state == DayState.MONITORING
                || verdict.state == DayState.BEFORE_REGISTRATION;
        List<BlockingTrait> shownBlocking = verdict.state == DayState.NOT_READY
                        || verdict.state == DayState.FAILED
                                && log != null
                                && log.failureCategory() == FailureCategory.VALIDATION_EXHAUSTED
                ? blocking
                : List.of();
        return new ScheduleStatus(
                scheduleId,
                verdict.state,
                ReadableTime.inText(verdict.reason, window.zone()),
                shownBlocking,
                verdict.next,
                done ? null : deadline(verdict.state, window, now),
                shown,
                attempts,
                holder,
                runId,
                run == null ? null : run.status().wireName(),
                job,
                lastEvaluated,
                upstreams,
                pipeline.dryRun() ? dryRunRecords(events) : List.of(),
                warnings(traits, pipeline.readinessRule()),
                run != null && !run.proceededWithout().isEmpty()
                        ? run.proceededWithout()
                        : log == null ? List.of() : log.proceededWithout(),
                log == null
                                && run == null
                                && holder == null
                                && records.watch() != null
                                && WatchPlan.deadlineBeforeRegistration(pipeline, records.watch(), window)
                        // Nothing started it and its deadline passed before the schedule was registered: the watchdog
                        // does not alert it, so it is not flagged (once someone runs it, it is held to its deadline).
                        ? null
                        : SlaFlag.of(
                                verdict.state,
                                window,
                                log != null && log.startedAt() != null
                                        ? log.startedAt()
                                        : run == null ? null : run.createdAt(),
                                log != null && log.status() == RunLogStatus.COMPLETED ? log.completedAt() : null,
                                now,
                                records.downstreams()),
                verdict.monitoring,
                run != null && run.forced() != null ? run.forced() : log == null ? null : log.forced(),
                PostRunChecked.latest(events));
    }

    /** A dry-run pipeline's day says so whatever its state (DRY_RUN and EXCLUDED say it already, or need not). */
    private static Verdict dryRunNoted(PipelineConfig pipeline, Verdict verdict) {
        if (!pipeline.dryRun() || verdict.state == DayState.DRY_RUN || verdict.state == DayState.EXCLUDED) {
            return verdict;
        }
        return new Verdict(
                verdict.state,
                verdict.reason + " (dry run: no job is started, no alert is sent)",
                verdict.next,
                verdict.monitoring);
    }

    /** The optional traits outside the rule's pool whose stored result did not pass: shown, never blocking. */
    private static List<BlockingTrait> warnings(List<TraitResult> traits, ReadinessRule rule) {
        return traits.stream()
                .filter(t -> !t.required()
                        && !rule.pools(t.traitType())
                        && !t.verdict().passed())
                .sorted(Comparator.comparing(TraitResult::traitType))
                .map(StatusDerivation::seen)
                .toList();
    }

    private static BlockingTrait seen(TraitResult t) {
        return new BlockingTrait(t.traitType(), t.verdict().statusName(), t.reason(), t.value(), t.evaluatedAt());
    }

    private static List<ScheduleStatus.DryRunRecord> dryRunRecords(List<Event> events) {
        return events.stream()
                .filter(e -> e.kind().wireName().startsWith("DRY_RUN_"))
                .sorted(Comparator.comparing(Event::timestamp))
                .map(e -> new ScheduleStatus.DryRunRecord(e.kind().wireName(), e.status(), e.message(), e.timestamp()))
                .toList();
    }

    private record Verdict(DayState state, String reason, NextAction next, ScheduleStatus.Monitoring monitoring) {
        Verdict(DayState state, String reason, NextAction next) {
            this(state, reason, next, null);
        }
    }

    private static Verdict verdict(
            DayRecords records,
            String scheduleId,
            ScheduleWindow window,
            RunLog log,
            RunState run,
            String holder,
            List<Event> events,
            List<BlockingTrait> blocking,
            List<Upstream> upstreams,
            Instant lastEvaluated,
            Instant now) {
        PipelineConfig pipeline = records.pipeline();
        Optional<Verdict> off = off(records);
        if (off.isPresent()) {
            return off.get();
        }
        // A ready round held back (quietPeriod, minInterval): the execution holding the day waits, and says until when.
        Optional<Verdict> held = held(holder, log, events, now);
        if (held.isPresent()) {
            return held.get();
        }
        // A live run newer than the run log's verdict (a replay, a retry) is what is happening now.
        if (run != null
                && !run.status().isTerminal()
                && (log == null
                        || !run.runId().equals(log.runId())
                        || log.status() != RunLogStatus.COMPLETED && log.status() != RunLogStatus.FAILED)) {
            Verdict live = live(pipeline, run, holder, blocking, lastEvaluated, window.zone(), now);
            if (live != null) {
                return live;
            }
        }
        if (pipeline.dryRun()) {
            Optional<Event> exhausted = last(events, EventKind.DRY_RUN_WOULD_BE_EXHAUSTED);
            Optional<Event> wouldTrigger =
                    last(events, EventKind.DRY_RUN_WOULD_TRIGGER).or(() -> last(events, EventKind.DRY_RUN_WOULD_RERUN));
            if (exhausted.isPresent()
                    && (wouldTrigger.isEmpty()
                            || exhausted
                                    .get()
                                    .timestamp()
                                    .isAfter(wouldTrigger.get().timestamp()))) {
                return new Verdict(
                        DayState.DRY_RUN,
                        "dry run: would have failed " + exhausted.get().status() + " at "
                                + time(exhausted.get().timestamp(), window.zone())
                                + " (no FAILED run log, no alert): "
                                + exhausted.get().message(),
                        null);
            }
            if (wouldTrigger.isPresent()) {
                Object type = wouldTrigger.get().details() == null
                        ? null
                        : wouldTrigger.get().details().get("triggerType");
                return new Verdict(
                        DayState.DRY_RUN,
                        "ready at " + time(wouldTrigger.get().timestamp(), window.zone()) + "; dry run: the "
                                + (type instanceof String t && !t.isBlank() ? t + " " : "")
                                + "trigger would have started then (recorded, nothing was started)",
                        null);
            }
        }
        if (log == null) {
            return notStarted(records, window, holder, upstreams, now);
        }
        return switch (log.status()) {
            case COMPLETED -> completed(log, events, window.zone(), now);
            case RUNNING ->
                run != null && run.status() == RunStatus.COMPLETED_MONITORING
                        ? monitoring(pipeline, run, window.zone())
                        : new Verdict(
                                DayState.RUNNING,
                                "job running since " + time(log.startedAt(), window.zone()),
                                nextPoll(pipeline, log.startedAt(), now));
            case FAILED -> failed(pipeline, log, holder, window.zone(), now);
            case CANCELLED ->
                new Verdict(
                        DayState.SKIPPED,
                        "cancelled" + (log.failureMessage() == null ? "" : ": " + log.failureMessage()),
                        null);
            case PENDING -> pending(pipeline, holder, blocking, lastEvaluated, window, now);
        };
    }

    /**
     * A day Interlock does not run whatever the table holds: excluded by the pipeline's days, dates or calendar. (A
     * paused pipeline, once pausing exists, is decided here too: before any record of the day is read.)
     */
    private static Optional<Verdict> off(DayRecords records) {
        return Exclusions.reason(records.pipeline().exclusions(), records.calendar(), records.date())
                .map(why -> new Verdict(DayState.EXCLUDED, "not run on this date: " + why, null));
    }

    /** What a run that is still moving says, or null when its status adds nothing to the run log's. */
    private static Verdict live(
            PipelineConfig pipeline,
            RunState run,
            String holder,
            List<BlockingTrait> blocking,
            Instant lastEvaluated,
            ZoneId zone,
            Instant now) {
        return switch (run.status()) {
            case TRIGGERING ->
                new Verdict(
                        DayState.TRIGGERING,
                        "ready; starting the " + typeOf(run) + " job",
                        new NextAction("job start", null));
            case RUNNING ->
                new Verdict(
                        DayState.RUNNING,
                        typeOf(run) + " job running since " + time(run.updatedAt(), zone),
                        nextPoll(pipeline, run.updatedAt(), now));
            case COMPLETED_MONITORING -> monitoring(pipeline, run, zone);
            case PENDING ->
                holder == null
                        ? null
                        : blocking.isEmpty()
                                ? new Verdict(DayState.EVALUATING, "evaluating the traits", null)
                                : notReady(pipeline, holder, blocking, lastEvaluated, now);
            default -> null;
        };
    }

    private static Verdict notStarted(
            DayRecords records, ScheduleWindow window, String holder, List<Upstream> upstreams, Instant now) {
        if (holder != null) {
            return new Verdict(DayState.EVALUATING, "an execution started evaluating the traits", null);
        }
        if (!window.isOpen(now)) {
            return new Verdict(
                    DayState.WAITING_FOR_WINDOW,
                    "the window opens at " + time(window.opensAt(), window.zone()),
                    new NextAction("window opens", window.opensAt()));
        }
        Optional<Instant> registered = records.watch() == null
                ? Optional.empty()
                : WatchPlan.registeredAfterOpening(records.pipeline(), records.watch(), window);
        if (registered.isPresent()) {
            return new Verdict(
                    DayState.BEFORE_REGISTRATION,
                    "forward-only: the window opened at " + time(window.opensAt(), window.zone())
                            + ", before this schedule was registered at " + time(registered.get(), window.zone())
                            + ", so the watchdog neither runs it nor alerts its deadline; evaluate it by hand"
                            + " (interlock evaluate) to run it, or register with catchUp: true to have the"
                            + " registration day's earlier windows run",
                    new NextAction("none unless evaluated by hand", null));
        }
        LocalDate today = LocalDate.ofInstant(now, window.zone());
        if (records.date().isBefore(today)) {
            return new Verdict(DayState.SKIPPED, "no evaluation was started for this date", null);
        }
        List<Upstream> waiting =
                upstreams.stream().filter(u -> u.state() != DayState.COMPLETED).toList();
        if (!waiting.isEmpty()) {
            Upstream first = waiting.get(0);
            return new Verdict(
                    DayState.NOT_READY,
                    "waiting for upstream " + first.pipelineId() + " ("
                            + first.state().wireName() + ")"
                            + (waiting.size() > 1 ? " and " + (waiting.size() - 1) + " more" : ""),
                    new NextAction("evaluation when " + first.pipelineId() + " completes", null));
        }
        return new Verdict(
                DayState.NOT_READY,
                "not evaluated yet: the next marker (a sensor write, the watchdog's "
                        + "schedule marker or a manual evaluation) starts it",
                new NextAction("evaluation on the next marker", null));
    }

    private static Verdict pending(
            PipelineConfig pipeline,
            String holder,
            List<BlockingTrait> blocking,
            Instant lastEvaluated,
            ScheduleWindow window,
            Instant now) {
        if (blocking.isEmpty()) {
            return holder == null
                    ? new Verdict(
                            DayState.NOT_READY,
                            "evaluated, not triggered; the next marker starts a new evaluation",
                            new NextAction("evaluation on the next marker", null))
                    : new Verdict(DayState.EVALUATING, "evaluating the traits", null);
        }
        return notReady(pipeline, holder, blocking, lastEvaluated, now);
    }

    private static Verdict notReady(
            PipelineConfig pipeline, String holder, List<BlockingTrait> blocking, Instant lastEvaluated, Instant now) {
        BlockingTrait first = blocking.get(0);
        String reason = "waiting for " + first.traitType() + " (" + first.status()
                + (first.reason() == null || first.reason().isBlank() ? "" : ": " + first.reason()) + ")"
                + (blocking.size() > 1 ? " and " + (blocking.size() - 1) + " more trait(s)" : "");
        ReadinessRule rule = pipeline.readinessRule();
        if (blocking.stream().anyMatch(b -> rule.pools(b.traitType()))) {
            reason += "; needs " + rule.describe();
        }
        if (holder == null) {
            return new Verdict(
                    DayState.NOT_READY,
                    reason,
                    new NextAction("re-evaluation on the next marker (no execution is waiting)", null));
        }
        Instant base = lastEvaluated != null ? lastEvaluated : first.evaluatedAt();
        Instant at = base == null ? null : base.plusSeconds(Math.max(1, pipeline.evaluationIntervalSeconds()));
        if (at != null && at.isBefore(now)) {
            at = now;
        }
        return new Verdict(DayState.NOT_READY, reason, new NextAction("re-evaluation", at));
    }

    private static Verdict failed(PipelineConfig pipeline, RunLog log, String holder, ZoneId zone, Instant now) {
        String why = (log.failureMessage() == null ? "failed" : log.failureMessage())
                + (log.failureCategory() == null
                        ? ""
                        : " (" + log.failureCategory().wireName() + ")");
        // A missed validation deadline is no attempt (AttemptLedger): say what it is instead.
        Optional<RetryAttempt> stopped = AttemptLedger.stoppedWait(log);
        if (stopped.isPresent()) {
            return new Verdict(
                    DayState.FAILED,
                    "waiting for data stopped at " + time(log.updatedAt(), zone) + " (no attempt used): " + why,
                    new NextAction("evaluate again on the next marker (an evaluation request, a sensor write)", null));
        }
        String head = (log.failureCategory() == FailureCategory.VALIDATION_EXHAUSTED
                        ? "waiting for data ended at the validation deadline, " + time(log.updatedAt(), zone)
                                + " (no attempt used)"
                        : "attempt " + AttemptLedger.attemptsUsed(log) + " of "
                                + pipeline.retry().maxAttempts() + " failed at " + time(log.updatedAt(), zone))
                + ": " + why;
        return switch (RunLogGate.admit(Optional.of(log), pipeline.retry(), false, now)) {
            case RunLogGate.Admission.Proceed ignored ->
                new Verdict(
                        DayState.FAILED,
                        head + "; a retry may start now",
                        new NextAction(
                                holder == null ? "retry on the next marker" : "retry", holder == null ? null : now));
            case RunLogGate.Admission.Skip skip
            when skip.retryAfterSeconds() > 0 ->
                new Verdict(
                        DayState.FAILED,
                        head + "; retrying after the backoff",
                        new NextAction("retry", now.plusSeconds(skip.retryAfterSeconds())));
            case RunLogGate.Admission.Skip skip ->
                new Verdict(
                        DayState.FAILED,
                        head + "; no retry: " + skip.reason(),
                        new NextAction("none: rerun it once the cause is fixed", null));
        };
    }

    private static Verdict monitoring(PipelineConfig pipeline, RunState run, ZoneId zone) {
        Instant end = null;
        try {
            if (pipeline.monitoring().enabled() && pipeline.monitoring().duration() != null) {
                end = run.updatedAt().plus(TimeSpan.parse(pipeline.monitoring().duration()));
            }
        } catch (IllegalArgumentException unparsable) {
            end = null;
        }
        return new Verdict(
                DayState.MONITORING,
                "job completed at " + time(run.updatedAt(), zone) + "; watching for late data",
                new NextAction("monitoring ends", end));
    }

    /**
     * A completed day, and what its monitoring after completion says: the latest of the monitoring loop's records of
     * the completed run ({@code MONITORING_WAITING} before each wait, {@code MONITORING_COMPLETED} at the end,
     * {@code MONITORING_DRIFT_DETECTED} when late data was found). While a wait's window has not ended the day is
     * MONITORING, with its end and next round; after it, COMPLETED.
     */
    private static Verdict completed(RunLog log, List<Event> events, ZoneId zone, Instant now) {
        String done = "completed at " + time(log.completedAt(), zone)
                + (log.attemptNumber() > 0 ? " after " + log.attemptNumber() + " failed attempt(s)" : "");
        Optional<Event> watched = Optional.empty();
        for (int i = events.size() - 1; i >= 0 && watched.isEmpty(); i--) {
            Event e = events.get(i);
            boolean monitoring = e.kind() == EventKind.MONITORING_WAITING
                    || e.kind() == EventKind.MONITORING_COMPLETED
                    || e.kind() == EventKind.MONITORING_DRIFT_DETECTED;
            if (monitoring && (e.runId() == null || e.runId().equals(log.runId()))) {
                watched = Optional.of(e);
            }
        }
        if (watched.isEmpty()) {
            return new Verdict(DayState.COMPLETED, done, null);
        }
        Event e = watched.get();
        Map<String, Object> details = e.details() == null ? Map.of() : e.details();
        Instant endsAt = instant(details.get("monitoringEndsAt"));
        return switch (e.kind()) {
            case MONITORING_WAITING -> {
                if (endsAt == null || !now.isBefore(endsAt)) {
                    yield new Verdict(
                            DayState.COMPLETED, done + "; monitored for late data until " + time(endsAt, zone), null);
                }
                Instant next = instant(details.get("nextRoundAt"));
                yield new Verdict(
                        DayState.MONITORING,
                        done + "; watching for late data until " + time(endsAt, zone),
                        new NextAction("next monitoring round", next == null || !next.isBefore(now) ? next : now),
                        new ScheduleStatus.Monitoring(
                                log.runId(), instant(details.get("monitoringStartedAt")), endsAt, next));
            }
            case MONITORING_DRIFT_DETECTED ->
                new Verdict(
                        DayState.COMPLETED,
                        done + "; late data found at " + time(e.timestamp(), zone) + ": " + e.message(),
                        null);
            default ->
                new Verdict(
                        DayState.COMPLETED,
                        done + "; " + e.message() + (endsAt == null ? "" : " (until " + time(endsAt, zone) + ")"),
                        null);
        };
    }

    /** An instant a record's details hold as text, or null when absent or unreadable. */
    static Instant instant(Object text) {
        if (!(text instanceof String s)) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }

    /** The next poll of a job followed since {@code since}: polls land every {@code pollIntervalSeconds}. */
    private static NextAction nextPoll(PipelineConfig pipeline, Instant since, Instant now) {
        if (since == null) {
            return new NextAction("next poll", null);
        }
        long interval = Math.max(1, pipeline.pollIntervalSeconds());
        long elapsed = Math.max(0, Duration.between(since, now).getSeconds());
        return new NextAction("next poll", since.plusSeconds((elapsed / interval + 1) * interval));
    }

    private static Deadline deadline(DayState state, ScheduleWindow window, Instant now) {
        boolean beforeTrigger =
                state == DayState.WAITING_FOR_WINDOW || state == DayState.NOT_READY || state == DayState.EVALUATING;
        if (beforeTrigger
                && window.evaluationDeadline() != null
                && !ScheduleWindow.breached(window.evaluationDeadline(), now)) {
            return new Deadline("evaluation", window.evaluationDeadline(), false);
        }
        if (beforeTrigger && window.validationDeadline() != null) {
            return new Deadline(
                    "validation",
                    window.validationDeadline(),
                    ScheduleWindow.breached(window.validationDeadline(), now));
        }
        if (window.completionDeadline() != null) {
            return new Deadline(
                    "completion",
                    window.completionDeadline(),
                    ScheduleWindow.breached(window.completionDeadline(), now));
        }
        if (beforeTrigger && window.evaluationDeadline() != null) {
            return new Deadline("evaluation", window.evaluationDeadline(), true);
        }
        return null;
    }

    /**
     * The traits that hold the day back by the pipeline's readiness rule (required ones that did not pass; a short
     * pool's traits that did not pass): from the stored results while they live, else from the latest evaluation
     * events (results expire, the audit trail stays).
     */
    private static List<BlockingTrait> blocking(List<TraitResult> traits, List<Event> events, ReadinessRule rule) {
        Set<String> blockingTypes = Set.copyOf(
                Readiness.of(traits.stream().map(TraitResult::verdict).toList(), rule)
                        .blocking());
        List<BlockingTrait> stored = traits.stream()
                .filter(t -> blockingTypes.contains(t.traitType()))
                .sorted(Comparator.comparing(TraitResult::traitType))
                .map(StatusDerivation::seen)
                .toList();
        if (!stored.isEmpty() || !traits.isEmpty()) {
            return stored;
        }
        Optional<Event> readiness = last(events, EventKind.READINESS_CHECKED);
        if (readiness.isEmpty() || !"NOT_READY".equals(readiness.get().status())) {
            return List.of();
        }
        Map<String, Event> latest = new LinkedHashMap<>();
        for (Event e : events) {
            if (e.kind() == EventKind.TRAIT_EVALUATED
                    && e.traitType() != null
                    && !e.timestamp().isAfter(readiness.get().timestamp())) {
                latest.put(e.traitType(), e);
            }
        }
        Object named = readiness.get().details() == null
                ? null
                : readiness.get().details().get("blocking");
        List<BlockingTrait> out = new ArrayList<>();
        if (named instanceof List<?> names) {
            for (Object name : names) {
                Event e = latest.get(String.valueOf(name));
                out.add(
                        e == null
                                ? new BlockingTrait(
                                        String.valueOf(name),
                                        "FAIL",
                                        null,
                                        null,
                                        readiness.get().timestamp())
                                : new BlockingTrait(
                                        e.traitType(), e.status(), e.message(), e.details(), e.timestamp()));
            }
        }
        out.sort(Comparator.comparing(BlockingTrait::traitType));
        return out;
    }

    private static List<Upstream> upstreams(DayRecords records, String scheduleId, Instant now) {
        List<Upstream> out = new ArrayList<>();
        for (String[] pair : upstreamsOf(records.pipeline(), scheduleId)) {
            PipelineConfig config = records.upstreamConfigs().get(pair[0]);
            RunLog log = records.upstreamRunLogs().get(DayRecords.upstreamKey(pair[0], pair[1]));
            out.add(upstream(pair[0], pair[1], config, log, records.date(), now));
        }
        return out;
    }

    /** An upstream's state from its run log alone (its own status has the full story). */
    private static Upstream upstream(
            String pipelineId, String scheduleId, PipelineConfig config, RunLog log, LocalDate date, Instant now) {
        if (config == null) {
            return new Upstream(pipelineId, scheduleId, DayState.NOT_READY, "not registered");
        }
        if (log == null) {
            ScheduleWindow window = ScheduleWindow.of(config, scheduleId, date);
            return window.isOpen(now)
                    ? new Upstream(pipelineId, scheduleId, DayState.NOT_READY, "not evaluated yet")
                    : new Upstream(
                            pipelineId,
                            scheduleId,
                            DayState.WAITING_FOR_WINDOW,
                            "window opens at " + time(window.opensAt(), window.zone()));
        }
        return switch (log.status()) {
            case COMPLETED -> new Upstream(pipelineId, scheduleId, DayState.COMPLETED, "completed");
            case RUNNING -> new Upstream(pipelineId, scheduleId, DayState.RUNNING, "job running");
            case FAILED ->
                new Upstream(
                        pipelineId,
                        scheduleId,
                        DayState.FAILED,
                        log.failureMessage() == null ? "failed" : log.failureMessage());
            case CANCELLED -> new Upstream(pipelineId, scheduleId, DayState.SKIPPED, "cancelled");
            case PENDING -> new Upstream(pipelineId, scheduleId, DayState.NOT_READY, "not ready");
        };
    }

    /**
     * "quiet until …" / "spaced until …" while the day's latest round was ready but held back by {@code quietPeriod} or
     * {@code minInterval} (its READINESS_CHECKED event carries {@code quietUntil} or {@code spacedUntil} and says why),
     * an execution still holds the day and no job has started since.
     */
    private static Optional<Verdict> held(String holder, RunLog log, List<Event> events, Instant now) {
        if (holder == null || log != null && log.status() == RunLogStatus.RUNNING) {
            return Optional.empty();
        }
        Optional<Event> round = last(events, EventKind.READINESS_CHECKED);
        if (round.isEmpty()
                || !"NOT_READY".equals(round.get().status())
                || round.get().details() == null) {
            return Optional.empty();
        }
        if (log != null && log.updatedAt() != null && round.get().timestamp().isBefore(log.updatedAt())) {
            return Optional.empty(); // a round of an earlier run of the day
        }
        for (String key : List.of("quietUntil", "spacedUntil")) {
            if (round.get().details().get(key) instanceof String until) {
                Instant at;
                try {
                    at = Instant.parse(until);
                } catch (java.time.format.DateTimeParseException e) {
                    return Optional.empty();
                }
                return Optional.of(new Verdict(
                        DayState.NOT_READY,
                        round.get().message(),
                        new NextAction("re-evaluation", at.isBefore(now) ? now : at)));
            }
        }
        return Optional.empty();
    }

    private static Optional<Event> last(List<Event> events, EventKind kind) {
        for (int i = events.size() - 1; i >= 0; i--) {
            if (events.get(i).kind() == kind) {
                return Optional.of(events.get(i));
            }
        }
        return Optional.empty();
    }

    private static String typeOf(RunState run) {
        return run.triggerType() == null ? "" : run.triggerType().wireName();
    }

    /** An instant as every Interlock document writes it (UTC, so the API, CLI and UI agree on one spelling). */
    /** An instant in a reason: the schedule's wall clock with its offset (the JSON fields keep UTC). */
    private static String time(Instant instant, ZoneId zone) {
        if (instant == null) {
            return "an unknown time";
        }
        return ReadableTime.of(instant, zone);
    }
}
