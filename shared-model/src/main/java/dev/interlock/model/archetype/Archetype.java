package dev.interlock.model.archetype;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.pipeline.ReadinessRule;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/** A reusable template of required and optional traits (docs/archetypes-and-calendars.md) that pipelines refer to by name. */
public record Archetype(
        String name,
        String description,
        List<TraitDefinition> requiredTraits,
        List<TraitDefinition> optionalTraits,
        ReadinessRule readinessRule) {
    public Archetype {
        requiredTraits = Frozen.list(requiredTraits);
        optionalTraits = Frozen.list(optionalTraits);
    }

    /** The definition of {@code traitType}, required or optional. */
    public Optional<TraitDefinition> trait(String traitType) {
        return Stream.concat(requiredTraits.stream(), optionalTraits.stream())
                .filter(t -> t != null && traitType.equals(t.type()))
                .findFirst();
    }
}
