package dev.interlock.deps.dynamodb;

import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.SensorStore;
import dev.interlock.store.TraitStore;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Trait results and sensor values: plain documents whose {@code ttl} is the expiry their writer chose. */
final class DynamoDbTraitAndSensorStores {

    private DynamoDbTraitAndSensorStores() {
    }

    /** {@code PIPELINE#<id>/TRAIT#<date>#<schedule>#<trait>}. */
    static final class Traits implements TraitStore {
        private final SingleTable table;

        Traits(SingleTable table) {
            this.table = table;
        }

        @Override
        public void put(TraitResult result) {
            Map<String, AttributeValue> item = ItemCodec.item(TableKeys.traitResult(result.pipelineId(), result.date(),
                    result.scheduleId(), result.traitType()), null, result);
            if (result.expiresAt() != null) {
                item.put(ItemCodec.TTL, ItemCodec.ttlAt(result.expiresAt()));
            }
            table.put(item, CapacityIntent.TRAIT_PUT);
        }

        @Override
        public Optional<TraitResult> get(String pipelineId, LocalDate date, String scheduleId, String traitType) {
            return table.getLive(TableKeys.traitResult(pipelineId, date, scheduleId, traitType), CapacityIntent.TRAIT_GET)
                    .map(item -> ItemCodec.decode(item, TraitResult.class));
        }

        @Override
        public List<TraitResult> list(String pipelineId, LocalDate date, String scheduleId) {
            return table.allDocuments(SingleTable.Query.table(TableKeys.pipelinePk(pipelineId),
                    TableKeys.traitPrefix(date, scheduleId), true), CapacityIntent.TRAIT_LIST, TraitResult.class);
        }

        @Override
        public Page<TraitResult> listByPipeline(String pipelineId, PageRequest page) {
            return table.documents(SingleTable.Query.table(TableKeys.pipelinePk(pipelineId), TableKeys.TRAIT_PREFIX, false),
                    page, CapacityIntent.TRAIT_LIST, TraitResult.class);
        }
    }

    /** {@code SENSOR#<name>/STATE}. */
    static final class Sensors implements SensorStore {
        private final SingleTable table;

        Sensors(SingleTable table) {
            this.table = table;
        }

        @Override
        public void put(SensorValue value, Instant expiresAt) {
            Map<String, AttributeValue> item = ItemCodec.item(TableKeys.sensor(value.name()), null, value);
            if (expiresAt != null) {
                item.put(ItemCodec.TTL, ItemCodec.ttlAt(expiresAt));
            }
            table.put(item, CapacityIntent.SENSOR_PUT);
        }

        @Override
        public Optional<SensorValue> get(String name) {
            return table.getLive(TableKeys.sensor(name), CapacityIntent.SENSOR_GET)
                    .map(item -> ItemCodec.decode(item, SensorValue.class));
        }
    }
}
