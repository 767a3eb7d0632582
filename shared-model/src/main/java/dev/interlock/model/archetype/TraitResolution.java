package dev.interlock.model.archetype;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.PostRunCheck;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.trait.ResolvedTrait;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Archetype ⊕ pipeline (docs/archetypes-and-calendars.md): the ordered traits one (pipeline, date, schedule) evaluates. */
public final class TraitResolution {
    /** Evaluator timeout when neither the archetype nor the pipeline sets one. */
    public static final int DEFAULT_TIMEOUT_SECONDS = 30;
    /** An evaluation longer than the Lambda maximum can never finish inside the evaluator. */
    public static final int MAX_TIMEOUT_SECONDS = 900;
    /** Config keys every trait receives, overwriting user keys of the same name. */
    public static final String DATE_KEY = "date";

    public static final String SCHEDULE_KEY = "scheduleId";

    private TraitResolution() {}

    /**
     * Required traits in archetype order, then the optional ones the pipeline configures. Whether each blocks
     * readiness alone: a trait in the pipeline's readiness-rule pool never does (the pool is judged as a whole);
     * otherwise the pipeline's {@code required} when set, else the archetype's word. Pipeline overrides:
     * a non-empty evaluator replaces, config keys overwrite the defaults one by one, ttl/timeout &gt; 0 replace.
     * {@code date} and {@code scheduleId} are injected into every config so evaluators judge the execution date.
     */
    public static List<ResolvedTrait> resolve(
            PipelineConfig pipeline, Archetype archetype, String scheduleId, LocalDate date) {
        List<ResolvedTrait> resolved = new ArrayList<>();
        for (TraitDefinition definition : archetype.requiredTraits()) {
            resolved.add(resolveOne(pipeline, definition, true, scheduleId, date));
        }
        for (TraitDefinition definition : archetype.optionalTraits()) {
            if (pipeline.traits().get(definition.type()) != null) {
                resolved.add(resolveOne(pipeline, definition, false, scheduleId, date));
            }
        }
        return List.copyOf(resolved);
    }

    private static ResolvedTrait resolveOne(
            PipelineConfig pipeline,
            TraitDefinition definition,
            boolean archetypeRequired,
            String scheduleId,
            LocalDate date) {
        // A copy, so one pipeline's overrides never leak into the shared archetype default.
        Map<String, Object> config = new LinkedHashMap<>(definition.defaultConfig());
        String evaluator = definition.evaluator() == null ? "" : definition.evaluator();
        int ttl = definition.defaultTtl();
        int timeout = definition.defaultTimeout();
        Map<String, String> headers = Map.of();
        TraitConfig override = pipeline.traits().get(definition.type());
        boolean required = archetypeRequired;
        if (pipeline.readinessRule().pools(definition.type())) {
            required = false;
        } else if (override != null && override.required() != null) {
            required = override.required();
        }
        if (override != null) {
            if (override.evaluator() != null && !override.evaluator().isBlank()) {
                evaluator = override.evaluator();
            }
            config.putAll(override.config());
            if (override.ttl() > 0) {
                ttl = override.ttl();
            }
            if (override.timeout() > 0) {
                timeout = override.timeout();
            }
            headers = override.headers();
        }
        config.put(DATE_KEY, date.toString());
        config.put(SCHEDULE_KEY, scheduleId);
        return new ResolvedTrait(
                pipeline.name(),
                scheduleId,
                date,
                definition.type(),
                evaluator,
                config,
                timeout > 0 ? timeout : DEFAULT_TIMEOUT_SECONDS,
                ttl,
                required,
                headers);
    }

    /** A post-run check ({@code postRun[i]}) as a trait of day {@code date} of {@code scheduleId}, ready for the evaluator. */
    public static ResolvedTrait postRun(PostRunCheck check, String pipelineId, String scheduleId, LocalDate date) {
        Map<String, Object> resolved = new LinkedHashMap<>(check.config());
        resolved.put(DATE_KEY, date.toString());
        resolved.put(SCHEDULE_KEY, scheduleId);
        return new ResolvedTrait(
                pipelineId,
                scheduleId,
                date,
                check.name(),
                check.evaluator() == null ? "" : check.evaluator(),
                resolved,
                check.timeout() > 0 ? check.timeout() : DEFAULT_TIMEOUT_SECONDS,
                0,
                check.required(),
                check.headers());
    }
}
