/**
 * The DynamoDB Provider on the single table of SPEC §3, and the table's creation for DynamoDB Local.
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
 * One entity beyond SPEC §3's table: the pipeline's copy of a rerun, {@code PIPELINE#<id>/RERUN#<date>#<schedule>#<rerunId>},
 * written in the same transaction as {@code RERUN#<id>/STATE}; its GSI1 keys ({@code RERUNS#<id>} / {@code
 * <requestedAt>#<rerunId>}) list a pipeline's reruns by request time apart from the global {@code TYPE#rerun}
 * listing, and one Query on its sort-key prefix counts a day's reruns or finds the one an execution serves. And the
 * rerun budget counter, {@code PIPELINE#<id>/RERUNBUDGET#<date>#<schedule>} ({@code n} (N) and {@code ttl}, no
 * document): {@code acceptRerun} adds one to it in the rerun's own transaction, conditional on {@code n} being below
 * the budget, so concurrent requests cannot overspend it. A rerun's status moves ({@code moveRerun}) are conditional
 * on its {@code data} being what was read.
 *
 * <p>Capacity. Each request names its {@link dev.interlock.deps.dynamodb.CapacityIntent} and asks for consumed
 * capacity; {@link dev.interlock.deps.dynamodb.RequestCounter} tallies both per store operation.
 */
package dev.interlock.deps.dynamodb;
