package dev.interlock.model.schedule;

import com.cronutils.model.Cron;
import com.cronutils.model.CronType;
import com.cronutils.model.definition.CronDefinitionBuilder;
import com.cronutils.model.time.ExecutionTime;
import com.cronutils.parser.CronParser;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A five-field Unix cron expression ({@code minute hour day-of-month month day-of-week}), parsed and stepped by
 * cron-utils, read on the local clock of a zone. The windows of a date are the local times of that date at which the
 * cron fires: a time the zone skips (the spring-forward hour) has no window, and a time the zone repeats (the
 * fall-back hour) is one window, at its first occurrence, so it never runs twice.
 */
public final class CronSchedule {

    /** A date's firings are stepped at most this many times (every minute of a 25-hour day). */
    private static final int MAX_FIRINGS_A_DAY = 25 * 60;
    /** How many parsed expressions are kept (a deployment has few distinct ones). */
    private static final int CACHE_LIMIT = 512;
    /** A cron that does not fire within this many years never will (Feb 29 on a Monday recurs within 28). */
    private static final int NEVER_YEARS = 30;

    private static final Map<String, CronSchedule> PARSED = new ConcurrentHashMap<>();

    /** How many (zone, date) firing lists one expression keeps. */
    private static final int DAYS_LIMIT = 1024;

    private final String expression;
    private final ExecutionTime execution;
    private final Map<Day, List<LocalTime>> days = new ConcurrentHashMap<>();

    private CronSchedule(String expression, ExecutionTime execution) {
        this.expression = expression;
        this.execution = execution;
    }

    /** The parser is built on first use, not at class load (cold start). */
    private static final class Parser {
        static final CronParser UNIX = new CronParser(CronDefinitionBuilder.instanceDefinitionFor(CronType.UNIX));
    }

    /**
     * The cron {@code expression} means.
     *
     * @throws IllegalArgumentException naming what is wrong (a seconds field, a value out of range, a cron that never
     *                                  fires)
     */
    public static CronSchedule parse(String expression) {
        if (expression == null || expression.isBlank()) {
            throw new IllegalArgumentException("cron must be five fields: minute hour day-of-month month day-of-week");
        }
        String text = expression.trim().replaceAll("\\s+", " ");
        CronSchedule known = PARSED.get(text);
        if (known != null) {
            return known;
        }
        int fields = text.split(" ").length;
        if (fields != 5) {
            throw new IllegalArgumentException("'" + text + "' has " + fields + " fields; a cron has five (minute hour "
                    + "day-of-month month day-of-week)"
                    + (fields == 6
                            ? ": a seconds field is not supported, a " + "schedule fires at most once a minute"
                            : ""));
        }
        Cron cron;
        try {
            cron = Parser.UNIX.parse(text).validate();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + text + "' is not a cron expression: " + e.getMessage(), e);
        }
        CronSchedule parsed = new CronSchedule(text, ExecutionTime.forCron(cron));
        ZonedDateTime probe = ZonedDateTime.of(2001, 1, 1, 0, 0, 0, 0, java.time.ZoneOffset.UTC);
        Optional<ZonedDateTime> first = parsed.execution.nextExecution(probe);
        if (first.isEmpty() || first.get().isAfter(probe.plusYears(NEVER_YEARS))) {
            throw new IllegalArgumentException("'" + text + "' never fires (no such date)");
        }
        if (PARSED.size() >= CACHE_LIMIT) {
            PARSED.clear();
        }
        PARSED.put(text, parsed);
        return parsed;
    }

    /** The expression as parsed (single spaces). */
    public String expression() {
        return expression;
    }

    /**
     * The local times of {@code date} at which this cron fires in {@code zone}, in order, each once. Remembered per
     * (zone, date): stepping cron-utils costs about a millisecond a day, and the watchdog asks for the same few days
     * of the same few expressions for every pipeline it handles.
     */
    public List<LocalTime> firingsOn(LocalDate date, ZoneId zone) {
        Day day = new Day(zone, date);
        List<LocalTime> known = days.get(day);
        if (known != null) {
            return known;
        }
        List<LocalTime> stepped = step(date, zone);
        if (days.size() >= DAYS_LIMIT) {
            days.clear();
        }
        days.put(day, stepped);
        return stepped;
    }

    private record Day(ZoneId zone, LocalDate date) {}

    private List<LocalTime> step(LocalDate date, ZoneId zone) {
        ZonedDateTime end = date.plusDays(1).atStartOfDay(zone);
        ZonedDateTime cursor = date.atStartOfDay(zone).minusSeconds(1);
        Set<LocalTime> times = new LinkedHashSet<>();
        for (int i = 0; i < MAX_FIRINGS_A_DAY; i++) {
            Optional<ZonedDateTime> next = execution.nextExecution(cursor);
            if (next.isEmpty() || !next.get().isBefore(end)) {
                break;
            }
            cursor = next.get();
            if (cursor.toLocalDate().equals(date)) {
                times.add(cursor.toLocalTime().withSecond(0).withNano(0));
            }
        }
        return List.copyOf(new ArrayList<>(times));
    }

    /** Whether this cron has a window at local time {@code time} of {@code date} in {@code zone}. */
    public boolean firesAt(LocalDate date, LocalTime time, ZoneId zone) {
        ZonedDateTime at = ZonedDateTime.of(date, time, zone);
        if (!at.toLocalTime().equals(time)) {
            return false; // the zone skips this time on this date
        }
        return execution.isMatch(at);
    }

    @Override
    public String toString() {
        return expression;
    }
}
