package dev.interlock.model.pipeline;

/**
 * Post-completion re-evaluation: for {@code duration} after completion, traits are re-evaluated, and newer or more
 * complete data (a trait turning PASS, or {@code driftField} of a result's value moving by more than
 * {@code driftThreshold}) is drift (the rule: {@code dev.interlock.model.rerun.Drift}).
 */
public record MonitoringConfig(boolean enabled, String duration, String driftField, Double driftThreshold) {

    /** Monitoring switched off. */
    public static final MonitoringConfig DISABLED = new MonitoringConfig(false, null, null, null);
}
