package dev.interlock.model.trait;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One evaluator output as the machine passes it on (statemachine/CONTRACT.md §5). Read leniently: a status this
 * version does not know is simply not a PASS.
 */
public record TraitOutcome(String traitType, String status, JsonNode value, String reason, String failureCategory,
                           Boolean required) {

    /** Whether the trait passed. */
    public boolean passed() {
        return is(TraitStatus.PASS);
    }

    /** Whether the evaluator itself failed (infrastructure), as opposed to the data not being ready. */
    public boolean errored() {
        return is(TraitStatus.ERROR);
    }

    /** Whether the trait must pass for readiness; absent means required (the safe side). */
    public boolean isRequired() {
        return required == null || required;
    }

    /** The status in upper case, {@code ""} when absent. */
    public String normalisedStatus() {
        return status == null ? "" : status.trim().toUpperCase(Locale.ROOT);
    }

    /** The trait type, {@code ""} when absent. */
    public String type() {
        return traitType == null ? "" : traitType;
    }

    private boolean is(TraitStatus expected) {
        return expected.wireName().equals(normalisedStatus());
    }

    /**
     * Reads an array of evaluator outputs; anything that is not an array of objects is an
     * {@link IllegalArgumentException} naming {@code field}.
     */
    public static List<TraitOutcome> readAll(JsonNode array, String field) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("payload." + field + " must be an array of trait results");
        }
        List<TraitOutcome> outcomes = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode element = array.get(i);
            if (!element.isObject()) {
                throw new IllegalArgumentException("payload." + field + "[" + i + "] must be an object");
            }
            outcomes.add(InterlockJson.convert(element, TraitOutcome.class));
        }
        return outcomes;
    }
}
