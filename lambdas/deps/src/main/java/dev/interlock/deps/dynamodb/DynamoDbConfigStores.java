package dev.interlock.deps.dynamodb;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.ArchetypeStore;
import dev.interlock.store.CalendarStore;
import dev.interlock.store.Page;
import dev.interlock.store.PageRequest;

import java.util.Optional;

/** Archetypes and calendars: one {@code CONFIG} item each, listed by name via GSI1. */
final class DynamoDbConfigStores {

    private DynamoDbConfigStores() {
    }

    /** {@code ARCHETYPE#<name>/CONFIG}. */
    static final class Archetypes implements ArchetypeStore {
        private final SingleTable table;

        Archetypes(SingleTable table) {
            this.table = table;
        }

        @Override
        public boolean put(Archetype archetype) {
            return table.putReturningLiveOld(ItemCodec.item(TableKeys.archetype(archetype.name()),
                    TableKeys.archetypeIndex(archetype.name()), archetype), CapacityIntent.ARCHETYPE_PUT).isEmpty();
        }

        @Override
        public Optional<Archetype> get(String name) {
            return table.getLive(TableKeys.archetype(name), CapacityIntent.ARCHETYPE_GET)
                    .map(item -> ItemCodec.decode(item, Archetype.class));
        }

        @Override
        public Page<Archetype> list(PageRequest page) {
            return table.documents(SingleTable.Query.index(TableKeys.ARCHETYPE_TYPE, true), page,
                    CapacityIntent.ARCHETYPE_LIST, Archetype.class);
        }
    }

    /** {@code CALENDAR#<name>/CONFIG}. */
    static final class Calendars implements CalendarStore {
        private final SingleTable table;

        Calendars(SingleTable table) {
            this.table = table;
        }

        @Override
        public boolean put(Calendar calendar) {
            return table.putReturningLiveOld(ItemCodec.item(TableKeys.calendar(calendar.name()),
                    TableKeys.calendarIndex(calendar.name()), calendar), CapacityIntent.CALENDAR_PUT).isEmpty();
        }

        @Override
        public Optional<Calendar> get(String name) {
            return table.getLive(TableKeys.calendar(name), CapacityIntent.CALENDAR_GET)
                    .map(item -> ItemCodec.decode(item, Calendar.class));
        }

        @Override
        public Page<Calendar> list(PageRequest page) {
            return table.documents(SingleTable.Query.index(TableKeys.CALENDAR_TYPE, true), page,
                    CapacityIntent.CALENDAR_LIST, Calendar.class);
        }
    }
}
