/**
 * The DynamoDB Provider on the single table of docs/table-design.md, and the table's creation for DynamoDB Local.
 *
 * <p>Item layout. Keys come from {@code TableKeys}, attribute names from {@code TableDefinition}. Every item that
 * holds a domain value stores it as JSON in the string attribute {@code data} (written and read with
 * {@code InterlockJson}); beside it an item carries only what keys, conditions, filters and the stream router need:
 * <ul>
 *   <li>{@code ttl} (N, epoch seconds, rounded up) on everything that expires; readers treat {@code ttl <= now} as
 *       absent, with "now" from the injected clock, because DynamoDB deletes late (DynamoDB Local by wall clock).</li>
 *   <li>{@code version} (N) on run states (the CAS condition), run logs and pipeline configs (optimistic
 *       read-modify-write, so concurrent writers never clobber each other).</li>
 *   <li>{@code status} and {@code pipelineId} on run states, so the watchdog's stuck-run filter reads no document.</li>
 *   <li>{@code pipelineId}, {@code scheduleId}, {@code date}, {@code source} and {@code replay} (BOOL) on markers:
 *       the NewImage of the stream INSERT is all the stream router reads.</li>
 *   <li>{@code owner} and {@code acquiredAt} on locks (no document); {@code upstream}/{@code downstream} on
 *       downstream-index entries (no document).</li>
 * </ul>
 * Derived items (docs/table-design.md), all written by registration in the transaction of the document they derive from
 * (keys in {@code TableKeys}; which entries a pipeline implies in {@code PipelineIndex}):
 * <ul>
 *   <li>users of an archetype or calendar, {@code ARCHETYPE#<a>/PIPELINE#<id>} and {@code CALENDAR#<c>/PIPELINE#<id>}
 *       (keys only), and readers of a sensor, {@code SENSOR#<s>/PIPELINE#<id>} (its own trait configs name the sensor)
 *       and {@code SENSOR#<s>/ARCHETYPE#<a>} (a registered archetype's trait defaults do): a change to an archetype
 *       or calendar finds the pipelines to re-validate, and a sensor write the pipelines to evaluate, with one Query
 *       instead of a scan. A sensor's values ({@code STATE}, {@code PARTITION#…}) and readers share its partition.</li>
 *   <li>the guard of an archetype or calendar, {@code ARCHETYPE#<a>/USAGE} and {@code CALENDAR#<c>/USAGE}
 *       ({@code revision} (N), {@code usage} (N), no document; {@code UsageGuard}): a pipeline registration adds to
 *       {@code usage} on condition of the {@code revision} it was checked against; a change or deletion of the
 *       document sets the next {@code revision} on condition that neither number moved since it read its users. So a
 *       pipeline registered while its archetype changes is checked against the change, whichever commits first; the
 *       guard also exists for a bundled archetype that was never registered.</li>
 *   <li>{@code revision} (N) on sensor values: writes are conditional on the revision read, a write of different
 *       fields makes the next one.</li>
 * </ul>
 * Pipelines registered before these indexes existed get their entries when they are next registered.
 * And the rerun entities: the pipeline's copy of a rerun, {@code PIPELINE#<id>/RERUN#<date>#<schedule>#<rerunId>},
 * written in the same transaction as {@code RERUN#<id>/STATE}; its GSI1 keys ({@code RERUNS#<id>} / {@code
 * <requestedAt>#<rerunId>}) list a pipeline's reruns by request time apart from the global {@code TYPE#rerun}
 * listing, and one Query on its sort-key prefix counts a day's reruns or finds the one an execution serves. And the
 * rerun budget counter, {@code PIPELINE#<id>/RERUNBUDGET#<date>#<schedule>} ({@code n} (N) and {@code ttl}, no
 * document): {@code acceptRerun} adds one to it in the rerun's own transaction, conditional on {@code n} being below
 * the budget, so concurrent requests cannot overspend it. A rerun's status moves ({@code moveRerun}) are conditional
 * on its {@code data} being what was read.
 *
 * <p>Capacity. Each request names its {@link dev.interlock.store.dynamodb.CapacityIntent} and asks for consumed
 * capacity; the tests' and benchmarks' {@code RequestCounter} (in this module's test-jar) tallies both per store operation.
 */
package dev.interlock.store.dynamodb;
