package dev.interlock.store;

import dev.interlock.model.alert.AlertKind;
import java.time.LocalDate;
import java.util.Objects;

/** What makes two alerts "the same" for deduplication: kind and (pipeline, date, schedule). */
public record AlertKey(AlertKind kind, String pipelineId, LocalDate date, String scheduleId) {
    public AlertKey {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(pipelineId, "pipelineId");
        Objects.requireNonNull(date, "date");
        Objects.requireNonNull(scheduleId, "scheduleId");
    }
}
