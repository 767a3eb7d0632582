package dev.interlock.model.lineage;

/** The OpenLineage run-event types Interlock emits for a run (docs/openlineage.md). */
public enum LineageEventType {
    START,
    COMPLETE,
    FAIL,
    ABORT
}
