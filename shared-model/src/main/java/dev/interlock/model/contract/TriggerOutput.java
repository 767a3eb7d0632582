package dev.interlock.model.contract;

import dev.interlock.model.json.Frozen;
import java.util.Map;
import java.util.Objects;

/**
 * The trigger Lambda's output (statemachine/CONTRACT.md §5): all six fields always present, because
 * {@code IsTriggerSuccessful}, {@code LogTriggerFailed} and the job's follow-up read them; {@code status} is the wire
 * name of the trigger's status ({@code running}, {@code completed}, {@code failed}); {@code error} and
 * {@code failureCategory} are {@code ""} unless failed; {@code startedAt} is when the call answered (following the job
 * is measured from it).
 */
public record TriggerOutput(
        String runId,
        String status,
        Map<String, String> metadata,
        String error,
        String failureCategory,
        String startedAt) {

    public TriggerOutput {
        startedAt = startedAt == null ? "" : startedAt;
        runId = runId == null ? "" : runId;
        Objects.requireNonNull(status, "status");
        metadata = Frozen.map(metadata);
        error = error == null ? "" : error;
        failureCategory = failureCategory == null ? "" : failureCategory;
    }

    /** An answer not yet stamped with the moment it is given ({@link #answeredAt}). */
    public TriggerOutput(
            String runId, String status, Map<String, String> metadata, String error, String failureCategory) {
        this(runId, status, metadata, error, failureCategory, "");
    }

    /** This answer, stamped with the moment it is given. */
    public TriggerOutput answeredAt(String timestamp) {
        return new TriggerOutput(runId, status, metadata, error, failureCategory, timestamp);
    }
}
