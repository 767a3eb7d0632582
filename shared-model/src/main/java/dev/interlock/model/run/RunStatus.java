package dev.interlock.model.run;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;
import java.util.EnumSet;
import java.util.Set;

/** Lifecycle of one run (docs/table-design.md); knows which statuses are terminal and which moves are allowed. */
public enum RunStatus implements WireEnum {
    PENDING,
    TRIGGERING,
    RUNNING,
    COMPLETED,
    COMPLETED_MONITORING,
    FAILED,
    CANCELLED;

    /** Terminal statuses end a run; they drive the run-state TTL. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == CANCELLED;
    }

    /** The statuses this one may move to. */
    public Set<RunStatus> allowedNext() {
        return switch (this) {
            // A run that never became ready fails before it triggers (validation deadline exhausted).
            case PENDING -> EnumSet.of(TRIGGERING, FAILED, CANCELLED);
            // Synchronous triggers (http, lambda) finish inside the trigger call: TRIGGERING→COMPLETED.
            case TRIGGERING -> EnumSet.of(RUNNING, COMPLETED, FAILED, CANCELLED);
            case RUNNING -> EnumSet.of(COMPLETED, COMPLETED_MONITORING, FAILED, CANCELLED);
            case COMPLETED_MONITORING -> EnumSet.of(COMPLETED, FAILED);
            case COMPLETED, FAILED, CANCELLED -> EnumSet.noneOf(RunStatus.class);
        };
    }

    /** Whether a CAS from this status to {@code next} is a legal lifecycle step. */
    public boolean canMoveTo(RunStatus next) {
        return allowedNext().contains(next);
    }

    @JsonValue
    @Override
    public String wireName() {
        return name();
    }

    /** Reads a wire value; unknown values are rejected with the allowed list. */
    @JsonCreator
    public static RunStatus fromJson(String raw) {
        return WireEnum.parse(RunStatus.class, raw, "run status");
    }
}
