package dev.interlock.model.pipeline;

/**
 * Post-completion re-evaluation: for {@code duration} after completion, traits are re-evaluated and a change
 * (status, or {@code driftField} moving by more than {@code driftThreshold}) is drift.
 */
public record MonitoringConfig(boolean enabled, String duration, String driftField, Double driftThreshold) {

    /** Monitoring switched off. */
    public static final MonitoringConfig DISABLED = new MonitoringConfig(false, null, null, null);
}
