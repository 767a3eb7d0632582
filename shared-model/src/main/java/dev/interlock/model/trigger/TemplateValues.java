package dev.interlock.model.trigger;

import java.time.LocalDate;

/** The values {@code arguments} templates may refer to, for one run of one (pipeline, date, schedule). */
public record TemplateValues(String pipelineId, String scheduleId, LocalDate date, String runId) {

    /**
     * {@code ${hour}}: the two digits of an hourly schedule id ({@code h15} → {@code 15}); empty for any other
     * schedule (the Go original turned {@code hourly} into {@code ourly}).
     */
    public String hour() {
        if (scheduleId != null && scheduleId.length() == 3 && scheduleId.charAt(0) == 'h'
                && Character.isDigit(scheduleId.charAt(1)) && Character.isDigit(scheduleId.charAt(2))) {
            return scheduleId.substring(1);
        }
        return "";
    }
}
