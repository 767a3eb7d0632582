package dev.interlock.model.validation;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.trait.EvaluatorLocator;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/** Checks an archetype before it is bundled or registered; returns every problem with its JSON path. */
public final class ArchetypeValidation {
    /** Archetype names follow the pipeline id rule, so they are safe in keys and URLs. */
    public static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$");
    /** Trait types appear in table keys and JSON paths. */
    public static final Pattern TRAIT_TYPE = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$");

    private ArchetypeValidation() {}

    /**
     * Every problem of {@code archetype} as a document (bundled archetypes are checked by this alone); empty when it is
     * valid. Registration adds {@link #validate(Archetype, NeverAllowedAddresses)}'s address check.
     */
    public static List<ValidationError> validate(Archetype archetype) {
        return validate(archetype, null);
    }

    /**
     * Every problem of an archetype being registered: its document's, and every trait evaluator URL that is, or
     * resolves to, a never-allowed address ({@link EvaluatorLocator#refusal}, the rule pipeline traits are registered
     * under), each at its field's path.
     *
     * @param addresses the never-allowed address rule; null checks the document only
     */
    public static List<ValidationError> validate(Archetype archetype, NeverAllowedAddresses addresses) {
        List<ValidationError> errors = new ArrayList<>();
        String root = JsonPath.ROOT;
        if (archetype.name() == null || archetype.name().isBlank()) {
            errors.add(new ValidationError(JsonPath.field(root, "name"), "name is required"));
        } else if (!NAME.matcher(archetype.name()).matches()) {
            errors.add(new ValidationError(
                    JsonPath.field(root, "name"), "'" + archetype.name() + "' must match " + NAME.pattern()));
        }
        if (archetype.requiredTraits().isEmpty()) {
            errors.add(new ValidationError(
                    JsonPath.field(root, "requiredTraits"), "at least one required trait is needed"));
        }
        Set<String> seen = new HashSet<>();
        checkTraits(archetype.requiredTraits(), JsonPath.field(root, "requiredTraits"), seen, addresses, errors);
        checkTraits(archetype.optionalTraits(), JsonPath.field(root, "optionalTraits"), seen, addresses, errors);
        if (archetype.readinessRule() == null || archetype.readinessRule().type() == null) {
            errors.add(new ValidationError(
                    JsonPath.field(JsonPath.field(root, "readinessRule"), "type"),
                    "readinessRule.type is required; allowed: all-required-pass"));
        } else if (archetype.readinessRule().type() != ReadinessRuleType.ALL_REQUIRED_PASS
                || !archetype.readinessRule().traits().isEmpty()
                || archetype.readinessRule().count() != null) {
            errors.add(new ValidationError(
                    JsonPath.field(root, "readinessRule"),
                    "an archetype's readinessRule is all-required-pass (a pipeline sets any or at-least over its own"
                            + " traits)"));
        }
        return errors;
    }

    private static void checkTraits(
            List<TraitDefinition> traits,
            String path,
            Set<String> seen,
            NeverAllowedAddresses addresses,
            List<ValidationError> errors) {
        for (int i = 0; i < traits.size(); i++) {
            String at = JsonPath.index(path, i);
            TraitDefinition trait = traits.get(i);
            if (trait == null) {
                errors.add(new ValidationError(at, "trait definition is empty"));
                continue;
            }
            if (trait.type() == null || trait.type().isBlank()) {
                errors.add(new ValidationError(JsonPath.field(at, "type"), "type is required"));
            } else if (!TRAIT_TYPE.matcher(trait.type()).matches()) {
                errors.add(new ValidationError(
                        JsonPath.field(at, "type"), "'" + trait.type() + "' must match " + TRAIT_TYPE.pattern()));
            } else if (!seen.add(trait.type())) {
                errors.add(new ValidationError(
                        JsonPath.field(at, "type"), "trait '" + trait.type() + "' is declared twice"));
            }
            if (trait.defaultTtl() < 0) {
                errors.add(new ValidationError(JsonPath.field(at, "defaultTtl"), "must not be negative"));
            }
            if (trait.defaultTimeout() < 0 || trait.defaultTimeout() > TraitResolution.MAX_TIMEOUT_SECONDS) {
                errors.add(new ValidationError(
                        JsonPath.field(at, "defaultTimeout"),
                        "must be between 0 and " + TraitResolution.MAX_TIMEOUT_SECONDS + " seconds"));
            }
            if (trait.evaluator() != null && !trait.evaluator().isBlank()) {
                try {
                    EvaluatorLocator.parse(trait.evaluator());
                } catch (IllegalArgumentException e) {
                    errors.add(new ValidationError(JsonPath.field(at, "evaluator"), e.getMessage()));
                }
                if (addresses != null) {
                    EvaluatorLocator.refusal(trait.evaluator(), addresses)
                            .ifPresent(refusal ->
                                    errors.add(new ValidationError(JsonPath.field(at, "evaluator"), refusal)));
                }
            }
        }
    }
}
