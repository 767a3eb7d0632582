package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.Readiness;
import dev.interlock.model.trait.TraitVerdict;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The part of {@code checkValidationDeadline} that ends a wait no deadline should: when a required trait's evaluator
 * failed PERMANENT in the round just judged ({@link Readiness#permanentError()}), waiting cannot make it pass, so the
 * answer is exhausted at once with category PERMANENT, a message naming the trait and why, and the trait. The machine
 * then takes its one way out of the wait ({@code LogValidationExhausted}), which logs the day FAILED without using an
 * attempt, so the next marker (a new evaluation request, the next sensor write) runs the day again. A trait the day
 * may go without (not {@code essential} under a readiness rule with {@code proceedAt}) does not stop the wait.
 */
final class StoppedWait {

    private final Collaborators collaborators;

    StoppedWait(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** The exhausted answer when the round's results hold a required PERMANENT error; empty otherwise. */
    Optional<Outcome> check(ActionRequest request, JsonNode traitResults) {
        if (traitResults == null || traitResults.isNull() || traitResults.isMissingNode()) {
            return Optional.empty();
        }
        List<TraitVerdict> results;
        try {
            results = TraitVerdict.readAll(traitResults, "traitResults");
        } catch (IllegalArgumentException e) {
            // checkReadiness already reported the unreadable round; the deadline alone decides then.
            return Optional.empty();
        }
        Optional<TraitVerdict> permanent = Readiness.of(results).permanentError();
        if (permanent.isEmpty()) {
            return Optional.empty();
        }
        TraitVerdict trait = permanent.get();
        if (collaborators
                .pipeline(request)
                .map(PipelineConfig::readinessRule)
                .filter(rule -> rule.hasFallback() && !rule.essential().contains(trait.type()))
                .isPresent()) {
            // The day may still proceed without this trait once its readiness rule's proceedAt has passed.
            return Optional.empty();
        }
        String message = message(trait);
        withdrawRound(request);
        return Optional.of(Outcome.proceed(new CheckValidationDeadline.Payload(
                true,
                InterlockJson.timestamp(collaborators.now()),
                FailureCategory.PERMANENT.wireName(),
                message,
                trait.type(),
                false,
                "")));
    }

    /** The run log's and the status's words: which trait, why, and what runs the day again. */
    static String message(TraitVerdict trait) {
        return "trait " + trait.type() + " failed PERMANENT: "
                + (trait.reason() == null ? "its evaluator answered an error" : trait.reason())
                + "; waiting cannot fix it, so the day stopped waiting (fix the evaluator, then re-register the"
                + " pipeline or request an evaluation)";
    }

    /** The holder evaluates no more: a marker for the day must not be absorbed into it. Best effort. */
    private void withdrawRound(ActionRequest request) {
        if (request.executionName() == null) {
            return;
        }
        try {
            collaborators
                    .provider()
                    .locks()
                    .recordEvaluating(LockOwner.key(request), request.executionName(), null, null);
        } catch (RuntimeException e) {
            collaborators
                    .log()
                    .warn(
                            request.logContext(),
                            "could not withdraw the evaluation round from the lock",
                            Map.of("error", String.valueOf(e.getMessage())));
        }
    }
}
