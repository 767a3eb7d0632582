package dev.interlock.model.pipeline;

/**
 * Deadlines of a pipeline: each is {@code HH:MM} in {@code timezone} or a duration ({@code 45m}, {@code +1h30m})
 * after the schedule's window opens. {@code validationTimeout} is the hard stop of the evaluation phase.
 */
public record SlaConfig(
        String evaluationDeadline, String completionDeadline, String validationTimeout, String timezone) {}
