package dev.interlock.store.dynamodb;

import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.SensorStore;
import dev.interlock.store.TraitStore;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Trait results and sensor values: plain documents whose {@code ttl} is the expiry their writer chose. */
final class DynamoDbTraitAndSensorStores {

    private DynamoDbTraitAndSensorStores() {}

    /** {@code PIPELINE#<id>/TRAIT#<date>#<schedule>#<trait>}. */
    static final class Traits implements TraitStore {
        private final SingleTable table;

        Traits(SingleTable table) {
            this.table = table;
        }

        @Override
        public void put(TraitResult result) {
            table.put(item(result), CapacityIntent.TRAIT_PUT);
        }

        /** The TRAIT item of a result, expiring at its {@code expiresAt} (also written in a round's batch). */
        static Map<String, AttributeValue> item(TraitResult result) {
            Map<String, AttributeValue> item = ItemCodec.item(
                    TableKeys.traitResult(result.pipelineId(), result.date(), result.scheduleId(), result.traitType()),
                    null,
                    result);
            if (result.expiresAt() != null) {
                item.put(ItemCodec.TTL, ItemCodec.ttlAt(result.expiresAt()));
            }
            return item;
        }

        @Override
        public Optional<TraitResult> get(String pipelineId, LocalDate date, String scheduleId, String traitType) {
            return table.getLive(
                            TableKeys.traitResult(pipelineId, date, scheduleId, traitType), CapacityIntent.TRAIT_GET)
                    .map(item -> ItemCodec.decode(item, TraitResult.class));
        }

        @Override
        public List<TraitResult> list(String pipelineId, LocalDate date, String scheduleId) {
            return table.allDocuments(
                    SingleTable.Query.table(
                            TableKeys.pipelinePk(pipelineId), TableKeys.traitPrefix(date, scheduleId), true),
                    CapacityIntent.TRAIT_LIST,
                    TraitResult.class);
        }

        @Override
        public List<TraitResult> ofDay(String pipelineId, LocalDate date) {
            return table.allDocuments(
                    SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.traitDayPrefix(date), true),
                    CapacityIntent.TRAIT_DAY,
                    TraitResult.class);
        }

        @Override
        public Page<TraitResult> listByPipeline(String pipelineId, PageRequest page) {
            return table.documents(
                    SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.TRAIT_PREFIX, false),
                    page,
                    CapacityIntent.TRAIT_LIST,
                    TraitResult.class);
        }
    }

    /**
     * {@code SENSOR#<name>/STATE} (unpartitioned) and {@code SENSOR#<name>/PARTITION#<partition>}. Each carries its
     * {@code revision} (N) beside the document: writes are conditional on the revision read, so two producers writing
     * at once are serialised and each change keeps its own revision.
     */
    static final class Sensors implements SensorStore {
        static final String REVISION = "revision";

        private final SingleTable table;

        Sensors(SingleTable table) {
            this.table = table;
        }

        @Override
        public SensorWrite write(SensorValue value, Instant expiresAt) {
            ItemKey key = TableKeys.sensor(value.name(), value.partition());
            for (int attempt = 1; ; attempt++) {
                Optional<Map<String, AttributeValue>> raw = table.getRaw(key, CapacityIntent.SENSOR_PUT);
                Instant now = table.now();
                long revision = raw.map(Sensors::revisionOf).orElse(0L);
                Optional<SensorValue> live = raw.filter(item -> ItemCodec.isLive(item, now))
                        .map(item -> ItemCodec.decode(item, SensorValue.class));
                boolean changed = live.isEmpty() || !live.get().sameFieldsAs(value);
                SensorValue stored = value.atRevision(changed ? revision + 1 : revision);
                Map<String, AttributeValue> item = ItemCodec.item(key, null, stored);
                item.put(REVISION, ItemCodec.number(stored.revision()));
                if (expiresAt != null) {
                    item.put(ItemCodec.TTL, ItemCodec.ttlAt(expiresAt));
                }
                if (table.putIf(
                        item, raw.isEmpty() ? Conditions.absent() : revisionIs(raw.get()), CapacityIntent.SENSOR_PUT)) {
                    return new SensorWrite(stored, changed);
                }
                table.retryAfterConflict(attempt, "writing sensor " + value.label());
            }
        }

        @Override
        public Optional<SensorValue> get(String name, String partition) {
            return table.getLive(TableKeys.sensor(name, partition), CapacityIntent.SENSOR_GET)
                    .map(item -> ItemCodec.decode(item, SensorValue.class));
        }

        private static long revisionOf(Map<String, AttributeValue> item) {
            AttributeValue revision = item.get(REVISION);
            return revision == null || revision.n() == null ? 0 : Long.parseLong(revision.n());
        }

        /** Still at the revision read; items written before revisions existed have none. */
        private static SingleTable.Condition revisionIs(Map<String, AttributeValue> item) {
            AttributeValue revision = item.get(REVISION);
            return revision == null
                    ? SingleTable.Condition.of(
                            "attribute_not_exists(#revision)", Map.of("#revision", REVISION), Map.of())
                    : SingleTable.Condition.of(
                            "#revision = :revision", Map.of("#revision", REVISION), Map.of(":revision", revision));
        }
    }
}
