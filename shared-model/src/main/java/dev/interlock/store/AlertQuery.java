package dev.interlock.store;

import dev.interlock.model.alert.AlertKind;
import java.time.Instant;

/**
 * Which sent alerts to list: each filter null when not asked for.
 *
 * @param pipelineId only this pipeline's alerts
 * @param kind       only alerts of this kind
 * @param since      only alerts sent at or after this instant
 */
public record AlertQuery(String pipelineId, AlertKind kind, Instant since) {

    /** Every alert the history still holds. */
    public static final AlertQuery ALL = new AlertQuery(null, null, null);
}
