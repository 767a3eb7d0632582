package dev.interlock.model.watch;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.SlaConfig;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.schedule.ScheduleWindows;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * When the watchdog must look at a pipeline and what it then has to do (statemachine/CONTRACT.md §4 watchdog, forward-only): pure
 * functions of a config, its {@link PipelineWatch} and the time, shared by the stores (registration writes the first
 * due instant) and the watchdog (which handles the events and moves the due instant on).
 *
 * <p>Events are window openings (a schedule's {@code after}) and passed completion deadlines, each of one execution
 * date. An event counts only if its schedule existed then: an opening at or after the schedule's {@code since} (or, with
 * {@code catchUp}, any opening of its registration day), and a deadline after {@code since} whose window counts (a
 * schedule without {@code after} is open all day, so only its deadline's time matters).
 */
public final class WatchPlan {

    /** Where a new pipeline's watch starts: far enough back for a catch-up of its registration day in any zone. */
    static final Duration LOOKBACK = Duration.ofDays(2);
    /** A pipeline with a schedule that cannot be computed is looked at (and reported) again this often. */
    public static final Duration PROBLEM_RECHECK = Duration.ofHours(1);
    /** A watchdog that was away longer than this catches up only the last this-much of it. */
    public static final Duration MAX_CATCH_UP = Duration.ofDays(35);
    /** How many days after its execution date a window's deadline is still looked for (a rolled or long deadline). */
    private static final int MIN_LAG_DAYS = 1;
    /** A cron schedule's next event is looked for this far at a time, at most this many times (about a year). */
    private static final Duration CRON_LOOKAHEAD_STEP = Duration.ofDays(28);

    private static final int CRON_LOOKAHEAD_STEPS = 14;

    private WatchPlan() {}

    /** The events due in {@code (watch.handledThrough, until]}, oldest first, and the schedules that cannot be computed. */
    public record Due(List<WatchEvent> events, Map<String, String> problems) {}

    /**
     * The watch of {@code config} registered at {@code now}: schedules unchanged since {@code previous} keep their
     * state; new or changed ones start at {@code now} (forward-only unless the config says {@code catchUp}). It is due at
     * its first event, or now when that already passed or a schedule cannot be computed (so it is reported at once).
     */
    public static PipelineWatch registered(PipelineConfig config, PipelineWatch previous, Instant now) {
        Instant at = now.truncatedTo(ChronoUnit.MILLIS);
        Map<String, ScheduleWatch> schedules = new LinkedHashMap<>();
        boolean catchingUp = false;
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            String fingerprint = fingerprint(schedule, config.sla());
            ScheduleWatch before =
                    previous == null ? null : previous.schedules().get(schedule.name());
            if (before != null && before.fingerprint().equals(fingerprint)) {
                schedules.put(schedule.name(), before);
            } else {
                schedules.put(schedule.name(), new ScheduleWatch(fingerprint, at, config.catchUp()));
                catchingUp |= config.catchUp();
            }
        }
        Instant floor = at.minus(LOOKBACK);
        Instant handled =
                previous == null || catchingUp && previous.handledThrough().isAfter(floor)
                        ? floor
                        : previous.handledThrough();
        PipelineWatch watch = new PipelineWatch(
                config.name(), handled, schedules, null, previous == null ? 1 : previous.version() + 1);
        Next next = next(config, watch, handled);
        Instant dueAt = !next.problems().isEmpty()
                ? at
                : next.at().map(t -> t.isBefore(at) ? at : t).orElse(null);
        return new PipelineWatch(config.name(), handled, schedules, dueAt, watch.version());
    }

    /** The events of {@code config} due in {@code (watch.handledThrough, until]}, at most {@link #MAX_CATCH_UP} back. */
    public static Due due(PipelineConfig config, PipelineWatch watch, Instant until) {
        Instant floor = until.minus(MAX_CATCH_UP);
        Instant from = watch.handledThrough().isBefore(floor) ? floor : watch.handledThrough();
        List<WatchEvent> events = new ArrayList<>();
        Map<String, String> problems = new LinkedHashMap<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            ScheduleWatch known = watch.schedules().get(schedule.name());
            if (known == null) {
                // Registered after the watch was read: the registration's own watch covers it.
                continue;
            }
            try {
                events.addAll(events(config, schedule, known, from, until));
            } catch (IllegalArgumentException | DateTimeException e) {
                problems.put(schedule.name(), e.getMessage());
            }
        }
        events.sort(Comparator.comparing(WatchEvent::at)
                .thenComparing(WatchEvent::scheduleId)
                .thenComparing(WatchEvent::kind));
        return new Due(List.copyOf(events), Map.copyOf(problems));
    }

    /**
     * The watch after every event up to {@code until} was handled: due at its next event, or within
     * {@link #PROBLEM_RECHECK} while a schedule cannot be computed.
     */
    public static PipelineWatch advanced(PipelineConfig config, PipelineWatch watch, Instant until) {
        Instant handled = until.truncatedTo(ChronoUnit.MILLIS);
        PipelineWatch moved =
                new PipelineWatch(watch.pipelineId(), handled, watch.schedules(), null, watch.version() + 1);
        Next next = next(config, moved, handled);
        Instant dueAt = next.at().orElse(null);
        if (!next.problems().isEmpty()) {
            Instant recheck = handled.plus(PROBLEM_RECHECK);
            dueAt = dueAt == null || recheck.isBefore(dueAt) ? recheck : dueAt;
        }
        return new PipelineWatch(watch.pipelineId(), handled, watch.schedules(), dueAt, moved.version());
    }

    /**
     * The watch after the events up to {@code handledThrough} were handled and a later one could not be (e.g. its
     * exclusion calendar is not registered): due again at {@code retryAt}, from that event on.
     */
    public static PipelineWatch retried(PipelineWatch watch, Instant handledThrough, Instant retryAt) {
        Instant handled = handledThrough.truncatedTo(ChronoUnit.MILLIS);
        Instant from = handled.isBefore(watch.handledThrough()) ? watch.handledThrough() : handled;
        return new PipelineWatch(
                watch.pipelineId(),
                from,
                watch.schedules(),
                retryAt.truncatedTo(ChronoUnit.MILLIS),
                watch.version() + 1);
    }

    /** The fingerprint of a schedule's timing: its opening, its effective completion deadline and zone, as written. */
    static String fingerprint(ScheduleConfig schedule, SlaConfig sla) {
        String deadline =
                present(schedule.deadline()) ? schedule.deadline() : sla == null ? null : sla.completionDeadline();
        String zone = present(schedule.timezone()) ? schedule.timezone() : sla == null ? null : sla.timezone();
        String timing = "after=" + text(schedule.after()) + ";deadline=" + text(deadline) + ";zone=" + text(zone);
        return schedule.hasCron() ? timing + ";cron=" + text(schedule.cron()) : timing;
    }

    private record Next(Optional<Instant> at, Map<String, String> problems) {}

    /** The earliest counted event after {@code after}, over the schedules that can be computed. */
    private static Next next(PipelineConfig config, PipelineWatch watch, Instant after) {
        Instant earliest = null;
        Map<String, String> problems = new LinkedHashMap<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            ScheduleWatch known = watch.schedules().get(schedule.name());
            if (known == null) {
                continue;
            }
            try {
                ZoneId zone = ScheduleWindow.zoneOf(schedule, config.sla());
                // Events recur daily: the next counted one lies within the deadline lag plus two days of the later of
                // `after` and the schedule's registration.
                Instant start = known.since().isAfter(after) ? known.since() : after;
                Instant horizon = LocalDate.ofInstant(start, zone)
                        .plusDays(lagDays(config, schedule, zone, start) + 2L)
                        .atStartOfDay(zone)
                        .toInstant();
                Instant from = after;
                // A cron may not fire for days (weekly, monthly): look further, a few weeks at a time, up to a year.
                for (int step = 0; ; step++) {
                    Instant found = null;
                    for (WatchEvent event : events(config, schedule, known, from, horizon)) {
                        if (event.at().isAfter(after)
                                && (found == null || event.at().isBefore(found))) {
                            found = event.at();
                        }
                    }
                    if (found != null) {
                        earliest = earliest == null || found.isBefore(earliest) ? found : earliest;
                        break;
                    }
                    if (!schedule.hasCron() || step >= CRON_LOOKAHEAD_STEPS) {
                        break;
                    }
                    from = horizon;
                    horizon = horizon.plus(CRON_LOOKAHEAD_STEP);
                }
            } catch (IllegalArgumentException | DateTimeException e) {
                problems.put(schedule.name(), e.getMessage());
            }
        }
        return new Next(Optional.ofNullable(earliest), problems);
    }

    /** The counted events of one schedule whose execution dates can fall in {@code (from, until]}. */
    private static List<WatchEvent> events(
            PipelineConfig config, ScheduleConfig schedule, ScheduleWatch known, Instant from, Instant until) {
        ZoneId zone = ScheduleWindow.zoneOf(schedule, config.sla());
        boolean hasAfter = opens(schedule);
        LocalDate last = LocalDate.ofInstant(until, zone);
        List<WatchEvent> events = new ArrayList<>();
        for (LocalDate date = LocalDate.ofInstant(from, zone).minusDays(lagDays(config, schedule, zone, from));
                !date.isAfter(last);
                date = date.plusDays(1)) {
            for (String scheduleId : ScheduleWindows.idsOf(config, schedule, date)) {
                ScheduleWindow window = ScheduleWindow.of(config, scheduleId, date);
                boolean windowCounts = counts(known, window);
                if (hasAfter && windowCounts && within(window.opensAt(), from, until)) {
                    events.add(new WatchEvent(scheduleId, date, WatchEvent.Kind.WINDOW_OPENS, window.opensAt()));
                }
                Instant deadline = window.completionDeadline();
                if (deadlineCounts(known, deadline) && (!hasAfter || windowCounts)) {
                    // SLA_MISSED is due once the deadline is strictly behind us (ScheduleWindow.breached).
                    Instant passed = deadline.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
                    if (within(passed, from, until)) {
                        events.add(new WatchEvent(scheduleId, date, WatchEvent.Kind.DEADLINE_PASSED, passed));
                    }
                }
            }
        }
        return events;
    }

    /**
     * When the schedule of {@code window} was registered, if that was after the window opened and the watchdog
     * therefore neither runs the window nor alerts its deadline (forward-only): a window with an opening (an
     * {@code after} or a cron firing) that opened before its schedule's registration, unless {@code catchUp} asks for
     * the windows of the registration day. Empty when the window counts, when the schedule has no opening (open all
     * day: its deadline counts whenever it was registered) or when {@code watch} does not know the schedule.
     */
    public static Optional<Instant> registeredAfterOpening(
            PipelineConfig config, PipelineWatch watch, ScheduleWindow window) {
        Optional<ScheduleConfig> schedule = config.schedule(window.scheduleId());
        ScheduleWatch known =
                schedule.isEmpty() ? null : watch.schedules().get(schedule.get().name());
        if (known == null || !opens(schedule.get()) || counts(known, window)) {
            return Optional.empty();
        }
        return Optional.of(known.since());
    }

    /**
     * Whether the completion deadline of {@code window} passed before its schedule was registered, so the watchdog
     * never alerts it (a schedule open all day counts its windows whenever it was registered, not their deadlines).
     * False when {@code watch} does not know the schedule.
     */
    public static boolean deadlineBeforeRegistration(
            PipelineConfig config, PipelineWatch watch, ScheduleWindow window) {
        Optional<ScheduleConfig> schedule = config.schedule(window.scheduleId());
        ScheduleWatch known = schedule.isEmpty() || watch == null
                ? null
                : watch.schedules().get(schedule.get().name());
        return known != null
                && window.completionDeadline() != null
                && !deadlineCounts(known, window.completionDeadline());
    }

    /** A deadline the watchdog alerts: one that passes after its schedule was registered. */
    private static boolean deadlineCounts(ScheduleWatch known, Instant deadline) {
        return deadline != null && deadline.isAfter(known.since());
    }

    /**
     * The windows of {@code config} that opened in {@code [from, until)}, oldest first: what a pipeline paused over that
     * span did not run (resuming is forward-only). Schedules without an opening (open all day) count from the start of
     * their date. Looks back at most {@link #MAX_CATCH_UP}.
     */
    public static List<WatchEvent> openedBetween(PipelineConfig config, Instant from, Instant until) {
        Instant start = from.isBefore(until.minus(MAX_CATCH_UP)) ? until.minus(MAX_CATCH_UP) : from;
        List<WatchEvent> opened = new ArrayList<>();
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            ZoneId zone = ScheduleWindow.zoneOf(schedule, config.sla());
            LocalDate last = LocalDate.ofInstant(until, zone);
            for (LocalDate date = LocalDate.ofInstant(start, zone).minusDays(1);
                    !date.isAfter(last);
                    date = date.plusDays(1)) {
                for (String scheduleId : ScheduleWindows.idsOf(config, schedule, date)) {
                    Instant opensAt =
                            ScheduleWindow.of(config, scheduleId, date).opensAt();
                    if (!opensAt.isBefore(start) && opensAt.isBefore(until)) {
                        opened.add(new WatchEvent(scheduleId, date, WatchEvent.Kind.WINDOW_OPENS, opensAt));
                    }
                }
            }
        }
        opened.sort(Comparator.comparing(WatchEvent::at).thenComparing(WatchEvent::scheduleId));
        return opened;
    }

    /** Whether a schedule's windows open at a time (a cron window opens at its firing, like a schedule with after). */
    private static boolean opens(ScheduleConfig schedule) {
        return present(schedule.after()) || schedule.hasCron();
    }

    /**
     * Whether a window is the watchdog's: it opened at or after its schedule's registration, or it is of the
     * registration day (in the schedule's zone) and the schedule says {@code catchUp}.
     */
    private static boolean counts(ScheduleWatch known, ScheduleWindow window) {
        LocalDate registrationDay = LocalDate.ofInstant(known.since(), window.zone());
        return !window.opensAt().isBefore(known.since())
                || known.catchUp() && window.date().equals(registrationDay);
    }

    /** How many days after the start of its execution date a schedule's completion deadline can fall. */
    private static long lagDays(PipelineConfig config, ScheduleConfig schedule, ZoneId zone, Instant around) {
        LocalDate date = LocalDate.ofInstant(around, zone);
        long days = MIN_LAG_DAYS;
        List<String> ids = ScheduleWindows.idsOf(config, schedule, date);
        // A cron's last window of the day has the latest deadline; a date without firings borrows the plain form's.
        String last = ids.isEmpty() ? schedule.name() : ids.get(ids.size() - 1);
        Instant deadline = ScheduleWindow.of(config, last, date).completionDeadline();
        if (deadline != null) {
            days = Math.max(
                    days,
                    Duration.between(date.atStartOfDay(zone).toInstant(), deadline)
                                    .toDays()
                            + 1);
        }
        return days;
    }

    private static boolean within(Instant at, Instant from, Instant until) {
        return at.isAfter(from) && !at.isAfter(until);
    }

    private static boolean present(String text) {
        return text != null && !text.isBlank();
    }

    private static String text(String value) {
        return present(value) ? value.trim() : "";
    }
}
