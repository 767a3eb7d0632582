package dev.interlock.model.trait;

import static dev.interlock.model.trait.ReadinessTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.rollup.RollupTally;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A rollup trait in the readiness decision: one with {@code minCount} of its periods in but not all does from the
 * rule's {@code proceedAt} on (at once without one), as a degraded start naming the missing periods.
 */
class RollupReadinessTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 10);
    private static final ScheduleWindow WINDOW = new ScheduleWindow(
            "daily", DATE, ZoneId.of("UTC"), Instant.parse("2026-03-10T00:00:00Z"), null, null, null);
    private static final Instant BEFORE = Instant.parse("2026-03-10T05:59:59Z");
    private static final Instant AT = Instant.parse("2026-03-10T06:00:00Z");

    private static final String UPSTREAM = "upstream-dependency";
    private static final String MISSING_0500 = "upstream-dependency (1 of 24 missing: hourly.0500)";

    private static TraitVerdict rollup(TraitStatus status, int in, List<String> missing, int needed) {
        RollupTally tally = new RollupTally(24, in, missing, needed);
        return new TraitVerdict(
                UPSTREAM,
                status,
                Map.of("upstreamPipeline", "up", RollupTally.VALUE_KEY, tally.toValue()),
                "upstream up windows for 2026-03-10: " + tally.summary(),
                null,
                true);
    }

    /** 23 of 24 in, 20 will do. */
    private static final TraitVerdict ENOUGH = rollup(TraitStatus.FAIL, 23, List.of("hourly.0500"), 20);
    /** 19 of 24 in, 20 needed. */
    private static final TraitVerdict SHORT = rollup(
            TraitStatus.FAIL,
            19,
            List.of("hourly.0100", "hourly.0200", "hourly.0300", "hourly.0400", "hourly.0500"),
            20);

    private static List<TraitVerdict> with(TraitVerdict upstream) {
        return List.of(result("source", "PASS", true), upstream, result("rows", "PASS", true));
    }

    private static ReadinessRule fallback(String proceedAt, String... essential) {
        return new ReadinessRule(ReadinessRuleType.ALL_REQUIRED_PASS, List.of(), null, proceedAt, List.of(essential));
    }

    @Test
    void withoutProceedAtEnoughPeriodsDoAtOnceAsADegradedStartNamingTheMissingOnes() {
        ReadinessDecision decision = Readiness.decide(with(ENOUGH), ReadinessRule.ALL_REQUIRED_PASS, WINDOW, BEFORE);

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceeds()).isTrue();
        assertThat(decision.proceedAt()).isNull();
        assertThat(decision.proceededWithout()).containsExactly(MISSING_0500);
        assertThat(decision.essentialMissing()).isEmpty();
        assertThat(decision.readiness().blocking()).isEmpty();
    }

    @Test
    void beforeProceedAtEnoughPeriodsWaitForTheRest() {
        ReadinessDecision decision = Readiness.decide(with(ENOUGH), fallback("06:00", "source"), WINDOW, BEFORE);

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(decision.proceedAt()).isEqualTo(AT);
        assertThat(decision.proceededWithout()).isEmpty();
        assertThat(decision.readiness().blocking()).containsExactly(UPSTREAM);
    }

    @Test
    void fromProceedAtEnoughPeriodsCountAsPassedEvenForAnEssentialRollup() {
        ReadinessDecision decision = Readiness.decide(with(ENOUGH), fallback("06:00", UPSTREAM), WINDOW, AT);

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceedAt()).isEqualTo(AT);
        assertThat(decision.proceededWithout()).containsExactly(MISSING_0500);
        assertThat(decision.essentialMissing()).isEmpty();
    }

    @Test
    void pastProceedAtTheRollupIsNamedBesideTheOtherTraitsTheDayWentWithout() {
        List<TraitVerdict> results = List.of(result("source", "PASS", true), ENOUGH, result("quality", "FAIL", true));

        ReadinessDecision decision = Readiness.decide(results, fallback("06:00", "source"), WINDOW, AT);

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceededWithout()).containsExactly("quality", MISSING_0500);
    }

    @Test
    void tooFewPeriodsNeverDoEvenPastProceedAtWhenTheRollupIsEssential() {
        ReadinessDecision late = Readiness.decide(
                with(SHORT), fallback("06:00", UPSTREAM), WINDOW, Instant.parse("2026-03-10T23:00:00Z"));
        ReadinessDecision withoutFallback = Readiness.decide(with(SHORT), ReadinessRule.ALL_REQUIRED_PASS, WINDOW, AT);

        assertThat(late.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(late.essentialMissing()).containsExactly(UPSTREAM);
        assertThat(late.readiness().blocking()).containsExactly(UPSTREAM);
        assertThat(late.proceededWithout()).isEmpty();
        assertThat(withoutFallback.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
    }

    @Test
    void tooFewPeriodsOfANonEssentialRollupAreMissingAsAWholePastProceedAt() {
        ReadinessDecision decision = Readiness.decide(with(SHORT), fallback("06:00", "source"), WINDOW, AT);

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceededWithout()).containsExactly(UPSTREAM);
    }

    @Test
    void aCompleteRollupIsReady() {
        TraitVerdict complete = rollup(TraitStatus.PASS, 24, List.of(), 20);

        assertThat(Readiness.decide(with(complete), ReadinessRule.ALL_REQUIRED_PASS, WINDOW, BEFORE))
                .satisfies(d -> {
                    assertThat(d.outcome()).isEqualTo(ReadinessDecision.Outcome.READY);
                    assertThat(d.proceededWithout()).isEmpty();
                });
        assertThat(Readiness.decide(with(complete), fallback("06:00", UPSTREAM), WINDOW, BEFORE)
                        .outcome())
                .isEqualTo(ReadinessDecision.Outcome.READY);
    }

    @Test
    void aRoundReadyWithoutAnOptionalRollupIsReadyWhateverItsTally() {
        // An optional rollup never holds the day back: 23 of its 24 hours in must not turn READY into a degraded
        // start (with an on-call alert) when none of them in leaves the round READY.
        TraitVerdict optionalEnough =
                new TraitVerdict(UPSTREAM, TraitStatus.FAIL, ENOUGH.value(), ENOUGH.reason(), null, false);
        TraitVerdict optionalNone = new TraitVerdict(
                UPSTREAM,
                TraitStatus.FAIL,
                Map.of(RollupTally.VALUE_KEY, new RollupTally(24, 0, List.of("hourly.0000"), 20).toValue()),
                null,
                null,
                false);

        ReadinessDecision enough =
                Readiness.decide(with(optionalEnough), ReadinessRule.ALL_REQUIRED_PASS, WINDOW, BEFORE);
        ReadinessDecision none = Readiness.decide(with(optionalNone), ReadinessRule.ALL_REQUIRED_PASS, WINDOW, BEFORE);

        assertThat(none.outcome()).isEqualTo(ReadinessDecision.Outcome.READY);
        assertThat(enough.outcome()).isEqualTo(ReadinessDecision.Outcome.READY);
        assertThat(enough.proceededWithout()).isEmpty();
    }

    @Test
    void aPoolMadeUpWithoutTheRollupIsReadyAndOneMadeUpWithItProceedsDegraded() {
        ReadinessRule twoOfThree =
                new ReadinessRule(ReadinessRuleType.AT_LEAST, List.of("a", "b", UPSTREAM), 2, null, List.of());
        TraitVerdict pooled = new TraitVerdict(UPSTREAM, TraitStatus.FAIL, ENOUGH.value(), null, null, false);

        ReadinessDecision without = Readiness.decide(
                List.of(result("a", "PASS", false), result("b", "PASS", false), pooled), twoOfThree, WINDOW, BEFORE);
        ReadinessDecision with = Readiness.decide(
                List.of(result("a", "PASS", false), result("b", "FAIL", false), pooled), twoOfThree, WINDOW, BEFORE);

        assertThat(without.outcome()).isEqualTo(ReadinessDecision.Outcome.READY);
        assertThat(without.proceededWithout()).isEmpty();
        assertThat(with.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(with.proceededWithout()).containsExactly(MISSING_0500);
    }

    @Test
    void onlyAFailingRollupWithEnoughPeriodsIsPartial() {
        assertThat(Readiness.partialRollup(ENOUGH)).isTrue();
        assertThat(Readiness.partialRollup(SHORT)).isFalse();
        assertThat(Readiness.partialRollup(rollup(TraitStatus.ERROR, 23, List.of("hourly.0500"), 20)))
                .as("an error is for an operator, whatever the tally")
                .isFalse();
        assertThat(Readiness.partialRollup(rollup(TraitStatus.PASS, 24, List.of(), 20)))
                .isFalse();
        assertThat(Readiness.partialRollup(result(UPSTREAM, "FAIL", true))).isFalse();
    }
}
