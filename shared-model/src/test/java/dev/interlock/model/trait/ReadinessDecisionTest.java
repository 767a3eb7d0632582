package dev.interlock.model.trait;

import static dev.interlock.model.trait.ReadinessTest.result;
import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The readiness rule's deadline fallback: {@code proceedAt} with its {@code essential} traits. */
class ReadinessDecisionTest {

    private static final LocalDate DATE = LocalDate.of(2026, 3, 10);
    private static final ZoneId ZONE = ZoneId.of("Europe/Berlin");
    /** The window opens at 02:00 local (01:00Z). */
    private static final ScheduleWindow WINDOW =
            new ScheduleWindow("daily", DATE, ZONE, Instant.parse("2026-03-10T01:00:00Z"), null, null, null);

    private static ReadinessRule fallback(String proceedAt, String... essential) {
        return new ReadinessRule(ReadinessRuleType.ALL_REQUIRED_PASS, List.of(), null, proceedAt, List.of(essential));
    }

    private static final List<TraitVerdict> ESSENTIAL_PASSES_OTHER_FAILS =
            List.of(result("source", "PASS", true), result("quality", "FAIL", true), result("rows", "PASS", true));

    @Test
    void beforeProceedAtADayMissingATraitWaits() {
        ReadinessDecision decision = Readiness.decide(
                ESSENTIAL_PASSES_OTHER_FAILS,
                fallback("06:30", "source"),
                WINDOW,
                Instant.parse("2026-03-10T05:29:59Z"));

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(decision.proceeds()).isFalse();
        assertThat(decision.proceedAt()).as("06:30 Berlin").isEqualTo(Instant.parse("2026-03-10T05:30:00Z"));
        assertThat(decision.proceededWithout()).isEmpty();
        assertThat(decision.readiness().blocking()).containsExactly("quality");
    }

    @Test
    void atProceedAtADayWhoseEssentialTraitsPassedProceedsWithoutTheOthers() {
        ReadinessDecision decision = Readiness.decide(
                ESSENTIAL_PASSES_OTHER_FAILS,
                fallback("06:30", "source"),
                WINDOW,
                Instant.parse("2026-03-10T05:30:00Z"));

        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceeds()).isTrue();
        assertThat(decision.proceededWithout()).containsExactly("quality");
        assertThat(decision.essentialMissing()).isEmpty();
    }

    @Test
    void aSpanCountsFromTheWindowOpening() {
        ReadinessRule rule = fallback("+6h", "source");
        assertThat(Readiness.proceedAt(rule, WINDOW)).isEqualTo(Instant.parse("2026-03-10T07:00:00Z"));
        assertThat(Readiness.decide(ESSENTIAL_PASSES_OTHER_FAILS, rule, WINDOW, Instant.parse("2026-03-10T06:59:00Z"))
                        .outcome())
                .isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(Readiness.decide(ESSENTIAL_PASSES_OTHER_FAILS, rule, WINDOW, Instant.parse("2026-03-10T07:00:00Z"))
                        .outcome())
                .isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
    }

    @Test
    void pastProceedAtADayWhoseEssentialTraitFailedOrWasNotJudgedKeepsWaiting() {
        Instant late = Instant.parse("2026-03-10T12:00:00Z");
        ReadinessDecision failed = Readiness.decide(
                List.of(result("source", "ERROR", true), result("quality", "FAIL", true)),
                fallback("06:30", "source"),
                WINDOW,
                late);
        assertThat(failed.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(failed.essentialMissing()).containsExactly("source");

        ReadinessDecision unjudged =
                Readiness.decide(List.of(result("quality", "FAIL", true)), fallback("06:30", "source"), WINDOW, late);
        assertThat(unjudged.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(unjudged.essentialMissing()).containsExactly("source");
    }

    @Test
    void aReadyRoundIsReadyWithOrWithoutAFallback() {
        List<TraitVerdict> allPass = List.of(result("source", "PASS", true), result("quality", "PASS", true));
        Instant early = Instant.parse("2026-03-10T02:00:00Z");
        assertThat(Readiness.decide(allPass, fallback("06:30", "source"), WINDOW, early)
                        .outcome())
                .isEqualTo(ReadinessDecision.Outcome.READY);
        assertThat(Readiness.decide(allPass, ReadinessRule.ALL_REQUIRED_PASS, WINDOW, early)
                        .outcome())
                .isEqualTo(ReadinessDecision.Outcome.READY);
    }

    @Test
    void withoutAFallbackADayNeverProceedsDegraded() {
        ReadinessDecision decision = Readiness.decide(
                ESSENTIAL_PASSES_OTHER_FAILS,
                ReadinessRule.ALL_REQUIRED_PASS,
                WINDOW,
                Instant.parse("2026-03-11T23:00:00Z"));
        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.NOT_READY);
        assertThat(decision.proceedAt()).isNull();
    }

    @Test
    void aShortPoolIsMissingAsAWholePastProceedAtWhenTheEssentialTraitsPassed() {
        ReadinessRule twoOfThree =
                new ReadinessRule(ReadinessRuleType.AT_LEAST, List.of("a", "b", "c"), 2, "06:30", List.of("source"));
        ReadinessDecision decision = Readiness.decide(
                List.of(
                        result("source", "PASS", true),
                        result("a", "PASS", false),
                        result("b", "FAIL", false),
                        result("c", "FAIL", false)),
                twoOfThree,
                WINDOW,
                Instant.parse("2026-03-10T06:00:00Z"));
        assertThat(decision.outcome()).isEqualTo(ReadinessDecision.Outcome.PROCEED_DEGRADED);
        assertThat(decision.proceededWithout()).containsExactly("b", "c");
    }
}
