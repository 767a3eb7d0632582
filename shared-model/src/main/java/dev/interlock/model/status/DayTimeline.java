package dev.interlock.model.status;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What happened to a pipeline day, drawn from its events and runs: per schedule the phases each run went through
 * (evaluation wait, trigger, job run, monitoring, retry wait) as bars with a start and an end, each run's path of
 * states, the traits' observations over the day, the events that alert, and the events themselves.
 *
 * @param now      when it was derived: an ongoing phase ends here
 * @param complete false when the day had more events than the bounded read returned (the oldest are missing)
 */
public record DayTimeline(
        String pipelineId,
        LocalDate date,
        Instant now,
        boolean complete,
        List<Phase> phases,
        List<RunPath> runs,
        List<TraitObservation> traits,
        List<Event> alerts,
        List<Event> events) {

    public DayTimeline {
        phases = Frozen.list(phases);
        runs = Frozen.list(runs);
        traits = Frozen.list(traits);
        alerts = Frozen.list(alerts);
        events = Frozen.list(events);
    }

    /** The kinds of phase a bar can show. */
    public enum PhaseKind {
        EVALUATION,
        TRIGGER,
        JOB_RUN,
        MONITORING,
        RETRY_WAIT
    }

    /**
     * One bar: a run ({@code runId}, attempt {@code attempt}) of a schedule in one phase from {@code start} to
     * {@code end}; {@code ongoing} when it has not ended (then {@code end} is {@code now}); {@code outcome} is the
     * status it ended in.
     */
    public record Phase(
            String scheduleId,
            String runId,
            int attempt,
            PhaseKind phase,
            Instant start,
            Instant end,
            boolean ongoing,
            String outcome) {}

    /** A run and the states it passed through, with when. */
    public record RunPath(
            String runId, String scheduleId, String executionName, String triggerType, String status, List<Step> path) {
        public RunPath {
            path = Frozen.list(path);
        }
    }

    /** One state of a run's path. */
    public record Step(String status, Instant at, String message) {}

    /** One evaluation of a trait: its verdict and what it observed. */
    public record TraitObservation(
            String scheduleId, String traitType, String status, String reason, Map<String, Object> value, Instant at) {
        public TraitObservation {
            value = value == null ? null : Frozen.map(value);
        }
    }

    /**
     * The event kinds that go with an alert to operators: the alert itself ({@code ALERT_SENT}), what a dry run would
     * have sent instead, and the events recorded beside an alert.
     */
    public static final Set<EventKind> ALERTING = EnumSet.of(
            EventKind.ALERT_SENT,
            EventKind.DRY_RUN_SLA_MISSED,
            EventKind.DRY_RUN_WOULD_ALERT,
            EventKind.EXECUTION_ERROR,
            EventKind.SLA_BREACHED,
            EventKind.TRIGGER_FAILED,
            EventKind.RETRY_EXHAUSTED,
            EventKind.VALIDATION_EXHAUSTED,
            EventKind.MONITORING_DRIFT_DETECTED,
            EventKind.PROCEEDED_DEGRADED,
            EventKind.PROCEEDED_FORCED);

    /**
     * Derives the timeline of {@code date} from the pipeline's events of that date (oldest first) and its runs of
     * that date, at {@code now}.
     */
    public static DayTimeline derive(
            String pipelineId, LocalDate date, List<Event> events, List<RunState> runs, boolean complete, Instant now) {
        List<Event> day = events.stream()
                .filter(e -> date.equals(e.date()))
                .sorted(Comparator.comparing(Event::timestamp))
                .toList();
        Map<String, RunState> runById = new LinkedHashMap<>();
        runs.stream()
                .filter(r -> date.equals(r.date()))
                .sorted(Comparator.comparing(RunState::createdAt))
                .forEach(r -> runById.put(r.runId(), r));
        Map<String, List<Event>> stateEvents = new LinkedHashMap<>();
        for (Event e : day) {
            if (e.kind() == EventKind.RUN_STATE_CHANGED && e.runId() != null) {
                stateEvents.computeIfAbsent(e.runId(), k -> new ArrayList<>()).add(e);
            }
        }
        for (RunState run : runById.values()) {
            stateEvents.computeIfAbsent(run.runId(), k -> new ArrayList<>());
        }
        List<RunPath> paths = new ArrayList<>();
        List<Phase> phases = new ArrayList<>();
        Map<String, Integer> attempts = new LinkedHashMap<>();
        List<Map.Entry<String, List<Event>>> ordered = new ArrayList<>(stateEvents.entrySet());
        ordered.sort(Comparator.comparing(entry -> start(entry.getValue(), runById.get(entry.getKey()))));
        for (int i = 0; i < ordered.size(); i++) {
            String runId = ordered.get(i).getKey();
            RunState run = runById.get(runId);
            List<Step> path = path(ordered.get(i).getValue(), run);
            String scheduleId = run != null
                    ? run.scheduleId()
                    : ordered.get(i).getValue().get(0).scheduleId();
            String status = run != null
                    ? run.status().wireName()
                    : path.isEmpty() ? null : path.get(path.size() - 1).status();
            paths.add(new RunPath(
                    runId,
                    scheduleId,
                    run == null ? null : run.executionName(),
                    run == null || run.triggerType() == null
                            ? null
                            : run.triggerType().wireName(),
                    status,
                    path));
            int attempt = attempts.merge(Objects.requireNonNullElse(scheduleId, ""), 1, Integer::sum);
            phases.addAll(
                    phases(scheduleId, runId, attempt, path, run, day, next(ordered, i, scheduleId, runById), now));
        }
        List<TraitObservation> traits = day.stream()
                .filter(e -> e.kind() == EventKind.TRAIT_EVALUATED)
                .map(e -> new TraitObservation(
                        e.scheduleId(), e.traitType(), e.status(), e.message(), e.details(), e.timestamp()))
                .toList();
        List<Event> alerts =
                day.stream().filter(e -> ALERTING.contains(e.kind())).toList();
        return new DayTimeline(pipelineId, date, now, complete, phases, paths, traits, alerts, day);
    }

    private static Instant start(List<Event> events, RunState run) {
        if (run != null && run.createdAt() != null) {
            return run.createdAt();
        }
        return events.isEmpty() ? Instant.EPOCH : events.get(0).timestamp();
    }

    /** When the next run of the same schedule began (the end of a retry wait), or null. */
    private static Instant next(
            List<Map.Entry<String, List<Event>>> ordered, int index, String scheduleId, Map<String, RunState> runs) {
        for (int j = index + 1; j < ordered.size(); j++) {
            RunState run = runs.get(ordered.get(j).getKey());
            List<Event> events = ordered.get(j).getValue();
            String schedule = run != null
                    ? run.scheduleId()
                    : events.isEmpty() ? null : events.get(0).scheduleId();
            if (Objects.equals(schedule, scheduleId)) {
                return start(events, run);
            }
        }
        return null;
    }

    /** The run's states in time order; a run created before the events read still starts at its creation. */
    private static List<Step> path(List<Event> events, RunState run) {
        List<Step> steps = new ArrayList<>();
        for (Event e : events) {
            if (e.status() != null
                    && (steps.isEmpty() || !steps.get(steps.size() - 1).status().equals(e.status()))) {
                steps.add(new Step(e.status(), e.timestamp(), e.message()));
            }
        }
        if (run != null
                && (steps.isEmpty()
                        || !RunStatus.PENDING.wireName().equals(steps.get(0).status()))) {
            steps.add(0, new Step(RunStatus.PENDING.wireName(), run.createdAt(), "run created"));
        }
        if (run != null
                && !steps.get(steps.size() - 1).status().equals(run.status().wireName())) {
            steps.add(new Step(run.status().wireName(), run.updatedAt(), null));
        }
        return steps;
    }

    private static List<Phase> phases(
            String scheduleId,
            String runId,
            int attempt,
            List<Step> path,
            RunState run,
            List<Event> day,
            Instant nextRunStart,
            Instant now) {
        List<Phase> out = new ArrayList<>();
        boolean live = run != null && !run.status().isTerminal();
        for (int i = 0; i < path.size(); i++) {
            Step step = path.get(i);
            PhaseKind kind = switch (step.status()) {
                case "PENDING" -> PhaseKind.EVALUATION;
                case "TRIGGERING" -> PhaseKind.TRIGGER;
                case "RUNNING" -> PhaseKind.JOB_RUN;
                case "COMPLETED_MONITORING" -> PhaseKind.MONITORING;
                default -> null;
            };
            if (kind == null) {
                continue;
            }
            boolean last = i == path.size() - 1;
            Instant end = last ? (live ? now : step.at()) : path.get(i + 1).at();
            String outcome = last ? null : path.get(i + 1).status();
            out.add(new Phase(
                    scheduleId,
                    runId,
                    attempt,
                    kind,
                    step.at(),
                    end.isBefore(step.at()) ? step.at() : end,
                    last && live,
                    outcome));
        }
        Step end = path.isEmpty() ? null : path.get(path.size() - 1);
        if (end != null && RunStatus.COMPLETED.wireName().equals(end.status())) {
            monitoring(scheduleId, runId, attempt, end.at(), day, now).ifPresent(out::add);
        }
        if (end != null && RunStatus.FAILED.wireName().equals(end.status())) {
            boolean retrying =
                    day.stream().anyMatch(e -> e.kind() == EventKind.RETRY_SCHEDULED && runId.equals(e.runId()));
            if (retrying || nextRunStart != null) {
                Instant until = nextRunStart != null ? nextRunStart : now;
                out.add(new Phase(
                        scheduleId,
                        runId,
                        attempt,
                        PhaseKind.RETRY_WAIT,
                        end.at(),
                        until.isBefore(end.at()) ? end.at() : until,
                        nextRunStart == null,
                        null));
            }
        }
        return out;
    }

    /**
     * The watch for late data after a completed run, from the monitoring loop's records of that run: from the
     * completion until the loop ended ({@code MONITORING_COMPLETED}, {@code MONITORING_DRIFT_DETECTED}: its status is
     * the outcome), else until its window's end ({@code MONITORING_WAITING}'s {@code monitoringEndsAt}) or now while
     * that is still ahead. Empty when the run was not monitored.
     */
    private static Optional<Phase> monitoring(
            String scheduleId, String runId, int attempt, Instant completed, List<Event> day, Instant now) {
        boolean watched = false;
        Instant endsAt = null;
        Event ended = null;
        for (Event e : day) {
            if (!runId.equals(e.runId())) {
                continue;
            }
            if (e.kind() == EventKind.MONITORING_WAITING) {
                watched = true;
                endsAt = StatusDerivation.instant(
                        e.details() == null ? null : e.details().get("monitoringEndsAt"));
            } else if (ended == null
                    && (e.kind() == EventKind.MONITORING_COMPLETED
                            || e.kind() == EventKind.MONITORING_DRIFT_DETECTED)) {
                ended = e;
            }
        }
        if (!watched) {
            return Optional.empty();
        }
        boolean ongoing = ended == null && endsAt != null && now.isBefore(endsAt);
        Instant until = ended != null ? ended.timestamp() : ongoing || endsAt == null ? now : endsAt;
        return Optional.of(new Phase(
                scheduleId,
                runId,
                attempt,
                PhaseKind.MONITORING,
                completed,
                until.isBefore(completed) ? completed : until,
                ongoing,
                ended == null ? null : ended.status()));
    }
}
