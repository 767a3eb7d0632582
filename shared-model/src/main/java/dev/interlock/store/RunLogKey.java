package dev.interlock.store;

import dev.interlock.model.run.RunLog;
import java.time.LocalDate;
import java.util.Objects;

/** Identifies the one run log of a (pipeline, execution date, schedule). */
public record RunLogKey(String pipelineId, LocalDate date, String scheduleId) {
    public RunLogKey {
        Objects.requireNonNull(pipelineId, "pipelineId");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(scheduleId, "scheduleId");
    }

    /** The key of an existing run log. */
    public static RunLogKey of(RunLog log) {
        return new RunLogKey(log.pipelineId(), log.date(), log.scheduleId());
    }

    /** Whether {@code log} belongs to this key. */
    public boolean matches(RunLog log) {
        return pipelineId.equals(log.pipelineId()) && date.equals(log.date()) && scheduleId.equals(log.scheduleId());
    }
}
