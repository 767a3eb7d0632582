package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitVerdict;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one evaluation round leaves in the table, written by the orchestrator in one request: every trait's result (the
 * TRAIT item the status views and {@code builtin:} readers read, expiring after the trait's {@code ttl}), a
 * {@code TRAIT_EVALUATED} event per trait (the day's timeline) and the round's own event. The evaluators write nothing.
 */
final class EvaluationRound {

    private final Collaborators collaborators;

    EvaluationRound(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /**
     * Records {@code verdicts} with {@code roundEvent}. {@code traits} are the resolved traits the machine evaluated
     * (their {@code ttl} by trait type); a trait missing there keeps its result until the partition is cleaned up.
     */
    void record(ActionRequest request, List<TraitVerdict> verdicts, JsonNode traits, Event roundEvent) {
        // One moment for the whole round: readers take the trait events at or before the round's event as its own.
        Instant now = roundEvent != null ? roundEvent.timestamp() : collaborators.now();
        Map<String, Integer> ttls = ttls(traits);
        List<TraitResult> results = new ArrayList<>(verdicts.size());
        List<Event> events = new ArrayList<>(verdicts.size() + 1);
        for (TraitVerdict verdict : verdicts) {
            int ttl = ttls.getOrDefault(verdict.traitType(), 0);
            results.add(TraitResult.of(
                    request.pipelineId(),
                    request.scheduleId(),
                    request.date(),
                    verdict,
                    now,
                    ttl > 0 ? now.plusSeconds(ttl) : null));
            events.add(new Event(
                    EventKind.TRAIT_EVALUATED,
                    request.pipelineId(),
                    request.scheduleId(),
                    request.date(),
                    null,
                    verdict.traitType(),
                    verdict.statusName(),
                    verdict.reason(),
                    verdict.value() == null ? Map.of() : verdict.value(),
                    now));
        }
        if (roundEvent != null) {
            events.add(roundEvent);
        }
        collaborators.provider().recordRound(results, events);
    }

    private static Map<String, Integer> ttls(JsonNode traits) {
        Map<String, Integer> ttls = new HashMap<>();
        if (traits != null && traits.isArray()) {
            for (JsonNode trait : traits) {
                String type = trait.path("traitType").asText("");
                if (!type.isEmpty()) {
                    ttls.put(type, trait.path("ttl").asInt(0));
                }
            }
        }
        return ttls;
    }
}
