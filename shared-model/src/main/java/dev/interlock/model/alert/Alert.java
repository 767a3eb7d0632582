package dev.interlock.model.alert;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/** A message to operators published to the alert topic (docs/operations.md). */
public record Alert(
        AlertLevel level,
        AlertKind kind,
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String message,
        Map<String, Object> details,
        Instant timestamp) {

    /** SNS subjects are limited to 100 characters. */
    public static final int MAX_SUBJECT_LENGTH = 100;

    /** The SNS subject {@code [<level>] <kind> <pipelineId>}, cut to 100 characters. */
    public String subject() {
        String subject = "[" + level.wireName() + "] " + kind.wireName() + " " + pipelineId;
        return subject.length() <= MAX_SUBJECT_LENGTH ? subject : subject.substring(0, MAX_SUBJECT_LENGTH);
    }
}
