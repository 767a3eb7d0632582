package dev.interlock.trigger;

import dev.interlock.deps.trigger.TriggerStatus;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.run.FailureCategory;

import java.util.Map;
import java.util.Objects;

/**
 * The trigger Lambda's output (CONTRACT §5): all five fields always present, because {@code IsTriggerSuccessful}
 * and {@code LogTriggerFailed} read them; {@code error} and {@code failureCategory} are {@code ""} unless failed.
 */
public record TriggerOutput(String runId, String status, Map<String, String> metadata, String error,
                            String failureCategory) {

    public TriggerOutput {
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
