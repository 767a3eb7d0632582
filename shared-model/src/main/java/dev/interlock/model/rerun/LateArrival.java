package dev.interlock.model.rerun;

import dev.interlock.model.trait.TraitStatus;
import java.time.Instant;
import java.time.LocalDate;

/**
 * Drift seen while monitoring a completed run: a trait whose status or drift field changed after the trigger.
 * {@code recordDelta} is how far {@code driftField} moved (0 for a pure status change).
 */
public record LateArrival(
        String pipelineId,
        LocalDate date,
        String scheduleId,
        String traitType,
        String runId,
        TraitStatus previousStatus,
        TraitStatus currentStatus,
        double recordDelta,
        Instant detectedAt) {}
