package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.window.WindowId;
import java.time.LocalTime;

/**
 * A named window of a pipeline ({@code daily}, {@code h00}…): opens at {@code after}, due by {@code deadline}, both
 * {@code HH:MM} in {@code timezone} (default: {@code sla.timezone}, then UTC); a deadline may also be a duration.
 *
 * <p>A schedule with a {@code cron} expression (five fields, read in its zone) is many windows: one per firing, each
 * its own pipeline day whose schedule id is {@link #windowId the schedule's name and the firing's local time}
 * ({@link WindowId}, {@code hourly.1400}). Its {@code after} (a duration, {@code +5m}) and {@code deadline} count from each firing.
 */
public record ScheduleConfig(
        String name,
        String after,
        String deadline,
        String timezone,
        @JsonInclude(JsonInclude.Include.NON_NULL) String cron) {

    /** The schedule every pipeline without {@code schedules} has. */
    public static final String DAILY = "daily";

    /** A schedule without cron. */
    public ScheduleConfig(String name, String after, String deadline, String timezone) {
        this(name, after, deadline, timezone, null);
    }

    /** Shorthand for a schedule with only a name. */
    public static ScheduleConfig named(String name) {
        return new ScheduleConfig(name, null, null, null, null);
    }

    /** Whether this schedule is a cron schedule (one window per firing). */
    public boolean hasCron() {
        return cron != null && !cron.isBlank();
    }

    /** The schedule id of this cron schedule's window that fires at local time {@code firing}: {@code hourly.1400}. */
    public String windowId(LocalTime firing) {
        return new WindowId(name, firing).toString();
    }
}
