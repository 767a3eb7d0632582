package dev.interlock.store;

import dev.interlock.model.archetype.Archetype;

import java.util.Optional;

/** Registered archetypes (the bundled ones are seeded through the same store). */
public interface ArchetypeStore {

    /** Registers or replaces an archetype; true when it did not exist before. */
    boolean put(Archetype archetype);

    /** The archetype named {@code name}. */
    Optional<Archetype> get(String name);

    /** Archetypes in name order. */
    Page<Archetype> list(PageRequest page);
}
