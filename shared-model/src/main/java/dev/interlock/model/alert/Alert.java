package dev.interlock.model.alert;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.pipeline.Ownership;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;

/**
 * A message to operators published to the alert topic (docs/operations.md). {@code owner}, {@code team},
 * {@code labels} and {@code runbook} are the pipeline's ({@link Ownership}), so whoever is paged knows whose it is
 * and where to start; the SNS publisher also sends team, severity, kind and pipeline as message attributes.
 */
public record Alert(
        AlertLevel level,
        AlertKind kind,
        String pipelineId,
        String scheduleId,
        LocalDate date,
        String message,
        Map<String, Object> details,
        Instant timestamp,
        @JsonInclude(JsonInclude.Include.NON_NULL) String owner,
        @JsonInclude(JsonInclude.Include.NON_NULL) String team,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> labels,
        @JsonInclude(JsonInclude.Include.NON_NULL) String runbook) {

    /** SNS subjects are limited to 100 characters. */
    public static final int MAX_SUBJECT_LENGTH = 100;

    public Alert {
        labels = Frozen.map(labels);
    }

    /** An alert not (yet) routed: it names no owner, team, labels or runbook. */
    public Alert(
            AlertLevel level,
            AlertKind kind,
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String message,
            Map<String, Object> details,
            Instant timestamp) {
        this(level, kind, pipelineId, scheduleId, date, message, details, timestamp, null, null, null, null);
    }

    /** This alert with {@code message} as its text (the same alert, worded for where it is read). */
    public Alert withMessage(String message) {
        return new Alert(
                level, kind, pipelineId, scheduleId, date, message, details, timestamp, owner, team, labels, runbook);
    }

    /** This alert carrying the pipeline's owner, team, labels and runbook. */
    public Alert routedTo(Ownership ownership) {
        return new Alert(
                level,
                kind,
                pipelineId,
                scheduleId,
                date,
                message,
                details,
                timestamp,
                ownership.owner(),
                ownership.team(),
                ownership.labels(),
                ownership.runbook());
    }

    /** The SNS subject {@code [<level>] <kind> <pipelineId>}, cut to 100 characters. */
    public String subject() {
        String subject = "[" + level.wireName() + "] " + kind.wireName() + " " + pipelineId;
        return subject.length() <= MAX_SUBJECT_LENGTH ? subject : subject.substring(0, MAX_SUBJECT_LENGTH);
    }
}
