package dev.interlock.store;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.calendar.Calendar;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Registered pipeline configs; registering also maintains the indexes from what a pipeline names to the pipeline: the
 * downstream index of the cascade, and the users of each archetype, calendar and sensor; and the pipeline's watchdog
 * watch with its due entry ({@link WatchdogIndex}).
 */
public interface PipelineStore {

    /**
     * Registers or replaces a pipeline if {@code check} finds no problem with it against the registered archetype and
     * calendar it names, as they are when the write lands: the write is conditioned on their revisions, so a concurrent
     * change to either makes the store read and check again (and an archetype or calendar change racing this one sees
     * this pipeline among its users). In the same transaction the indexes agree with the new config: the downstream
     * index with its upstreams ({@link PipelineConfig#upstreamPipelines()}), the archetype and calendar users, and the
     * sensors its trait configs name; and the pipeline's watch is (re)written as {@code WatchPlan.registered} says for
     * the store's current time, its due entry moved with it, so a new pipeline or schedule is watched forward from
     * this moment.
     *
     * @return {@link Registration.Written} (created when the pipeline did not exist), or {@link Registration.Refused}
     *         with the check's problems, after which nothing was written
     */
    Registration register(PipelineConfig config, ReferenceCheck check);

    /** Registers without a reference check (seeding, tests); the indexes are maintained all the same. True when new. */
    default boolean put(PipelineConfig config) {
        return register(config, ReferenceCheck.NONE) instanceof Registration.Written written && written.created();
    }

    /** The pipeline named {@code pipelineId}. */
    Optional<PipelineConfig> get(String pipelineId);

    /**
     * The pipelines with these ids that exist, keyed by id (one BatchGetItem round per 100 ids on DynamoDB): the
     * cascade reads its downstreams' configs this way.
     */
    Map<String, PipelineConfig> getAll(Collection<String> pipelineIds);

    /** Deletes the pipeline, its entries in every index, and its watch and due entry; false when it did not exist. */
    boolean delete(String pipelineId);

    /** Pipelines in name order. */
    Page<PipelineConfig> list(PageRequest page);

    /**
     * The pipelines whose config names {@code reference} (as archetype, exclusion calendar, or sensor in one of its own
     * trait configs), in name order, from the index registration maintains: one Query, no scan.
     */
    List<String> dependants(Reference reference);

    /**
     * The registered documents a pipeline names, as read for its check: {@code archetype} is the registered archetype
     * of that name (null when none is registered: the bundled one, if any, applies), {@code calendar} the registered
     * calendar (null when none is, or the pipeline names none).
     */
    record Referenced(Archetype archetype, Calendar calendar) {}

    /** The problems of a pipeline against the documents it names; empty when it may be registered. */
    @FunctionalInterface
    interface ReferenceCheck {

        /** Accepts any pipeline (seeding, tests). */
        ReferenceCheck NONE = (config, referenced) -> List.of();

        List<ValidationError> problems(PipelineConfig config, Referenced referenced);
    }
}
