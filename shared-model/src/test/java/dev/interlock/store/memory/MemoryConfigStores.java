package dev.interlock.store.memory;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.arrival.SensorReferences;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.InterlockJson;
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
import dev.interlock.store.PipelineIndex;
import dev.interlock.store.PipelineStore;
import dev.interlock.store.Reference;
import dev.interlock.store.Registration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Pipelines, archetypes and calendars in memory, with the same indexes and the same optimistic protocol as on
 * DynamoDB: a check runs outside the table's lock on what was read, and the write happens only if the guard of each
 * document it read ({@code USAGE}: a registration {@code revision} and a {@code usage} count) is unchanged, else the
 * store reads and checks again. So a check that itself registers something (a test of the race) is seen the same way
 * on both Providers.
 */
final class MemoryConfigStores {

    private static final String REVISION = "revision";
    private static final String USAGE = "usage";

    private final MemoryTable table;
    private final Supplier<Instant> now;
    private final Watches watches;

    final PipelineStore pipelines = new Pipelines();
    final ArchetypeStore archetypes = new Archetypes();
    final CalendarStore calendars = new Calendars();

    /** What a pipeline's registration and deletion also rewrite: its watchdog watch and due entry. */
    interface Watches {
        void registered(PipelineConfig config);

        void deleted(String pipelineId);
    }

    MemoryConfigStores(MemoryTable table, Supplier<Instant> now, Watches watches) {
        this.table = table;
        this.now = now;
        this.watches = watches;
    }

    // ------------------------------------------------------------------ shared

    /** The numbers of a guard item as read; absent numbers are 0. */
    private record Guard(long revision, long usage) {
        static final Guard NONE = new Guard(0, 0);
    }

    private Guard guard(ItemKey key) {
        return table.raw(key)
                .map(i -> new Guard(number(i, REVISION), number(i, USAGE)))
                .orElse(Guard.NONE);
    }

    private static long number(MemoryTable.Item item, String attribute) {
        String value = item.attribute(attribute);
        return value == null ? 0 : Long.parseLong(value);
    }

    private void writeGuard(ItemKey key, Guard guard) {
        table.put(new MemoryTable.Item(
                key,
                null,
                "{}",
                1,
                null,
                Map.of(REVISION, Long.toString(guard.revision()), USAGE, Long.toString(guard.usage()))));
    }

    private <T> Optional<T> live(ItemKey key, Class<T> type) {
        return table.live(key, now.get()).map(i -> InterlockJson.read(i.data(), type));
    }

    private void putIndexEntry(ItemKey key) {
        table.put(new MemoryTable.Item(key, null, "{}", 1, null, Map.of()));
    }

    private List<String> suffixes(String pk, String prefix) {
        return table.query(pk, prefix, true, now.get()).stream()
                .map(i -> i.key().sk().substring(prefix.length()))
                .toList();
    }

    /** The users of a document whose check fails, in name order. */
    private List<Registration.BrokenPipeline> broken(Collection<PipelineConfig> users, DependantCheck check) {
        List<Registration.BrokenPipeline> broken = new ArrayList<>();
        for (PipelineConfig user : users) {
            List<ValidationError> problems = check.problems(user);
            if (!problems.isEmpty()) {
                broken.add(new Registration.BrokenPipeline(user.name(), problems));
            }
        }
        return broken;
    }

    private Map<String, PipelineConfig> configs(Collection<String> ids) {
        Map<String, PipelineConfig> found = new TreeMap<>();
        for (String id : new TreeSet<>(ids)) {
            live(TableKeys.pipeline(id), PipelineConfig.class).ifPresent(c -> found.put(id, c));
        }
        return found;
    }

    // ------------------------------------------------------------------ pipelines

    private final class Pipelines implements PipelineStore {

        @Override
        public Registration register(PipelineConfig config, ReferenceCheck check) {
            String archetype = PipelineIndex.archetypeOf(config);
            String calendar = PipelineIndex.calendarOf(config);
            while (true) {
                Guard archetypeGuard;
                Guard calendarGuard;
                Referenced referenced;
                synchronized (table) {
                    archetypeGuard = archetype == null ? Guard.NONE : guard(TableKeys.archetypeUsage(archetype));
                    calendarGuard = calendar == null ? Guard.NONE : guard(TableKeys.calendarUsage(calendar));
                    referenced = new Referenced(
                            archetype == null
                                    ? null
                                    : live(TableKeys.archetype(archetype), Archetype.class)
                                            .orElse(null),
                            calendar == null
                                    ? null
                                    : live(TableKeys.calendar(calendar), Calendar.class)
                                            .orElse(null));
                }
                List<ValidationError> problems = check.problems(config, referenced);
                if (!problems.isEmpty()) {
                    return new Registration.Refused(problems);
                }
                synchronized (table) {
                    boolean stale = archetype != null
                                    && guard(TableKeys.archetypeUsage(archetype))
                                                    .revision()
                                            != archetypeGuard.revision()
                            || calendar != null
                                    && guard(TableKeys.calendarUsage(calendar)).revision() != calendarGuard.revision();
                    if (stale) {
                        continue;
                    }
                    ItemKey key = TableKeys.pipeline(config.name());
                    Optional<MemoryTable.Item> before = table.live(key, now.get());
                    PipelineConfig previous = before.map(i -> InterlockJson.read(i.data(), PipelineConfig.class))
                            .orElse(null);
                    Optional<ValidationError> tooBig = PipelineIndex.sizeProblem(previous, config);
                    if (tooBig.isPresent()) {
                        return new Registration.Refused(List.of(tooBig.get()));
                    }
                    if (previous != null) {
                        unindex(previous, config);
                    }
                    index(config);
                    if (archetype != null) {
                        Guard g = guard(TableKeys.archetypeUsage(archetype));
                        writeGuard(TableKeys.archetypeUsage(archetype), new Guard(g.revision(), g.usage() + 1));
                    }
                    if (calendar != null) {
                        Guard g = guard(TableKeys.calendarUsage(calendar));
                        writeGuard(TableKeys.calendarUsage(calendar), new Guard(g.revision(), g.usage() + 1));
                    }
                    watches.registered(config);
                    table.put(new MemoryTable.Item(
                            key,
                            TableKeys.pipelineIndex(config.name()),
                            InterlockJson.write(config),
                            before.map(i -> i.version() + 1).orElse(1L),
                            null,
                            Map.of()));
                    return new Registration.Written(before.isEmpty());
                }
            }
        }

        /** Every index entry {@code config} implies. */
        private void index(PipelineConfig config) {
            for (ItemKey entry : PipelineIndex.entriesOf(config)) {
                if (entry.pk().startsWith(TableKeys.PIPELINE_PREFIX)) {
                    table.put(new MemoryTable.Item(
                            entry,
                            null,
                            InterlockJson.write(Map.of(
                                    "upstream", TableKeys.pipelineIdOf(entry.pk()), "downstream", config.name())),
                            1,
                            null,
                            Map.of()));
                } else {
                    putIndexEntry(entry);
                }
            }
        }

        /** Removes the entries of {@code old} that {@code next} (null: none) no longer implies. */
        private void unindex(PipelineConfig old, PipelineConfig next) {
            Set<ItemKey> keep = next == null ? Set.of() : PipelineIndex.entriesOf(next);
            for (ItemKey entry : PipelineIndex.entriesOf(old)) {
                if (!keep.contains(entry)) {
                    table.delete(entry);
                }
            }
        }

        @Override
        public Optional<PipelineConfig> get(String pipelineId) {
            synchronized (table) {
                return live(TableKeys.pipeline(pipelineId), PipelineConfig.class);
            }
        }

        @Override
        public Map<String, PipelineConfig> getAll(Collection<String> pipelineIds) {
            synchronized (table) {
                return configs(pipelineIds);
            }
        }

        @Override
        public boolean delete(String pipelineId) {
            synchronized (table) {
                ItemKey key = TableKeys.pipeline(pipelineId);
                Optional<PipelineConfig> existing = live(key, PipelineConfig.class);
                if (existing.isEmpty()) {
                    return false;
                }
                unindex(existing.get(), null);
                watches.deleted(pipelineId);
                table.delete(key);
                return true;
            }
        }

        @Override
        public Page<PipelineConfig> list(PageRequest page) {
            synchronized (table) {
                return MemoryTable.page(
                        table.queryIndex(TableKeys.PIPELINE_TYPE, true, now.get()),
                        page,
                        true,
                        MemoryTable::indexPosition,
                        i -> InterlockJson.read(i.data(), PipelineConfig.class));
            }
        }

        @Override
        public List<String> dependants(Reference reference) {
            synchronized (table) {
                return suffixes(reference.partitionKey(), TableKeys.PIPELINE_PREFIX);
            }
        }
    }

    // ------------------------------------------------------------------ archetypes and calendars

    /** A registered document with users: archetypes and calendars differ only in keys and what else they index. */
    private abstract class UsedDocuments<T> {

        private final Class<T> type;

        UsedDocuments(Class<T> type) {
            this.type = type;
        }

        abstract ItemKey usage(String name);

        abstract ItemKey key(String name);

        abstract IndexKey listing(String name);

        abstract String partition(String name);

        /** Extra index changes of a registration (an archetype's sensor entries); {@code old} and {@code next} may be null. */
        void reindex(String name, T old, T next) {}

        /** Stores {@code document} under {@code name}, or deletes it when null, if no user's check fails. */
        Registration change(String name, T document, DependantCheck check) {
            Objects.requireNonNull(check, "check");
            while (true) {
                Guard read;
                Map<String, PipelineConfig> users;
                synchronized (table) {
                    read = guard(usage(name));
                    users = configs(suffixes(partition(name), TableKeys.PIPELINE_PREFIX));
                }
                List<Registration.BrokenPipeline> broken = broken(users.values(), check);
                if (!broken.isEmpty()) {
                    return new Registration.Blocked(broken);
                }
                synchronized (table) {
                    if (!guard(usage(name)).equals(read)) {
                        continue;
                    }
                    Optional<MemoryTable.Item> before = table.live(key(name), now.get());
                    T old = before.map(i -> InterlockJson.read(i.data(), type)).orElse(null);
                    if (document == null) {
                        if (before.isEmpty()) {
                            return new Registration.NotFound();
                        }
                        table.delete(key(name));
                    } else {
                        table.put(new MemoryTable.Item(
                                key(name),
                                listing(name),
                                InterlockJson.write(document),
                                before.map(i -> i.version() + 1).orElse(1L),
                                null,
                                Map.of()));
                    }
                    reindex(name, old, document);
                    writeGuard(usage(name), new Guard(read.revision() + 1, read.usage()));
                    return document == null ? new Registration.Deleted() : new Registration.Written(before.isEmpty());
                }
            }
        }
    }

    private final class Archetypes extends UsedDocuments<Archetype> implements ArchetypeStore {
        Archetypes() {
            super(Archetype.class);
        }

        @Override
        IndexKey listing(String name) {
            return TableKeys.archetypeIndex(name);
        }

        @Override
        ItemKey usage(String name) {
            return TableKeys.archetypeUsage(name);
        }

        @Override
        ItemKey key(String name) {
            return TableKeys.archetype(name);
        }

        @Override
        String partition(String name) {
            return TableKeys.archetypePk(name);
        }

        @Override
        void reindex(String name, Archetype old, Archetype next) {
            Set<String> after = next == null ? Set.of() : SensorReferences.of(next);
            if (old != null) {
                for (String sensor : SensorReferences.of(old)) {
                    if (!after.contains(sensor)) {
                        table.delete(TableKeys.sensorReaderArchetype(sensor, name));
                    }
                }
            }
            after.forEach(sensor -> putIndexEntry(TableKeys.sensorReaderArchetype(sensor, name)));
        }

        @Override
        public Registration register(Archetype archetype, DependantCheck check) {
            return change(archetype.name(), archetype, check);
        }

        @Override
        public Optional<Archetype> get(String name) {
            synchronized (table) {
                return live(TableKeys.archetype(name), Archetype.class);
            }
        }

        @Override
        public Page<Archetype> list(PageRequest page) {
            synchronized (table) {
                return MemoryTable.page(
                        table.queryIndex(TableKeys.ARCHETYPE_TYPE, true, now.get()),
                        page,
                        true,
                        MemoryTable::indexPosition,
                        i -> InterlockJson.read(i.data(), Archetype.class));
            }
        }

        @Override
        public List<String> readersOf(String sensor) {
            synchronized (table) {
                return suffixes(TableKeys.sensorPk(sensor), TableKeys.ARCHETYPE_PREFIX);
            }
        }
    }

    private final class Calendars extends UsedDocuments<Calendar> implements CalendarStore {
        Calendars() {
            super(Calendar.class);
        }

        @Override
        IndexKey listing(String name) {
            return TableKeys.calendarIndex(name);
        }

        @Override
        ItemKey usage(String name) {
            return TableKeys.calendarUsage(name);
        }

        @Override
        ItemKey key(String name) {
            return TableKeys.calendar(name);
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
            synchronized (table) {
                if (table.live(TableKeys.calendar(name), now.get()).isEmpty()) {
                    return new Registration.NotFound();
                }
            }
            return change(name, null, check);
        }

        @Override
        public Optional<Calendar> get(String name) {
            synchronized (table) {
                return live(TableKeys.calendar(name), Calendar.class);
            }
        }

        @Override
        public Page<Calendar> list(PageRequest page) {
            synchronized (table) {
                return MemoryTable.page(
                        table.queryIndex(TableKeys.CALENDAR_TYPE, true, now.get()),
                        page,
                        true,
                        MemoryTable::indexPosition,
                        i -> InterlockJson.read(i.data(), Calendar.class));
            }
        }
    }
}
