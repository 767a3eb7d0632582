package dev.interlock.store;

import dev.interlock.model.pause.Pause;
import java.util.List;
import java.util.Optional;

/** Paused pipelines ({@link Pause}): at most one pause per pipeline. */
public interface PauseStore {

    /** Pauses a pipeline unless it is paused already; false (and nothing written) when it is. */
    boolean put(Pause pause);

    /** The pause of a pipeline, or empty when it runs. */
    Optional<Pause> get(String pipelineId);

    /** Resumes a pipeline: the removed pause, or empty when it was not paused. */
    Optional<Pause> delete(String pipelineId);

    /** Every paused pipeline's pause, by pipeline id. */
    List<Pause> list();
}
