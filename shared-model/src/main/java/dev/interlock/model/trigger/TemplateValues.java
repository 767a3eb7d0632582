package dev.interlock.model.trigger;

import dev.interlock.model.window.WindowId;
import java.time.LocalDate;

/**
 * The execution values templates may refer to, for one run of one (pipeline, date, schedule).
 *
 * @param runId     null while traits are evaluated (no run exists yet)
 * @param hourOfDay the hour {@code ${hour}} names when set (a rollup reading each hour's sensor partition), else null:
 *                  the window's own hour
 */
public record TemplateValues(String pipelineId, String scheduleId, LocalDate date, String runId, Integer hourOfDay) {

    public TemplateValues(String pipelineId, String scheduleId, LocalDate date, String runId) {
        this(pipelineId, scheduleId, date, runId, null);
    }

    /** These values with {@code ${hour}} naming {@code hour} (0–23) instead of the window's hour. */
    public TemplateValues atHour(int hour) {
        return new TemplateValues(pipelineId, scheduleId, date, runId, hour);
    }

    /**
     * {@code ${hour}}: the hour a window fires at, two digits — from a cron window's id ({@code hourly.1500} →
     * {@code 15}) or a schedule named {@code h00}…{@code h23} ({@code h15} → {@code 15}); empty for any other schedule,
     * whose templates registration refuses to let use it (the Go original turned {@code hourly} into {@code ourly}).
     */
    public String hour() {
        if (hourOfDay != null) {
            return String.format("%02d", hourOfDay);
        }
        if (scheduleId == null) {
            return "";
        }
        var window = WindowId.parse(scheduleId);
        if (window.isPresent()) {
            return String.format("%02d", window.get().firing().getHour());
        }
        if (scheduleId.length() == 3
                && scheduleId.charAt(0) == 'h'
                && Character.isDigit(scheduleId.charAt(1))
                && Character.isDigit(scheduleId.charAt(2))
                && Integer.parseInt(scheduleId.substring(1)) < 24) {
            return scheduleId.substring(1);
        }
        return "";
    }

    /**
     * The value of one of {@link ArgumentTemplate#RUN_VALUES}.
     *
     * @throws ArgumentTemplate.TemplateException for {@code runId} when there is no run
     */
    public String valueOf(String name) {
        return switch (name) {
            case "date" -> date == null ? "" : date.toString();
            case "hour" -> hour();
            case "scheduleId" -> nullToEmpty(scheduleId);
            case "pipelineId" -> nullToEmpty(pipelineId);
            case "runId" -> {
                if (runId == null || runId.isBlank()) {
                    throw new ArgumentTemplate.TemplateException(
                            "${runId} is not known here: traits are evaluated before a run exists");
                }
                yield runId;
            }
            default -> throw new IllegalArgumentException("no execution value '" + name + "'");
        };
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
