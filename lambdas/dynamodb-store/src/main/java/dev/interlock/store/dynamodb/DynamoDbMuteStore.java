package dev.interlock.store.dynamodb;

import dev.interlock.model.alert.Mute;
import dev.interlock.model.alert.MuteScope;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.MuteStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Mutes ({@code MUTE#<scope>#<target>/MUTE}, listed via GSI1 {@code TYPE#mute}): an alerting function reads the two
 * that may cover an alert by key; each expires (TTL) a week after it ends, so {@code GET /mutes} still shows a
 * recently ended one.
 */
final class DynamoDbMuteStore implements MuteStore {

    /** How long an ended mute stays readable. */
    static final Duration KEPT_AFTER_END = Duration.ofDays(7);

    private final SingleTable table;

    DynamoDbMuteStore(SingleTable table) {
        this.table = table;
    }

    private static ItemKey key(MuteScope scope, String target) {
        return TableKeys.mute(scope.wireName(), target);
    }

    @Override
    public void put(Mute mute) {
        Map<String, AttributeValue> item = ItemCodec.item(
                key(mute.scope(), mute.target()),
                TableKeys.muteIndex(mute.scope().wireName(), mute.target()),
                mute);
        item.put(ItemCodec.TTL, ItemCodec.ttlAt(mute.until().plus(KEPT_AFTER_END)));
        table.put(item, CapacityIntent.MUTE_PUT);
    }

    @Override
    public Optional<Mute> get(MuteScope scope, String target) {
        return table.getLive(key(scope, target), CapacityIntent.MUTE_GET)
                .map(item -> ItemCodec.decode(item, Mute.class));
    }

    @Override
    public Optional<Mute> delete(MuteScope scope, String target) {
        Optional<Map<String, AttributeValue>> old =
                table.deleteReturningOld(key(scope, target), CapacityIntent.MUTE_DELETE);
        return old.map(item -> ItemCodec.decode(item, Mute.class));
    }

    @Override
    public List<Mute> list() {
        return table.allDocuments(
                SingleTable.Query.index(TableKeys.MUTE_TYPE, true), CapacityIntent.MUTE_LIST, Mute.class);
    }
}
