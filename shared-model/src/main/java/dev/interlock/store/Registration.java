package dev.interlock.store;

import dev.interlock.model.json.Frozen;
import dev.interlock.model.json.ValidationError;
import java.util.List;

/**
 * What a checked registration (or deletion) of a pipeline, archetype or calendar did. The refusals write nothing: the
 * check ran against the documents as they were when the write would have landed, and a concurrent change to them made
 * the store read and check again instead of writing.
 */
public sealed interface Registration {

    /** Whether the store changed. */
    default boolean wrote() {
        return this instanceof Written || this instanceof Deleted;
    }

    /** Stored; {@code created} when nothing of that name was registered before. */
    record Written(boolean created) implements Registration {}

    /** Deleted. */
    record Deleted() implements Registration {}

    /** There was nothing of that name to delete. */
    record NotFound() implements Registration {}

    /** The document itself is wrong against what it refers to (e.g. a calendar that is not registered). */
    record Refused(List<ValidationError> problems) implements Registration {
        public Refused {
            problems = Frozen.list(problems);
        }
    }

    /** The change would break pipelines that use the document; each is listed with why. */
    record Blocked(List<BrokenPipeline> dependants) implements Registration {
        public Blocked {
            dependants = Frozen.list(dependants);
        }
    }

    /** A pipeline a change would break, and its problems under the change (paths into the pipeline's document). */
    record BrokenPipeline(String pipelineId, List<ValidationError> errors) {
        public BrokenPipeline {
            errors = Frozen.list(errors);
        }
    }
}
