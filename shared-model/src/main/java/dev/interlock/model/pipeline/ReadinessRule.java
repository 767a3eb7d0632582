package dev.interlock.model.pipeline;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.json.Frozen;
import java.util.List;

/**
 * How trait results combine into readiness. An archetype's rule is always {@code all-required-pass}; a pipeline may
 * set {@code any} or {@code at-least} over a list of its traits (the rule's pool): the pool is satisfied when
 * {@link #needed()} of them pass, its traits never block one by one, and every required trait outside the pool must
 * still pass. {@code count} belongs to {@code at-least} only. Any rule may carry a deadline fallback: once
 * {@code proceedAt} has passed, a round in which every {@code essential} trait passed proceeds without the others (the
 * decision is {@code dev.interlock.model.trait.Readiness#decide}).
 *
 * @param traits    the pool (empty for all-required-pass)
 * @param count     how many of the pool must pass ({@code at-least}); null otherwise
 * @param proceedAt when the day may proceed without its non-essential traits: {@code HH:MM} in the schedule's zone or
 *                  a span from the window opening ({@code +6h}), as schedule deadlines are written; null: never
 * @param essential the traits that must still pass to proceed past {@code proceedAt} (empty without a fallback)
 */
public record ReadinessRule(
        ReadinessRuleType type,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> traits,
        @JsonInclude(JsonInclude.Include.NON_NULL) Integer count,
        @JsonInclude(JsonInclude.Include.NON_NULL) String proceedAt,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> essential) {

    /** Every required trait must pass; optional traits never block. */
    public static final ReadinessRule ALL_REQUIRED_PASS = new ReadinessRule(ReadinessRuleType.ALL_REQUIRED_PASS);

    public ReadinessRule {
        traits = Frozen.list(traits);
        essential = Frozen.list(essential);
    }

    /** A rule without a deadline fallback. */
    public ReadinessRule(ReadinessRuleType type, List<String> traits, Integer count) {
        this(type, traits, count, null, List.of());
    }

    /** A rule without a pool. */
    public ReadinessRule(ReadinessRuleType type) {
        this(type, List.of(), null);
    }

    /** Whether the rule lets a day proceed without its non-essential traits once {@code proceedAt} has passed. */
    public boolean hasFallback() {
        return proceedAt != null && !proceedAt.isBlank() && !essential.isEmpty();
    }

    /** Whether {@code traitType} is in the pool: judged with the others there, never blocking alone. */
    public boolean pools(String traitType) {
        return type != ReadinessRuleType.ALL_REQUIRED_PASS && traits.contains(traitType);
    }

    /** How many of the pool must pass: 1 for {@code any}, {@code count} for {@code at-least}, 0 without a pool. */
    public int needed() {
        return switch (type == null ? ReadinessRuleType.ALL_REQUIRED_PASS : type) {
            case ALL_REQUIRED_PASS -> 0;
            case ANY -> 1;
            case AT_LEAST -> count == null ? traits.size() : count;
        };
    }

    /** The rule in a status line's words, e.g. {@code at least 2 of [a, b, c]}. */
    public String describe() {
        return switch (type == null ? ReadinessRuleType.ALL_REQUIRED_PASS : type) {
            case ALL_REQUIRED_PASS -> "every required trait";
            case ANY -> "any of " + traits;
            case AT_LEAST -> "at least " + needed() + " of " + traits;
        };
    }
}
