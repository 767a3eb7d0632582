package dev.interlock.store.dynamodb;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.arrival.SensorReferences;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.IndexKey;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.store.ArchetypeStore;
import dev.interlock.store.CalendarStore;
import dev.interlock.store.DependantCheck;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Registration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;

/**
 * Archetypes and calendars: one {@code CONFIG} item each, listed by name via GSI1, beside their guard
 * ({@link UsageGuard}, {@code USAGE}) and the index of their users ({@code PIPELINE#<id>} entries, written by pipeline
 * registration). A change reads the guard, then its users, checks each, and writes the document with the next revision
 * only if neither moved; an archetype also indexes the sensors its trait defaults name.
 */
final class DynamoDbConfigStores {

    private DynamoDbConfigStores() {}

    /** What archetypes and calendars share: the checked change against their users. */
    private abstract static class UsedDocuments<T> {
        final SingleTable table;
        private final PipelineStore pipelines;
        private final Class<T> type;
        private final CapacityIntent putIntent;

        UsedDocuments(SingleTable table, PipelineStore pipelines, Class<T> type, CapacityIntent putIntent) {
            this.table = table;
            this.pipelines = pipelines;
            this.type = type;
            this.putIntent = putIntent;
        }

        abstract ItemKey key(String name);

        abstract ItemKey usage(String name);

        abstract IndexKey listing(String name);

        abstract String partition(String name);

        /** More index changes in the same transaction (an archetype's sensor entries); {@code old}, {@code next} may be null. */
        List<TransactWriteItem> reindex(String name, T old, T next) {
            return List.of();
        }

        /** Stores {@code document} under {@code name} (null: deletes it) unless a user's check fails. */
        Registration change(String name, T document, DependantCheck check) {
            Objects.requireNonNull(check, "check");
            for (int attempt = 1; ; attempt++) {
                UsageGuard guard = UsageGuard.read(table, usage(name), putIntent);
                Optional<T> old = table.getLive(key(name), putIntent).map(item -> ItemCodec.decode(item, type));
                if (document == null && old.isEmpty()) {
                    return new Registration.NotFound();
                }
                List<String> users =
                        DynamoDbPipelineStore.keySuffixes(table, partition(name), TableKeys.PIPELINE_PREFIX);
                List<Registration.BrokenPipeline> broken = new ArrayList<>();
                for (PipelineConfig user : pipelines.getAll(users).values()) {
                    List<ValidationError> problems = check.problems(user);
                    if (!problems.isEmpty()) {
                        broken.add(new Registration.BrokenPipeline(user.name(), problems));
                    }
                }
                if (!broken.isEmpty()) {
                    return new Registration.Blocked(broken);
                }
                List<TransactWriteItem> writes = new ArrayList<>();
                writes.add(
                        document == null
                                ? table.deleteOf(key(name), null)
                                : table.putOf(ItemCodec.item(key(name), listing(name), document), null));
                writes.add(guard.nextRevision(table));
                writes.addAll(reindex(name, old.orElse(null), document));
                if (table.transact(writes, putIntent, key(name).pk()).isEmpty()) {
                    return document == null ? new Registration.Deleted() : new Registration.Written(old.isEmpty());
                }
                table.retryAfterConflict(
                        attempt,
                        (document == null ? "deleting " : "registering ")
                                + key(name).pk());
            }
        }
    }

    /** {@code ARCHETYPE#<name>/CONFIG}, its guard and users, and {@code SENSOR#<s>/ARCHETYPE#<name>} entries. */
    static final class Archetypes extends UsedDocuments<Archetype> implements ArchetypeStore {

        Archetypes(SingleTable table, PipelineStore pipelines) {
            super(table, pipelines, Archetype.class, CapacityIntent.ARCHETYPE_PUT);
        }

        @Override
        ItemKey key(String name) {
            return TableKeys.archetype(name);
        }

        @Override
        ItemKey usage(String name) {
            return TableKeys.archetypeUsage(name);
        }

        @Override
        IndexKey listing(String name) {
            return TableKeys.archetypeIndex(name);
        }

        @Override
        String partition(String name) {
            return TableKeys.archetypePk(name);
        }

        @Override
        List<TransactWriteItem> reindex(String name, Archetype old, Archetype next) {
            Set<String> after = next == null ? Set.of() : SensorReferences.of(next);
            List<TransactWriteItem> writes = new ArrayList<>();
            for (String sensor : after) {
                writes.add(
                        table.putOf(ItemCodec.item(TableKeys.sensorReaderArchetype(sensor, name), null, null), null));
            }
            for (String sensor : old == null ? Set.<String>of() : SensorReferences.of(old)) {
                if (!after.contains(sensor)) {
                    writes.add(table.deleteOf(TableKeys.sensorReaderArchetype(sensor, name), null));
                }
            }
            return writes;
        }

        @Override
        public Registration register(Archetype archetype, DependantCheck check) {
            return change(archetype.name(), archetype, check);
        }

        @Override
        public Optional<Archetype> get(String name) {
            return table.getLive(TableKeys.archetype(name), CapacityIntent.ARCHETYPE_GET)
                    .map(item -> ItemCodec.decode(item, Archetype.class));
        }

        @Override
        public Page<Archetype> list(PageRequest page) {
            return table.documents(
                    SingleTable.Query.index(TableKeys.ARCHETYPE_TYPE, true),
                    page,
                    CapacityIntent.ARCHETYPE_LIST,
                    Archetype.class);
        }

        @Override
        public List<String> readersOf(String sensor) {
            return DynamoDbPipelineStore.keySuffixes(table, TableKeys.sensorPk(sensor), TableKeys.ARCHETYPE_PREFIX);
        }
    }

    /** {@code CALENDAR#<name>/CONFIG}, its guard and users. */
    static final class Calendars extends UsedDocuments<Calendar> implements CalendarStore {

        Calendars(SingleTable table, PipelineStore pipelines) {
            super(table, pipelines, Calendar.class, CapacityIntent.CALENDAR_PUT);
        }

        @Override
        ItemKey key(String name) {
            return TableKeys.calendar(name);
        }

        @Override
        ItemKey usage(String name) {
            return TableKeys.calendarUsage(name);
        }

        @Override
        IndexKey listing(String name) {
            return TableKeys.calendarIndex(name);
        }

        @Override
        String partition(String name) {
            return TableKeys.calendarPk(name);
        }

        @Override
        public Registration register(Calendar calendar, DependantCheck check) {
            return change(calendar.name(), calendar, check);
        }

        @Override
        public Registration delete(String name, DependantCheck check) {
            return change(name, null, check);
        }

        @Override
        public Optional<Calendar> get(String name) {
            return table.getLive(TableKeys.calendar(name), CapacityIntent.CALENDAR_GET)
                    .map(item -> ItemCodec.decode(item, Calendar.class));
        }

        @Override
        public Page<Calendar> list(PageRequest page) {
            return table.documents(
                    SingleTable.Query.index(TableKeys.CALENDAR_TYPE, true),
                    page,
                    CapacityIntent.CALENDAR_LIST,
                    Calendar.class);
        }
    }
}
