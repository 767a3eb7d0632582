package dev.interlock.store.memory;

import dev.interlock.model.keys.IndexKey;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.store.InvalidCursorException;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.TimeToLive;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The single table in memory, keyed and ordered exactly like DynamoDB (PK, then SK as strings; GSI1 by GSI1SK), so
 * listings of the in-memory Provider come out in the same order as the DynamoDB Provider's. Not thread-safe: the
 * Provider serialises every operation on one lock, which also makes multi-item changes atomic.
 */
final class MemoryTable {

    /** One stored item: the JSON document plus the attributes conditions and listings use. */
    record Item(ItemKey key, IndexKey index, String data, long version, Long ttl, Map<String, String> attributes) {
        boolean isLive(Instant now) {
            return ttl == null || !TimeToLive.isExpired(ttl, now);
        }

        String attribute(String name) {
            return attributes.get(name);
        }
    }

    private final NavigableMap<String, NavigableMap<String, Item>> partitions = new TreeMap<>();

    /** The item at {@code key}, expired or not (what a condition expression sees). */
    Optional<Item> raw(ItemKey key) {
        NavigableMap<String, Item> partition = partitions.get(key.pk());
        return partition == null ? Optional.empty() : Optional.ofNullable(partition.get(key.sk()));
    }

    /** The item at {@code key} unless it has expired (what a reader sees). */
    Optional<Item> live(ItemKey key, Instant now) {
        return raw(key).filter(item -> item.isLive(now));
    }

    void put(Item item) {
        partitions
                .computeIfAbsent(item.key().pk(), pk -> new TreeMap<>())
                .put(item.key().sk(), item);
    }

    boolean delete(ItemKey key) {
        NavigableMap<String, Item> partition = partitions.get(key.pk());
        if (partition == null || partition.remove(key.sk()) == null) {
            return false;
        }
        if (partition.isEmpty()) {
            partitions.remove(key.pk());
        }
        return true;
    }

    /** Live items of partition {@code pk} whose SK begins with {@code skPrefix}, in SK order. */
    List<Item> query(String pk, String skPrefix, boolean ascending, Instant now) {
        NavigableMap<String, Item> partition = partitions.get(pk);
        if (partition == null) {
            return List.of();
        }
        List<Item> items = new ArrayList<>();
        for (Item item : partition.tailMap(skPrefix, true).values()) {
            if (!item.key().sk().startsWith(skPrefix)) {
                break;
            }
            if (item.isLive(now)) {
                items.add(item);
            }
        }
        return ascending ? items : items.reversed();
    }

    /** Live items of GSI1 partition {@code gsi1pk}, in GSI1SK order. */
    List<Item> queryIndex(String gsi1pk, boolean ascending, Instant now) {
        List<Item> items = new ArrayList<>();
        for (NavigableMap<String, Item> partition : partitions.values()) {
            for (Item item : partition.values()) {
                if (item.index() != null && gsi1pk.equals(item.index().gsi1pk()) && item.isLive(now)) {
                    items.add(item);
                }
            }
        }
        Comparator<Item> order = Comparator.comparing(MemoryTable::indexPosition);
        items.sort(ascending ? order : order.reversed());
        return items;
    }

    /** Where an item sits in a base-table listing: its sort key. */
    static String tablePosition(Item item) {
        return item.key().sk();
    }

    /** Where an item sits in a GSI1 listing; PK and SK break ties between equal GSI1SK values. */
    static String indexPosition(Item item) {
        return item.index().gsi1sk()
                + '\u0000'
                + item.key().pk()
                + '\u0000'
                + item.key().sk();
    }

    /** One page of an ordered listing, resuming after the item whose position the cursor names. */
    static <T> Page<T> page(
            List<Item> ordered,
            PageRequest request,
            boolean ascending,
            Function<Item, String> position,
            Function<Item, T> decode) {
        String after = request.cursor() == null ? null : decodeCursor(request.cursor());
        List<T> items = new ArrayList<>();
        String lastPosition = null;
        boolean more = false;
        for (Item item : ordered) {
            String p = position.apply(item);
            if (after != null && (ascending ? p.compareTo(after) <= 0 : p.compareTo(after) >= 0)) {
                continue;
            }
            if (items.size() == request.limit()) {
                more = true;
                break;
            }
            items.add(decode.apply(item));
            lastPosition = p;
        }
        return new Page<>(items, more ? encodeCursor(lastPosition) : null);
    }

    private static String encodeCursor(String position) {
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(("m1:" + position).getBytes(StandardCharsets.UTF_8));
    }

    private static String decodeCursor(String cursor) {
        try {
            String decoded = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            if (decoded.startsWith("m1:")) {
                return decoded.substring(3);
            }
        } catch (IllegalArgumentException notBase64) {
            // falls through to the rejection below: the caller sent something no listing produced
        }
        throw new InvalidCursorException("invalid page cursor: " + cursor);
    }
}
