package dev.interlock.store;

import dev.interlock.model.archetype.Archetype;
import java.util.List;
import java.util.Optional;

/** Registered archetypes (the bundled ones are seeded through the same store). */
public interface ArchetypeStore {

    /**
     * Registers or replaces an archetype if {@code check} finds no problem with any pipeline that uses it: the users are
     * read from the index pipeline registration keeps, and the write is conditioned on no user having been registered
     * or re-registered meanwhile (else the store reads and checks again). Also indexes the sensors its trait defaults
     * name ({@link #readersOf}).
     *
     * @return {@link Registration.Written} (created when none of that name was registered), or
     *         {@link Registration.Blocked} listing the pipelines the change would break, after which nothing was written
     */
    Registration register(Archetype archetype, DependantCheck check);

    /** Registers without checking its users (seeding, tests); true when none of that name was registered. */
    default boolean put(Archetype archetype) {
        return register(archetype, DependantCheck.NONE) instanceof Registration.Written written && written.created();
    }

    /** The archetype named {@code name}. */
    Optional<Archetype> get(String name);

    /** Archetypes in name order. */
    Page<Archetype> list(PageRequest page);

    /** The registered archetypes whose trait defaults name sensor {@code sensor}, in name order (an index, no scan). */
    List<String> readersOf(String sensor);
}
