package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;

/** The job systems Interlock can start (docs/pipeline-reference.md); the value of {@code trigger.type}. */
public enum TriggerType implements WireEnum {
    HTTP("http", true),
    AIRFLOW("airflow", false),
    GLUE("glue", false),
    EMR("emr", false),
    EMR_SERVERLESS("emr-serverless", false),
    STEP_FUNCTION("step-function", false),
    DATABRICKS("databricks", false),
    LAMBDA("lambda", true);

    private final String wireName;
    private final boolean synchronous;

    TriggerType(String wireName, boolean synchronous) {
        this.wireName = wireName;
        this.synchronous = synchronous;
    }

    /** Synchronous types complete inside the trigger call (no poll loop): TRIGGERING→COMPLETED. */
    public boolean synchronous() {
        return synchronous;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static TriggerType fromJson(String raw) {
        return WireEnum.parse(TriggerType.class, raw, "trigger.type");
    }
}
