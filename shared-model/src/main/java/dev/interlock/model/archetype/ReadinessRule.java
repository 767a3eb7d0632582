package dev.interlock.model.archetype;

/** How an archetype combines trait results into readiness. */
public record ReadinessRule(ReadinessRuleType type) {

    /** Every required trait must pass; optional traits never block. */
    public static final ReadinessRule ALL_REQUIRED_PASS = new ReadinessRule(ReadinessRuleType.ALL_REQUIRED_PASS);
}
