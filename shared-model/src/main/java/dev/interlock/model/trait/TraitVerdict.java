package dev.interlock.model.trait;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One trait's verdict on the way from the evaluator to the orchestrator (statemachine/CONTRACT.md §5): what the
 * evaluator Lambda answers, what the machine's Maps collect into {@code traitResults} and {@code monitoringResults}
 * (their catch builds the same shape for an evaluator that crashed) and what {@code checkReadiness} and
 * {@code checkDrift} read. {@code traitType}, {@code status} and {@code required} are always written; {@code value},
 * {@code reason} and {@code failureCategory} only when set.
 *
 * <p>An ERROR always carries a category (TRANSIENT unless told), so an evaluator outage is never mistaken for a trait
 * that simply did not pass; a PASS carries none. Read leniently: a status this version does not know is read as
 * {@code null}, which is simply not a PASS, and an absent {@code required} means required (the safe side).
 */
public record TraitVerdict(
        String traitType,
        TraitStatus status,
        Map<String, Object> value,
        String reason,
        FailureCategory failureCategory,
        boolean required) {

    public TraitVerdict {
        value = value == null || value.isEmpty() ? null : Frozen.map(value);
        reason = reason == null || reason.isBlank() ? null : reason;
        failureCategory = category(status, failureCategory);
    }

    /**
     * The category a verdict of {@code status} carries when its evaluator said {@code said}: an ERROR always has one,
     * a PASS never.
     */
    public static FailureCategory category(TraitStatus status, FailureCategory said) {
        if (status == TraitStatus.ERROR && said == null) {
            return FailureCategory.TRANSIENT;
        }
        return status == TraitStatus.PASS ? null : said;
    }

    /** Reads one verdict as the machine passes it on; see the class comment for what is lenient. */
    @JsonCreator
    static TraitVerdict read(
            @JsonProperty("traitType") String traitType,
            @JsonProperty("status") String status,
            @JsonProperty("value") JsonNode value,
            @JsonProperty("reason") String reason,
            @JsonProperty("failureCategory") String failureCategory,
            @JsonProperty("required") Boolean required) {
        return new TraitVerdict(
                traitType,
                knownStatus(status),
                objectOrNull(value),
                reason,
                failureCategory == null || failureCategory.isBlank() ? null : FailureCategory.fromJson(failureCategory),
                required == null || required);
    }

    /** Whether the trait passed. */
    public boolean passed() {
        return status == TraitStatus.PASS;
    }

    /** Whether the evaluator itself failed (infrastructure), as opposed to the data not being ready. */
    public boolean errored() {
        return status == TraitStatus.ERROR;
    }

    /** The status's wire name, {@code ""} when absent or unknown. */
    public String statusName() {
        return status == null ? "" : status.wireName();
    }

    /** The trait type, {@code ""} when absent. */
    public String type() {
        return traitType == null ? "" : traitType;
    }

    /**
     * Reads an array of verdicts; anything that is not an array of objects is an {@link IllegalArgumentException}
     * naming {@code payload.<field>}.
     */
    public static List<TraitVerdict> readAll(JsonNode array, String field) {
        if (array == null || !array.isArray()) {
            throw new IllegalArgumentException("payload." + field + " must be an array of trait results");
        }
        List<TraitVerdict> verdicts = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            JsonNode element = array.get(i);
            if (!element.isObject()) {
                throw new IllegalArgumentException("payload." + field + "[" + i + "] must be an object");
            }
            verdicts.add(InterlockJson.convert(element, TraitVerdict.class));
        }
        return verdicts;
    }

    private static TraitStatus knownStatus(String raw) {
        if (raw == null) {
            return null;
        }
        String wanted = raw.trim().toUpperCase(Locale.ROOT);
        for (TraitStatus s : TraitStatus.values()) {
            if (s.wireName().equals(wanted)) {
                return s;
            }
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> objectOrNull(JsonNode value) {
        // Only an object is a value (the evaluator's, or an external evaluator's checked answer); the drift rule reads
        // numbers from it, so anything else says nothing.
        return value == null || !value.isObject()
                ? null
                : new LinkedHashMap<>(InterlockJson.json().convertValue(value, Map.class));
    }
}
