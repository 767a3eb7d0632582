/**
 * OpenLineage in (docs/openlineage.md): the run events other tools post to {@code POST /lineage}
 * ({@link dev.interlock.model.lineage.LineageRunEvent}), the jobs and datasets they complete
 * ({@link dev.interlock.model.lineage.LineageSubject}) and what a {@code builtin:lineage-complete} trait waits for
 * ({@link dev.interlock.model.lineage.LineageGate}).
 */
package dev.interlock.model.lineage;
