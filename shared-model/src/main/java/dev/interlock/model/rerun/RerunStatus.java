package dev.interlock.model.rerun;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.interlock.model.json.WireEnum;
import java.util.Locale;

/**
 * Lifecycle of a rerun request: PENDING (recorded, its replay marker written) → STARTED (its execution passed the
 * gates) → COMPLETED | FAILED; or SKIPPED, with the reason, when it never ran (budget spent, excluded day, another
 * execution of the day running). Terminal statuses never change.
 */
public enum RerunStatus implements WireEnum {
    PENDING("PENDING"),
    STARTED("STARTED"),
    COMPLETED("COMPLETED"),
    FAILED("FAILED"),
    SKIPPED("SKIPPED");

    private final String wireName;

    RerunStatus(String wireName) {
        this.wireName = wireName;
    }

    @JsonValue
    @Override
    public String wireName() {
        return wireName;
    }

    /** Whether the rerun's outcome is known; a terminal rerun never moves again. */
    public boolean isTerminal() {
        return this == COMPLETED || this == FAILED || this == SKIPPED;
    }

    /** Whether a rerun in this status may move to {@code next}. */
    public boolean canMoveTo(RerunStatus next) {
        return switch (this) {
            case PENDING -> next != PENDING;
            case STARTED -> next.isTerminal();
            case COMPLETED, FAILED, SKIPPED -> false;
        };
    }

    /**
     * Whether a stored rerun in this status may be rewritten as one in {@code next}: a move ({@link #canMoveTo}), or a
     * live rerun staying where it is while its work passes to a successor execution (see {@link Rerun#handedOverTo}).
     */
    public boolean allowsRewriteAs(RerunStatus next) {
        return canMoveTo(next) || (this == next && !isTerminal());
    }

    /**
     * Reads a wire value; unknown values are rejected with the allowed list. {@code REJECTED}, what earlier versions
     * wrote for a late-arrival rerun refused by the budget, reads as SKIPPED.
     */
    @JsonCreator
    public static RerunStatus fromJson(String raw) {
        if (raw != null && raw.trim().toUpperCase(Locale.ROOT).equals("REJECTED")) {
            return SKIPPED;
        }
        return WireEnum.parse(RerunStatus.class, raw, "rerun status");
    }
}
