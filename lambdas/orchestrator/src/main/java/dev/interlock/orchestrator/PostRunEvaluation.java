package dev.interlock.orchestrator;

import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.PostRunCheck;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.PostRunVerdict;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trait.TraitVerdict;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Evaluates one post-run check (docs/post-run-checks.md) with the evaluator Lambda's own code ({@code TraitEvaluation}),
 * in the action that records the day's end: {@code logResult} for a live execution, {@link DayCompletion} for a job
 * whose execution is gone. So every way a job's success is recorded goes through the checks, with one code.
 */
@FunctionalInterface
public interface PostRunEvaluation {

    /** One check's verdict; evaluator trouble is an ERROR verdict, never thrown. */
    TraitVerdict evaluate(ResolvedTrait check);

    /** For dispatchers built without evaluators (unit tests of other actions): every check is an ERROR. */
    PostRunEvaluation UNAVAILABLE = check -> new TraitVerdict(
            check.traitType(),
            TraitStatus.ERROR,
            null,
            "no evaluator is wired into this orchestrator",
            FailureCategory.PERMANENT,
            check.required());

    /** Every post-run check of {@code pipeline} for the day, in order; {@link PostRunVerdict#NONE} when it has none. */
    default PostRunVerdict checkAll(PipelineConfig pipeline, String scheduleId, LocalDate date) {
        if (pipeline.postRun().isEmpty()) {
            return PostRunVerdict.NONE;
        }
        List<TraitVerdict> verdicts = new ArrayList<>();
        for (PostRunCheck check : pipeline.postRun()) {
            ResolvedTrait trait = TraitResolution.postRun(check, pipeline.name(), scheduleId, date);
            TraitVerdict verdict;
            try {
                verdict = evaluate(trait);
            } catch (RuntimeException e) {
                verdict = new TraitVerdict(
                        trait.traitType(),
                        TraitStatus.ERROR,
                        null,
                        String.valueOf(e.getMessage()),
                        FailureCategory.TRANSIENT,
                        trait.required());
            }
            verdicts.add(verdict);
        }
        return new PostRunVerdict(verdicts);
    }
}
