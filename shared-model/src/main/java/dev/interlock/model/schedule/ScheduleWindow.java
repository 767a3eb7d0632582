package dev.interlock.model.schedule;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.SlaConfig;
import dev.interlock.model.window.WindowId;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;

/**
 * The window of one (pipeline, schedule) on one execution date, as instants: when it opens and its deadlines
 * (null when not configured). All times are read in the schedule's zone (its {@code timezone}, else
 * {@code sla.timezone}, else UTC); spans count from the opening (its {@code after}, else midnight of the date; for a
 * window of a cron schedule, its firing plus {@code after}).
 */
public record ScheduleWindow(
        String scheduleId,
        LocalDate date,
        ZoneId zone,
        Instant opensAt,
        Instant evaluationDeadline,
        Instant validationDeadline,
        Instant completionDeadline) {

    /** A wall-clock deadline is rolled forward at most this many days to land after the opening (DST gaps). */
    private static final int MAX_ROLL_DAYS = 3;

    /**
     * The window of {@code scheduleId} on {@code date}. A schedule id the config does not list (markers choose it)
     * gets a bare window in the SLA zone. Unparsable times or zones throw {@link IllegalArgumentException};
     * registration validation rejects those configs first.
     */
    public static ScheduleWindow of(PipelineConfig config, String scheduleId, LocalDate date) {
        ScheduleConfig schedule = config.schedule(scheduleId).orElse(ScheduleConfig.named(scheduleId));
        SlaConfig sla = config.sla() == null ? new SlaConfig(null, null, null, null) : config.sla();
        ZoneId zone = zoneOf(schedule, sla);
        Instant opensAt;
        if (schedule.hasCron()) {
            // One window of a cron schedule: it opens at its firing (plus `after`, a duration, when set).
            LocalTime firing = WindowId.parse(scheduleId).map(WindowId::firing).orElse(LocalTime.MIDNIGHT);
            Instant fired = ZonedDateTime.of(date, firing, zone).toInstant();
            opensAt = present(schedule.after()) ? fired.plus(TimeSpan.parse(schedule.after())) : fired;
        } else {
            opensAt = present(schedule.after())
                    ? ZonedDateTime.of(date, ClockTime.parse(schedule.after()), zone)
                            .toInstant()
                    : date.atStartOfDay(zone).toInstant();
        }
        String completion = present(schedule.deadline()) ? schedule.deadline() : sla.completionDeadline();
        return new ScheduleWindow(
                scheduleId,
                date,
                zone,
                opensAt,
                deadline(sla.evaluationDeadline(), date, zone, opensAt),
                deadline(sla.validationTimeout(), date, zone, opensAt),
                deadline(completion, date, zone, opensAt));
    }

    /**
     * The current execution date of a pipeline's schedule: today in the schedule's zone (its own, else the SLA's, else
     * UTC). What a request or marker without a date means, and what the watchdog judges as today; a schedule id the
     * config does not list is read in the SLA zone.
     */
    public static LocalDate currentDate(PipelineConfig config, String scheduleId, Instant now) {
        return LocalDate.ofInstant(now, zoneOf(config, scheduleId));
    }

    /**
     * The zone of a pipeline's schedule (or window of a cron schedule): where its day and times are read and shown. A
     * schedule id the config does not list is read in the SLA zone.
     */
    public static ZoneId zoneOf(PipelineConfig config, String scheduleId) {
        ScheduleConfig schedule = config.schedule(scheduleId).orElse(ScheduleConfig.named(scheduleId));
        return zoneOf(schedule, config.sla());
    }

    /** The zone of a schedule: its own, else the SLA's, else UTC. */
    public static ZoneId zoneOf(ScheduleConfig schedule, SlaConfig sla) {
        if (schedule != null && present(schedule.timezone())) {
            return zone(schedule.timezone());
        }
        if (sla != null && present(sla.timezone())) {
            return zone(sla.timezone());
        }
        return ZoneOffset.UTC;
    }

    private static ZoneId zone(String name) {
        try {
            return ZoneId.of(name.trim());
        } catch (DateTimeException e) {
            throw new IllegalArgumentException("'" + name + "' is not a time zone", e);
        }
    }

    /** Resolves one configured deadline against a window opening; null text means no deadline. */
    public static Instant deadline(String text, LocalDate date, ZoneId zone, Instant opensAt) {
        if (!present(text)) {
            return null;
        }
        return switch (DeadlineSpec.parse(text)) {
            case DeadlineSpec.AfterOpening after -> opensAt.plus(after.offset());
            case DeadlineSpec.WallClock wall -> {
                Instant candidate = ZonedDateTime.of(date, wall.time(), zone).toInstant();
                for (int day = 1; candidate.isBefore(opensAt) && day <= MAX_ROLL_DAYS; day++) {
                    candidate = ZonedDateTime.of(date.plusDays(day), wall.time(), zone)
                            .toInstant();
                }
                yield candidate;
            }
        };
    }

    /** Whether the window has opened at {@code now}. */
    public boolean isOpen(Instant now) {
        return !now.isBefore(opensAt);
    }

    /** Whether {@code deadline} is set and {@code now} is strictly after it. */
    public static boolean breached(Instant deadline, Instant now) {
        return deadline != null && now.isAfter(deadline);
    }

    private static boolean present(String text) {
        return text != null && !text.isBlank();
    }
}
