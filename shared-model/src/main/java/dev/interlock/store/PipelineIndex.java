package dev.interlock.store;

import dev.interlock.model.arrival.SensorReferences;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.validation.ArchetypeValidation;
import java.util.LinkedHashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The index entries a registered pipeline implies, kept in the same transaction as its config by both Providers: one
 * per upstream in that upstream's downstream index ({@code PIPELINE#<up>/DOWNSTREAM#<id>}), one in its archetype's
 * and its calendar's users ({@code ARCHETYPE#<a>/PIPELINE#<id>}, {@code CALENDAR#<c>/PIPELINE#<id>}), and one per
 * sensor its trait configs name ({@code SENSOR#<s>/PIPELINE#<id>}).
 */
public final class PipelineIndex {

    /** One registration writes its config, its guards and its index changes in one transaction of at most 100 items. */
    public static final int MAX_TRANSACTION_ITEMS = 100;

    private PipelineIndex() {}

    /** Every index entry of {@code config}. */
    public static Set<ItemKey> entriesOf(PipelineConfig config) {
        Set<ItemKey> entries = new LinkedHashSet<>();
        for (String upstream : config.upstreamPipelines()) {
            entries.add(TableKeys.downstream(upstream, config.name()));
        }
        String archetype = archetypeOf(config);
        if (archetype != null) {
            entries.add(TableKeys.archetypeUser(archetype, config.name()));
        }
        String calendar = calendarOf(config);
        if (calendar != null) {
            entries.add(TableKeys.calendarUser(calendar, config.name()));
        }
        for (String sensor : SensorReferences.of(config)) {
            entries.add(TableKeys.sensorReader(sensor, config.name()));
        }
        return entries;
    }

    /** The watchdog's items a registration rewrites: the watch, and the due entry it moves (one delete, one put). */
    private static final int WATCH_ITEMS = 3;

    /**
     * Why registering {@code next} over {@code old} (null: new) cannot be one transaction: its config, both guards,
     * every entry of {@code next} (re-put, which heals a pipeline registered before an index existed) and every entry
     * of {@code old} it drops. Empty when it fits.
     */
    public static Optional<ValidationError> sizeProblem(PipelineConfig old, PipelineConfig next) {
        Set<ItemKey> after = entriesOf(next);
        Set<ItemKey> dropped = new LinkedHashSet<>(old == null ? Set.of() : entriesOf(old));
        dropped.removeAll(after);
        // The config, its watchdog watch and its due entry moved (a delete and a put), the guards, the index changes.
        int items = 1
                + WATCH_ITEMS
                + after.size()
                + dropped.size()
                + (archetypeOf(next) == null ? 0 : 1)
                + (calendarOf(next) == null ? 0 : 1);
        if (items <= MAX_TRANSACTION_ITEMS) {
            return Optional.empty();
        }
        return Optional.of(new ValidationError(
                JsonPath.field(JsonPath.ROOT, "traits"),
                "this registration changes "
                        + (after.size() + dropped.size())
                        + " index entries (upstreams and sensors, old and new); at most "
                        + (MAX_TRANSACTION_ITEMS - 3 - WATCH_ITEMS)
                        + " fit one registration: register the change in two steps"));
    }

    /** The archetype the pipeline names, or null when the name could not be a registered one. */
    public static String archetypeOf(PipelineConfig config) {
        return named(config.archetype());
    }

    /** The exclusion calendar the pipeline names, or null when it names none (or none that could be registered). */
    public static String calendarOf(PipelineConfig config) {
        return config.exclusions() == null ? null : named(config.exclusions().calendar());
    }

    private static String named(String name) {
        return name != null && ArchetypeValidation.NAME.matcher(name.trim()).matches() ? name.trim() : null;
    }
}
