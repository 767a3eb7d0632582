package dev.interlock.model.pipeline;

/**
 * A named window of a pipeline ({@code daily}, {@code h00}…): opens at {@code after}, due by {@code deadline}, both
 * {@code HH:MM} in {@code timezone} (default: {@code sla.timezone}, then UTC); a deadline may also be a duration.
 */
public record ScheduleConfig(String name, String after, String deadline, String timezone) {

    /** The schedule every pipeline without {@code schedules} has. */
    public static final String DAILY = "daily";

    /** Shorthand for a schedule with only a name. */
    public static ScheduleConfig named(String name) {
        return new ScheduleConfig(name, null, null, null);
    }
}
