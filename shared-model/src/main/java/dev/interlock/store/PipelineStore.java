package dev.interlock.store;

import dev.interlock.model.pipeline.PipelineConfig;

import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * Registered pipeline configs; registering also maintains the downstream index of the cascade and the pipeline's
 * watchdog watch with its due entry ({@link WatchdogIndex}).
 */
public interface PipelineStore {

    /**
     * Registers or replaces a pipeline and, in the same transaction, makes the downstream index agree with its
     * upstreams ({@link PipelineConfig#upstreamPipelines()}): entries for new upstreams are added, entries for upstreams
     * it no longer names are removed. In the same transaction the pipeline's watch is (re)written as
     * {@code WatchPlan.registered} says for the store's current time, and its due entry moved with it, so a new
     * pipeline or schedule is watched forward from this moment. Returns true when the pipeline did not exist before.
     */
    boolean put(PipelineConfig config);

    /** The pipeline named {@code pipelineId}. */
    Optional<PipelineConfig> get(String pipelineId);

    /**
     * The pipelines with these ids that exist, keyed by id (one BatchGetItem round per 100 ids on DynamoDB): the
     * cascade reads its downstreams' configs this way.
     */
    Map<String, PipelineConfig> getAll(Collection<String> pipelineIds);

    /**
     * Deletes the pipeline, its entries in its upstreams' downstream index, and its watch and due entry; false when it
     * did not exist.
     */
    boolean delete(String pipelineId);

    /** Pipelines in name order. */
    Page<PipelineConfig> list(PageRequest page);
}
