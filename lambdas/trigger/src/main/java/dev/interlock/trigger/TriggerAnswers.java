package dev.interlock.trigger;

import dev.interlock.jobs.TriggerStatus;
import dev.interlock.model.contract.TriggerOutput;
import dev.interlock.model.run.FailureCategory;
import java.util.Map;

/** The trigger's three answers as {@link TriggerOutput}s, each with its status's wire name. */
final class TriggerAnswers {

    private TriggerAnswers() {}

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
