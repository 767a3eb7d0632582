package dev.interlock.store.dynamodb;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.IndexKey;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.runtime.TableDefinition;
import dev.interlock.store.StoreException;
import dev.interlock.store.TimeToLive;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * How a domain document becomes a table item and back: key attributes, the JSON document in {@code data}, and the
 * {@code ttl}/{@code version} attributes conditions use. The attribute names come from {@link TableDefinition}.
 */
final class ItemCodec {

    static final String PK = TableDefinition.PK;
    static final String SK = TableDefinition.SK;
    static final String GSI1PK = TableDefinition.GSI1PK;
    static final String GSI1SK = TableDefinition.GSI1SK;
    static final String DATA = TableDefinition.DATA;
    static final String TTL = TableDefinition.TTL;
    static final String VERSION = TableDefinition.VERSION;

    private ItemCodec() {}

    static Map<String, AttributeValue> key(ItemKey key) {
        return Map.of(PK, AttributeValue.fromS(key.pk()), SK, AttributeValue.fromS(key.sk()));
    }

    /** A mutable item with keys, optional GSI1 keys and the document. */
    static Map<String, AttributeValue> item(ItemKey key, IndexKey index, Object document) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, AttributeValue.fromS(key.pk()));
        item.put(SK, AttributeValue.fromS(key.sk()));
        if (index != null) {
            item.put(GSI1PK, AttributeValue.fromS(index.gsi1pk()));
            item.put(GSI1SK, AttributeValue.fromS(index.gsi1sk()));
        }
        if (document != null) {
            item.put(DATA, AttributeValue.fromS(InterlockJson.write(document)));
        }
        return item;
    }

    static AttributeValue number(long value) {
        return AttributeValue.fromN(Long.toString(value));
    }

    static AttributeValue ttlAt(Instant expiresAt) {
        return number(TimeToLive.epochSecondsOf(expiresAt));
    }

    /** Whether the item reads as present at {@code now} (no ttl, or a ttl after the current second). */
    static boolean isLive(Map<String, AttributeValue> item, Instant now) {
        AttributeValue ttl = item.get(TTL);
        return ttl == null || ttl.n() == null || !TimeToLive.isExpired(Long.parseLong(ttl.n()), now);
    }

    static long version(Map<String, AttributeValue> item) {
        AttributeValue version = item.get(VERSION);
        return version == null || version.n() == null ? 0 : Long.parseLong(version.n());
    }

    static String string(Map<String, AttributeValue> item, String attribute) {
        AttributeValue value = item.get(attribute);
        return value == null ? null : value.s();
    }

    /** The document of an item; an item without a readable document is corrupt, which is a store fault. */
    static <T> T decode(Map<String, AttributeValue> item, Class<T> type) {
        AttributeValue data = item.get(DATA);
        if (data == null || data.s() == null) {
            throw new StoreException("item " + string(item, PK) + "/" + string(item, SK) + " has no '" + DATA
                    + "' document to read as " + type.getSimpleName());
        }
        try {
            return InterlockJson.read(data.s(), type);
        } catch (IllegalArgumentException e) {
            throw new StoreException(
                    "item " + string(item, PK) + "/" + string(item, SK) + " holds an unreadable " + type.getSimpleName()
                            + ": " + e.getMessage(),
                    e);
        }
    }
}
