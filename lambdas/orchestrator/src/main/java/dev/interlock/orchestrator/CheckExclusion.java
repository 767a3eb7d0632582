package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ExclusionRule;
import java.util.Map;
import java.util.Optional;

/** {@code checkExclusion}: is the execution date excluded (calendar, weekday, date)? Judged on the date, not the clock. */
public final class CheckExclusion implements Action {

    /**
     * Always-present payload.
     *
     * @param archetype the archetype the pipeline names ({@code ""} when unknown): {@code resolvePipeline} reads it
     *                  with the pipeline in one request
     */
    public record Payload(boolean excluded, String archetype) {}

    private final Collaborators collaborators;

    public CheckExclusion(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        String archetype =
                pipeline.get().archetype() == null ? "" : pipeline.get().archetype();
        Optional<String> reason;
        try {
            reason = ExclusionRule.reason(collaborators.provider().calendars()::get, pipeline.get(), request.date());
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        if (reason.isEmpty()) {
            return Outcome.proceed(new Payload(false, archetype));
        }
        collaborators.record(request, EventKind.EXCLUDED, "EXCLUDED", reason.get(), Map.of());
        return Outcome.skip("excluded day (" + reason.get() + ")", new Payload(true, archetype));
    }

    @Override
    public Payload errorPayload() {
        return new Payload(false, "");
    }
}
