package dev.interlock.model.keys;

/** The evaluation lock of one (pipeline, schedule): one execution at a time evaluates and triggers it. */
public record LockKey(String pipelineId, String scheduleId) {
    public LockKey {
        TableKeys.requirePart("pipelineId", pipelineId);
        TableKeys.requirePart("scheduleId", scheduleId);
    }

    /** The lock name {@code eval:<pipelineId>:<scheduleId>} (the part after {@code LOCK#}). */
    public String value() {
        return "eval:" + pipelineId + ":" + scheduleId;
    }
}
