package dev.interlock.trigger;

import dev.interlock.jobs.TriggerStatus;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;

import java.util.Map;
import java.util.Objects;

/**
 * The trigger Lambda's output (CONTRACT §5): all six fields always present, because {@code IsTriggerSuccessful},
 * {@code LogTriggerFailed} and the job's follow-up read them; {@code error} and {@code failureCategory} are {@code ""}
 * unless failed; {@code startedAt} is when the call answered (following the job is measured from it).
 */
public record TriggerOutput(String runId, String status, Map<String, String> metadata, String error,
                            String failureCategory, String startedAt) {

    TriggerOutput(String runId, String status, Map<String, String> metadata, String error, String failureCategory) {
        this(runId, status, metadata, error, failureCategory, "");
    }

    /** This answer, stamped with the moment it is given. */
    TriggerOutput answeredAt(String timestamp) {
        return new TriggerOutput(runId, status, metadata, error, failureCategory, timestamp);
    }

    public TriggerOutput {
        startedAt = startedAt == null ? "" : startedAt;
        runId = runId == null ? "" : runId;
        Objects.requireNonNull(status, "status");
        metadata = Frozen.map(metadata);
        error = error == null ? "" : error;
        failureCategory = failureCategory == null ? "" : failureCategory;
    }

    static TriggerOutput running(String runId, Map<String, String> metadata) {
        return new TriggerOutput(runId, TriggerStatus.RUNNING.wireName(), metadata, "", "");
    }

    static TriggerOutput completed(String runId, Map<String, String> metadata) {
        return new TriggerOutput(runId, TriggerStatus.COMPLETED.wireName(), metadata, "", "");
    }

    static TriggerOutput failed(String runId, String error, FailureCategory category) {
        return new TriggerOutput(runId, TriggerStatus.FAILED.wireName(), Map.of(), error, category.wireName());
    }
}
