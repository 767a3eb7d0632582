package dev.interlock.model.keys;

import java.time.LocalDate;
import java.util.Objects;

/**
 * The evaluation lock of one (pipeline, schedule, date): one execution at a time evaluates and triggers that day,
 * while other days of the same schedule run independently.
 */
public record LockKey(String pipelineId, String scheduleId, LocalDate date) {
    public LockKey {
        TableKeys.requirePart("pipelineId", pipelineId);
        TableKeys.requirePart("scheduleId", scheduleId);
        Objects.requireNonNull(date, "date is required for a lock key");
    }

    /** The lock name {@code eval:<pipelineId>:<scheduleId>:<date>} (the part after {@code LOCK#}). */
    public String value() {
        return "eval:" + pipelineId + ":" + scheduleId + ":" + date;
    }
}
