package dev.interlock.model.schedule;

import dev.interlock.model.pipeline.PipelineConfig;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An instant as a person reads it: the wall clock of the pipeline's (schedule's) zone, always with its offset —
 * {@code 2026-11-19 17:45 -08:00}, seconds only when there are some. The one format of every time the CLI, the
 * {@code why} text, the status reasons and the alert messages show; the JSON keeps UTC instants.
 */
public final class ReadableTime {

    private static final DateTimeFormatter MINUTES = DateTimeFormatter.ofPattern("HH:mm xxx", Locale.ROOT);
    private static final DateTimeFormatter SECONDS = DateTimeFormatter.ofPattern("HH:mm:ss xxx", Locale.ROOT);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("uuuu-MM-dd ", Locale.ROOT);

    /** A UTC instant as the trail writes it inside a sentence ({@code 2026-03-10T09:00:00.000Z}). */
    private static final Pattern UTC_INSTANT =
            Pattern.compile("\\b\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?Z\\b");

    private ReadableTime() {}

    /**
     * {@code text} with every UTC instant in it ({@code …T09:00:00.000Z}, as messages recorded in the trail carry them)
     * as a person reads it in {@code zone}: what the CLI, the web UI and the alert texts show of a stored message.
     */
    public static String inText(String text, ZoneId zone) {
        if (text == null || text.indexOf('T') < 0) {
            return text;
        }
        Matcher m = UTC_INSTANT.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String found = m.group();
            String shown;
            try {
                shown = of(Instant.parse(m.group(1) == null ? found.replace("Z", ":00Z") : found), zone);
            } catch (DateTimeParseException e) {
                shown = found;
            }
            m.appendReplacement(out, Matcher.quoteReplacement(shown));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** {@code 2026-11-19 17:45 -08:00}: the date, the time and the offset in {@code zone}. */
    public static String of(Instant at, ZoneId zone) {
        ZonedDateTime local = at.atZone(zone);
        return DATE.format(local) + clock(local);
    }

    /** {@code 17:45 -08:00}: the time and the offset in {@code zone}, for where the date is said already. */
    public static String timeOf(Instant at, ZoneId zone) {
        return clock(at.atZone(zone));
    }

    /** {@code 2026-11-19 17:45 -08:00 America/Los_Angeles}: for a sentence read far from any status page. */
    public static String withZone(Instant at, ZoneId zone) {
        return of(at, zone) + " " + zoneName(zone);
    }

    /**
     * The zone a pipeline schedule's times are shown in ({@link ScheduleWindow#zoneOf(PipelineConfig, String)}); with
     * no schedule named (null or blank), the pipeline's: its first schedule's. UTC when the config names a zone that
     * is not one (registration refuses those): the words never stop a decision.
     */
    public static ZoneId zoneOf(PipelineConfig config, String scheduleId) {
        try {
            return scheduleId == null || scheduleId.isBlank()
                    ? ScheduleWindow.zoneOf(config.effectiveSchedules().getFirst(), config.sla())
                    : ScheduleWindow.zoneOf(config, scheduleId);
        } catch (IllegalArgumentException e) {
            return ZoneOffset.UTC;
        }
    }

    /** A zone as people name it ({@code UTC}, not the offset id {@code Z}). */
    public static String zoneName(ZoneId zone) {
        return zone.normalized() instanceof ZoneOffset offset && offset.getTotalSeconds() == 0 ? "UTC" : zone.getId();
    }

    /** A zone named as {@link #zoneName} and the status JSON name it; blank or unknown text is UTC. */
    public static ZoneId zone(String name) {
        if (name == null || name.isBlank()) {
            return ZoneOffset.UTC;
        }
        try {
            return ZoneId.of(name.trim());
        } catch (java.time.DateTimeException e) {
            return ZoneOffset.UTC;
        }
    }

    private static String clock(ZonedDateTime local) {
        return (local.getSecond() == 0 && local.getNano() == 0 ? MINUTES : SECONDS).format(local);
    }
}
