package dev.interlock.model.runtime;

import dev.interlock.model.keys.TableKeys;
import java.util.List;

/**
 * The one definition of the Interlock DynamoDB table: keys, index, TTL attribute, stream view and the stream filter.
 * Used by the DynamoDB Provider, the CDK stack and the local runtime, so the three can never disagree.
 */
public record TableDefinition(
        String partitionKey,
        String sortKey,
        List<GlobalIndex> globalIndexes,
        String ttlAttribute,
        StreamView streamView,
        String markerSortKeyPrefix) {

    /** Attribute names shared by the key schema and the Provider. */
    public static final String PK = "PK";

    public static final String SK = "SK";
    public static final String GSI1 = "GSI1";
    public static final String GSI1PK = "GSI1PK";
    public static final String GSI1SK = "GSI1SK";
    public static final String TTL = "ttl";
    public static final String DATA = "data";
    public static final String VERSION = "version";
    public static final String MARKER_PREFIX = "MARKER#";

    /** The Interlock table. All key attributes are strings. */
    public static final TableDefinition INTERLOCK = new TableDefinition(
            PK,
            SK,
            List.of(new GlobalIndex(GSI1, GSI1PK, GSI1SK, Projection.ALL)),
            TTL,
            StreamView.NEW_AND_OLD_IMAGES,
            MARKER_PREFIX);

    public TableDefinition {
        globalIndexes = List.copyOf(globalIndexes);
    }

    /** A global secondary index; both keys are strings. */
    public record GlobalIndex(String name, String partitionKey, String sortKey, Projection projection) {}

    /** Which attributes a global secondary index projects. */
    public enum Projection {
        ALL,
        KEYS_ONLY
    }

    /** What a stream record carries. */
    public enum StreamView {
        NEW_IMAGE,
        OLD_IMAGE,
        NEW_AND_OLD_IMAGES,
        KEYS_ONLY
    }

    /**
     * The event-source-mapping filter pattern (Lambda filter-criteria JSON): only INSERTs of marker items start
     * executions. The stream router re-checks the same two conditions with {@link #isMarkerInsert}.
     */
    public String markerStreamFilterPattern() {
        return "{\"eventName\":[\"INSERT\"],\"dynamodb\":{\"Keys\":{\"" + sortKey + "\":{\"S\":[{\"prefix\":\""
                + markerSortKeyPrefix + "\"}]}}}}";
    }

    /** The same predicate as {@link #markerStreamFilterPattern()}, for code that sees the record itself. */
    public boolean isMarkerInsert(String eventName, String sortKeyValue) {
        return "INSERT".equals(eventName) && sortKeyValue != null && sortKeyValue.startsWith(markerSortKeyPrefix);
    }

    /**
     * The filter pattern of run-state changes (an INSERT or MODIFY of a {@code RUN#<runId>}/{@code STATE} item): what
     * OpenLineage emission reacts to, added to the mapping only when a deployment emits (docs/openlineage.md). The
     * stream router re-checks it with {@link #isRunChange}.
     */
    public String runStreamFilterPattern() {
        return "{\"eventName\":[\"INSERT\",\"MODIFY\"],\"dynamodb\":{\"Keys\":{\"" + partitionKey
                + "\":{\"S\":[{\"prefix\":\"" + TableKeys.RUN_PREFIX + "\"}]},\"" + sortKey + "\":{\"S\":[\""
                + TableKeys.STATE + "\"]}}}}";
    }

    /** The same predicate as {@link #runStreamFilterPattern()}, for code that sees the record itself. */
    public boolean isRunChange(String eventName, String partitionKeyValue, String sortKeyValue) {
        return ("INSERT".equals(eventName) || "MODIFY".equals(eventName))
                && partitionKeyValue != null
                && partitionKeyValue.startsWith(TableKeys.RUN_PREFIX)
                && TableKeys.STATE.equals(sortKeyValue);
    }
}
