package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * The guard item of an archetype or calendar ({@code <ARCHETYPE|CALENDAR>#<name>/USAGE}): {@code revision} (N) counts
 * the document's registrations and deletions, {@code usage} (N) the registrations of pipelines that use it. A pipeline
 * registration adds to {@code usage} on condition that {@code revision} is what it checked against; a document change
 * sets the next {@code revision} on condition that neither number moved since it read its users. Whichever commits
 * second fails its condition and reads and checks again, so no pipeline is ever stored against a document version it
 * was not checked with.
 *
 * @param revision null when the attribute is absent (the guard item may not exist yet)
 * @param usage    null when the attribute is absent
 */
record UsageGuard(ItemKey key, Long revision, Long usage) {

    static final String REVISION = "revision";
    static final String USAGE = "usage";

    /** Reads the guard (strongly consistent); absent attributes read as null. */
    static UsageGuard read(SingleTable table, ItemKey key, CapacityIntent intent) {
        return table.getRaw(key, intent)
                .map(item -> new UsageGuard(key, number(item, REVISION), number(item, USAGE)))
                .orElse(new UsageGuard(key, null, null));
    }

    private static Long number(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        return value == null || value.n() == null ? null : Long.valueOf(value.n());
    }

    /** The revision, 0 before the first registration. */
    long revisionOrZero() {
        return revision == null ? 0 : revision;
    }

    /** For a pipeline registration: one more use, only while the document is still at the revision checked against. */
    TransactWriteItem addUsage(SingleTable table) {
        SingleTable.Condition unchanged = revisionUnchanged();
        return table.updateOf(
                key, "ADD #usage :one", unchanged.with(Map.of("#usage", USAGE), Map.of(":one", ItemCodec.number(1))));
    }

    /** For a document change: the next revision, only while neither the revision nor the users moved. */
    TransactWriteItem nextRevision(SingleTable table) {
        SingleTable.Condition revisionPart = revisionUnchanged();
        String usagePart = usage == null ? "attribute_not_exists(#usage)" : "#usage = :usage";
        Map<String, AttributeValue> values = new java.util.HashMap<>(revisionPart.values());
        if (usage != null) {
            values.put(":usage", ItemCodec.number(usage));
        }
        values.put(":next", ItemCodec.number(revisionOrZero() + 1));
        Map<String, String> names = new java.util.HashMap<>(revisionPart.names());
        names.put("#usage", USAGE);
        return table.updateOf(
                key,
                "SET #revision = :next",
                SingleTable.Condition.of(revisionPart.expression() + " AND " + usagePart, names, values));
    }

    private SingleTable.Condition revisionUnchanged() {
        return revision == null
                ? SingleTable.Condition.of("attribute_not_exists(#revision)", Map.of("#revision", REVISION), Map.of())
                : SingleTable.Condition.of(
                        "#revision = :revision",
                        Map.of("#revision", REVISION),
                        Map.of(":revision", ItemCodec.number(revision)));
    }
}
