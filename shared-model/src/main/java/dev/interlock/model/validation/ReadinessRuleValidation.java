package dev.interlock.model.validation;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.schedule.ScheduleWindow;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.ResolvedTrait;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Registration checks of a pipeline's {@code readinessRule} (docs/pipeline-reference.md, "Readiness rules"): its pool
 * ({@code any}, {@code at-least}) and its deadline fallback ({@code proceedAt}, {@code essential}), each problem at
 * its field's path. Part of {@link PipelineValidation}.
 */
final class ReadinessRuleValidation {

    private ReadinessRuleValidation() {}

    /**
     * {@code readinessRule}: {@code any} and {@code at-least} pool traits this pipeline evaluates (declared by its
     * archetype, and configured unless the archetype requires them), {@code at-least} with a count no larger than its
     * pool; {@code all-required-pass} takes no pool. Something must be able to hold the pipeline back: a rule whose
     * every trait is optional would trigger on any data.
     */
    static void check(PipelineConfig config, Archetype archetype, PipelineValidation.Errors errors) {
        ReadinessRule rule = config.readinessRule();
        String path = JsonPath.field(JsonPath.ROOT, "readinessRule");
        String traitsPath = JsonPath.field(path, "traits");
        ReadinessRuleType type = rule.type() == null ? ReadinessRuleType.ALL_REQUIRED_PASS : rule.type();
        if (type == ReadinessRuleType.ALL_REQUIRED_PASS) {
            if (!rule.traits().isEmpty()) {
                errors.add(traitsPath, "traits belong to the any and at-least rules; all-required-pass takes none");
            }
            if (rule.count() != null) {
                errors.add(JsonPath.field(path, "count"), "count belongs to the at-least rule");
            }
        } else {
            if (rule.traits().size() < 2) {
                errors.add(
                        traitsPath,
                        "the " + type.wireName() + " rule needs at least two traits to choose from, got "
                                + rule.traits().size());
            }
            Set<String> seen = new HashSet<>();
            for (int i = 0; i < rule.traits().size(); i++) {
                String trait = rule.traits().get(i);
                String at = JsonPath.index(traitsPath, i);
                if (!seen.add(trait)) {
                    errors.add(at, "trait '" + trait + "' is listed twice");
                    continue;
                }
                Optional<TraitDefinition> declared = archetype.trait(trait);
                boolean archetypeRequires = archetype.requiredTraits().stream()
                        .anyMatch(d -> d.type().equals(trait));
                TraitConfig configured = config.traits().get(trait);
                if (declared.isEmpty()) {
                    errors.add(
                            at,
                            "trait '" + trait + "' is not declared by archetype '" + archetype.name() + "' (declared: "
                                    + PipelineValidation.declared(archetype) + ")");
                } else if (!archetypeRequires && configured == null) {
                    errors.add(
                            at, "optional trait '" + trait + "' is not evaluated: configure it under traits." + trait);
                } else if (configured != null && Boolean.TRUE.equals(configured.required())) {
                    errors.add(
                            JsonPath.field(JsonPath.field(JsonPath.field(JsonPath.ROOT, "traits"), trait), "required"),
                            "trait '" + trait + "' is in the " + type.wireName()
                                    + " rule's pool, which is judged as a whole: it cannot also be required alone");
                }
            }
            if (type == ReadinessRuleType.ANY && rule.count() != null && rule.count() != 1) {
                errors.add(JsonPath.field(path, "count"), "the any rule needs one trait; use at-least for a count");
            }
            if (type == ReadinessRuleType.AT_LEAST) {
                if (rule.count() == null) {
                    errors.add(JsonPath.field(path, "count"), "the at-least rule needs a count");
                } else if (rule.count() < 1 || rule.count() > rule.traits().size()) {
                    errors.add(
                            JsonPath.field(path, "count"),
                            "count must be between 1 and the " + rule.traits().size() + " listed traits, got "
                                    + rule.count());
                }
            }
        }
        boolean anyBlocks = !rule.traits().isEmpty() && type != ReadinessRuleType.ALL_REQUIRED_PASS
                || TraitResolution.resolve(config, archetype, ScheduleConfig.DAILY, LocalDate.EPOCH).stream()
                        .anyMatch(ResolvedTrait::required);
        if (!anyBlocks) {
            errors.add(
                    JsonPath.field(JsonPath.ROOT, "traits"),
                    "every trait is optional (required: false), so nothing would ever hold the pipeline back");
        }
    }

    /** A date without a daylight-saving change in either hemisphere, on which proceedAt is compared with deadlines. */
    private static final LocalDate SAMPLE_DATE = LocalDate.of(2026, 1, 15);

    /**
     * The readiness rule's deadline fallback: {@code proceedAt} (a time or a span, as schedule deadlines) and
     * {@code essential} come together; the essential traits are traits of this pipeline that can hold it back
     * (required, or in the rule's pool), each listed once; and {@code proceedAt} must come no later than every
     * schedule's validation deadline, or the day would end VALIDATION_EXHAUSTED before it could proceed.
     */
    static void checkFallback(PipelineConfig config, Archetype archetype, PipelineValidation.Errors errors) {
        ReadinessRule rule = config.readinessRule();
        String path = JsonPath.field(JsonPath.ROOT, "readinessRule");
        String proceedAtPath = JsonPath.field(path, "proceedAt");
        String essentialPath = JsonPath.field(path, "essential");
        boolean hasProceedAt = rule.proceedAt() != null && !rule.proceedAt().isBlank();
        if (rule.proceedAt() != null && rule.proceedAt().isBlank()) {
            errors.add(proceedAtPath, "expected HH:MM or a duration like 6h / +6h30m, got nothing");
        }
        if (hasProceedAt && rule.essential().isEmpty()) {
            errors.add(
                    essentialPath,
                    "proceedAt needs at least one essential trait: the traits that must still pass to proceed "
                            + "without the others");
        }
        if (!hasProceedAt && !rule.essential().isEmpty()) {
            errors.add(
                    proceedAtPath,
                    "essential traits need proceedAt: the time after which the day may proceed without the others");
        }
        boolean parsed = false;
        if (hasProceedAt) {
            int before = errors.list().size();
            errors.deadline(proceedAtPath, rule.proceedAt());
            parsed = errors.list().size() == before;
        }
        Set<String> seen = new HashSet<>();
        List<ResolvedTrait> resolved = archetype == null
                ? List.of()
                : TraitResolution.resolve(config, archetype, ScheduleConfig.DAILY, LocalDate.EPOCH);
        for (int i = 0; i < rule.essential().size(); i++) {
            String trait = rule.essential().get(i);
            String at = JsonPath.index(essentialPath, i);
            if (trait == null || trait.isBlank()) {
                errors.add(at, "an essential trait needs a name");
            } else if (!seen.add(trait)) {
                errors.add(at, "trait '" + trait + "' is listed twice");
            } else if (archetype != null) {
                Optional<ResolvedTrait> evaluated = resolved.stream()
                        .filter(r -> r.traitType().equals(trait))
                        .findFirst();
                if (archetype.trait(trait).isEmpty()) {
                    errors.add(
                            at,
                            "trait '" + trait + "' is not declared by archetype '" + archetype.name() + "' (declared: "
                                    + PipelineValidation.declared(archetype) + ")");
                } else if (evaluated.isEmpty()) {
                    errors.add(
                            at, "optional trait '" + trait + "' is not evaluated: configure it under traits." + trait);
                } else if (!evaluated.get().required() && !rule.pools(trait)) {
                    errors.add(
                            at,
                            "trait '" + trait + "' is optional (required: false): it never holds the day back, so it "
                                    + "cannot be essential");
                }
            }
        }
        if (!parsed || rule.essential().isEmpty()) {
            return;
        }
        for (ScheduleConfig schedule : config.effectiveSchedules()) {
            ScheduleWindow window;
            try {
                // A cron schedule is judged by one of its windows (they differ only in their time).
                String scheduleId =
                        schedule.hasCron() ? schedule.windowId(java.time.LocalTime.of(6, 0)) : schedule.name();
                window = ScheduleWindow.of(config, scheduleId, SAMPLE_DATE);
            } catch (IllegalArgumentException | DateTimeException e) {
                continue; // an unparsable time or zone of the schedule is reported where it is written
            }
            Instant proceedAt = Readiness.proceedAt(rule, window);
            if (window.validationDeadline() != null && proceedAt.isAfter(window.validationDeadline())) {
                errors.add(
                        proceedAtPath,
                        "'" + rule.proceedAt() + "' comes after the validation deadline (sla.validationTimeout '"
                                + config.sla().validationTimeout() + "') of schedule '" + schedule.name()
                                + "': the day would end VALIDATION_EXHAUSTED before it could proceed");
                return;
            }
        }
    }
}
