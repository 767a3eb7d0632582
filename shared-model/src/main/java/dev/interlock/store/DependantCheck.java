package dev.interlock.store;

import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.List;

/**
 * How a change to an archetype or calendar is judged: the problems one pipeline that uses the document would have
 * under the change (empty: it stays valid). The store runs it on every pipeline its index lists as a user.
 */
@FunctionalInterface
public interface DependantCheck {

    /** Accepts every change (seeding, tests). */
    DependantCheck NONE = dependant -> List.of();

    List<ValidationError> problems(PipelineConfig dependant);
}
