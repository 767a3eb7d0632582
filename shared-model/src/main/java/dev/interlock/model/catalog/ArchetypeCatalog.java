package dev.interlock.model.catalog;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.validation.DocumentValidation;
import dev.interlock.model.validation.Validated;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A set of archetypes by name: the bundled ones (resources {@code archetypes/<name>.yaml}) plus any registered
 * later. Immutable; {@link #with} returns a new catalog.
 */
public final class ArchetypeCatalog {
    /** The archetypes that ship with Interlock (docs/archetypes-and-calendars.md). */
    public static final List<String> BUNDLED =
            List.of("batch-ingestion", "ml-feature-pipeline", "streaming-enrichment");

    private static final class Bundled {
        // Loaded on first use, not in a static initialiser of the catalog, so Lambda init stays cheap until needed.
        static final ArchetypeCatalog INSTANCE = load();
    }

    private final Map<String, Archetype> byName;

    private ArchetypeCatalog(Map<String, Archetype> byName) {
        this.byName = byName;
    }

    /** The bundled archetypes. */
    public static ArchetypeCatalog bundled() {
        return Bundled.INSTANCE;
    }

    /** A catalog of exactly these archetypes (later ones win on equal names). */
    public static ArchetypeCatalog of(Collection<Archetype> archetypes) {
        Map<String, Archetype> map = new LinkedHashMap<>();
        archetypes.forEach(a -> map.put(a.name(), a));
        return new ArchetypeCatalog(Map.copyOf(map));
    }

    /** This catalog plus {@code archetype}, replacing one of the same name (registered archetypes override bundled). */
    public ArchetypeCatalog with(Archetype archetype) {
        Map<String, Archetype> map = new LinkedHashMap<>(byName);
        map.put(archetype.name(), archetype);
        return new ArchetypeCatalog(Map.copyOf(map));
    }

    /** The archetype called {@code name}. */
    public Optional<Archetype> find(String name) {
        return name == null ? Optional.empty() : Optional.ofNullable(byName.get(name));
    }

    /** All archetypes, sorted by name. */
    public List<Archetype> all() {
        return byName.values().stream()
                .sorted((a, b) -> a.name().compareTo(b.name()))
                .toList();
    }

    /** Parses and validates one archetype document (JSON or YAML); invalid ones are rejected with every error. */
    public static Archetype parse(String text, String origin) {
        Validated<Archetype> archetype = DocumentValidation.archetype(text);
        if (!archetype.isValid()) {
            throw new IllegalArgumentException("invalid archetype " + origin + ": " + archetype.errors());
        }
        return archetype.value();
    }

    private static ArchetypeCatalog load() {
        List<Archetype> archetypes = new ArrayList<>();
        for (String name : BUNDLED) {
            String resource = "archetypes/" + name + ".yaml";
            try (InputStream in = ArchetypeCatalog.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("bundled archetype resource missing: " + resource);
                }
                Archetype archetype = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), resource);
                if (!archetype.name().equals(name)) {
                    throw new IllegalStateException(resource + " declares name '" + archetype.name() + "'");
                }
                archetypes.add(archetype);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            }
        }
        return of(archetypes);
    }
}
