package dev.interlock.store;

import dev.interlock.model.trait.TraitResult;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/** Trait results keyed by (pipeline, date, schedule, trait); a result past its expiry reads as absent. */
public interface TraitStore {

    /**
     * Stores (replaces) a result. It expires at {@link TraitResult#expiresAt()}; null keeps it until the pipeline's
     * partition is cleaned up.
     */
    void put(TraitResult result);

    /** The unexpired result of one trait. */
    Optional<TraitResult> get(String pipelineId, LocalDate date, String scheduleId, String traitType);

    /** The unexpired results of one (pipeline, date, schedule), by trait type. */
    List<TraitResult> list(String pipelineId, LocalDate date, String scheduleId);

    /**
     * The unexpired results of every schedule of one pipeline day, by schedule id then trait type: one Query on
     * DynamoDB, where {@link #list} per schedule costs a request each.
     */
    List<TraitResult> ofDay(String pipelineId, LocalDate date);

    /** The unexpired results of a pipeline, newest date first (the API's traits listing). */
    Page<TraitResult> listByPipeline(String pipelineId, PageRequest page);
}
