package dev.interlock.model.validation;

import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.PostRunCheck;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.trait.EvaluatorLocator;
import java.time.LocalDate;

/** The registration checks of a pipeline's {@code postRun} section (docs/post-run-checks.md). */
final class PostRunValidation {

    private PostRunValidation() {}

    /**
     * Post-run checks ({@code postRun[i]}, docs/post-run-checks.md): each has a unique name and an evaluator that
     * parses and may be called, and a builtin's config has the keys that builtin reads.
     */
    static void check(PipelineConfig config, NeverAllowedAddresses addresses, PipelineValidation.Errors errors) {
        String root = JsonPath.field(JsonPath.ROOT, "postRun");
        java.util.Set<String> names = new java.util.HashSet<>();
        for (int i = 0; i < config.postRun().size(); i++) {
            String path = JsonPath.index(root, i);
            PostRunCheck check = config.postRun().get(i);
            if (check == null) {
                errors.add(path, "a post-run check is an object with name and evaluator");
                continue;
            }
            String namePath = JsonPath.field(path, "name");
            if (check.name() == null || check.name().isBlank()) {
                errors.add(namePath, "name is required (it names the check in status, why and alerts)");
            } else if (!PipelineValidation.SCHEDULE_NAME.matcher(check.name()).matches()) {
                errors.add(
                        namePath,
                        "'" + check.name() + "' is not a check name (" + PipelineValidation.SCHEDULE_NAME.pattern()
                                + ")");
            } else if (!names.add(check.name())) {
                errors.add(namePath, "duplicate post-run check name '" + check.name() + "'");
            }
            String evaluatorPath = JsonPath.field(path, "evaluator");
            if (check.evaluator() == null || check.evaluator().isBlank()) {
                errors.add(evaluatorPath, "evaluator is required (builtin:<name>, a Lambda, an http(s) URL or a path)");
            } else {
                EvaluatorLocator locator = null;
                try {
                    locator = EvaluatorLocator.parse(check.evaluator());
                } catch (IllegalArgumentException e) {
                    errors.add(evaluatorPath, e.getMessage());
                }
                EvaluatorLocator.refusal(check.evaluator(), addresses).ifPresent(r -> errors.add(evaluatorPath, r));
                if (locator instanceof EvaluatorLocator.Builtin builtin) {
                    builtin.evaluator()
                            .configErrors(
                                    TraitResolution.postRun(check, config.name(), ScheduleConfig.DAILY, LocalDate.EPOCH)
                                            .config(),
                                    JsonPath.field(path, "config"))
                            .forEach(e -> errors.add(e.path(), e.message()));
                }
            }
            errors.range(JsonPath.field(path, "timeout"), check.timeout(), 0, TraitResolution.MAX_TIMEOUT_SECONDS);
        }
    }
}
