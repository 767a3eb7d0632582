package dev.interlock.model.rollup;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** How many of a rollup's periods are in, in the words status, why and a degraded start use. */
class RollupTallyTest {

    private static final RollupConfig EVERY = new RollupConfig(null, null);
    private static final RollupConfig TWENTY = new RollupConfig(20, null);

    private static final List<String> HOURS =
            IntStream.range(0, 24).mapToObj(h -> "hourly.%02d00".formatted(h)).toList();

    private static List<String> hoursBut(int... missing) {
        return HOURS.stream()
                .filter(h -> IntStream.of(missing).noneMatch(m -> h.equals("hourly.%02d00".formatted(m))))
                .toList();
    }

    @Test
    void countsThePeriodsInAndNamesTheMissingOnesInPeriodOrder() {
        RollupTally tally = RollupTally.count(HOURS, hoursBut(17, 5), EVERY);

        assertThat(tally.periods()).isEqualTo(24);
        assertThat(tally.in()).isEqualTo(22);
        assertThat(tally.missing()).containsExactly("hourly.0500", "hourly.1700");
        assertThat(tally.needed()).isEqualTo(24);
    }

    @Test
    void arrivalsThatAreNoPeriodOfTheDayDoNotCount() {
        RollupTally tally = RollupTally.count(List.of("h00", "h01"), List.of("h00", "h02", "daily"), EVERY);

        assertThat(tally.in()).isEqualTo(1);
        assertThat(tally.missing()).containsExactly("h01");
    }

    @Test
    void completeOnlyWithEveryPeriodEnoughWithMinCount() {
        RollupTally all = RollupTally.count(HOURS, HOURS, EVERY);
        RollupTally oneShort = RollupTally.count(HOURS, hoursBut(5), EVERY);
        RollupTally twentyOfTwenty = RollupTally.count(HOURS, hoursBut(0, 1, 2, 3), TWENTY);
        RollupTally nineteen = RollupTally.count(HOURS, hoursBut(0, 1, 2, 3, 4), TWENTY);

        assertThat(all.complete()).isTrue();
        assertThat(all.enough()).isTrue();
        assertThat(oneShort.complete()).isFalse();
        assertThat(oneShort.enough())
                .as("without minCount every period is needed")
                .isFalse();
        assertThat(twentyOfTwenty.complete()).isFalse();
        assertThat(twentyOfTwenty.enough()).isTrue();
        assertThat(nineteen.enough()).isFalse();
    }

    @Test
    void aDayWithoutPeriodsIsNeitherCompleteNorEnough() {
        RollupTally none = RollupTally.count(List.of(), List.of(), EVERY);

        assertThat(none.complete()).isFalse();
        assertThat(none.enough()).isFalse();
        assertThat(none.summary()).isEqualTo("no period on this date");
    }

    @Test
    void theSummarySaysHowManyAreInAndWhichAreMissing() {
        assertThat(RollupTally.count(HOURS, hoursBut(5), EVERY).summary())
                .isEqualTo("23 of 24 in; missing hourly.0500");
        assertThat(RollupTally.count(HOURS, HOURS, EVERY).summary()).isEqualTo("24 of 24 in");
        assertThat(RollupTally.count(HOURS, hoursBut(5, 6), EVERY).summary())
                .isEqualTo("22 of 24 in; missing hourly.0500, hourly.0600");
    }

    @Test
    void theSummarySaysHowManyWillDoWhenMinCountIsBelowThePeriods() {
        assertThat(RollupTally.count(HOURS, hoursBut(5), TWENTY).summary())
                .isEqualTo("23 of 24 in; missing hourly.0500 (20 will do)");
        assertThat(RollupTally.count(HOURS, HOURS, TWENTY).summary()).isEqualTo("24 of 24 in (20 will do)");
        assertThat(RollupTally.count(HOURS.subList(0, 12), List.of(), TWENTY).summary())
                .as("minCount above the day's periods: every one is needed")
                .isEqualTo("0 of 12 in; missing " + String.join(", ", HOURS.subList(0, 12)));
    }

    @Test
    void moreThanFortyEightMissingAreNamedUpToFortyEightAndCounted() {
        List<String> minutes = IntStream.range(0, 60)
                .mapToObj(m -> "minutely.00%02d".formatted(m))
                .toList();

        RollupTally tally = RollupTally.count(minutes, List.of("minutely.0000"), EVERY);

        assertThat(tally.missing()).hasSize(RollupTally.MISSING_SHOWN).startsWith("minutely.0001");
        assertThat(tally.missing().getLast()).isEqualTo("minutely.0048");
        assertThat(tally.summary())
                .startsWith("1 of 60 in; missing minutely.0001, minutely.0002")
                .endsWith("minutely.0048 and 11 more");
    }

    @Test
    void exactlyFortyEightMissingAreAllNamedWithNothingMore() {
        List<String> periods = IntStream.range(0, 48).mapToObj(i -> "p" + i).toList();

        assertThat(RollupTally.count(periods, List.of(), EVERY).summary())
                .endsWith("p47")
                .doesNotContain("more");
    }

    @Test
    void theValueCarriesTheTallyAndReadsBack() {
        RollupTally tally = RollupTally.count(HOURS, hoursBut(5), TWENTY);

        Map<String, Object> value = Map.of("upstreamPipeline", "up", RollupTally.VALUE_KEY, tally.toValue());

        assertThat(tally.toValue())
                .containsExactly(
                        Map.entry("periods", 24),
                        Map.entry("in", 23),
                        Map.entry("missing", List.of("hourly.0500")),
                        Map.entry("needed", 20),
                        Map.entry("enough", true));
        assertThat(RollupTally.fromValue(value)).contains(tally);
        // As the verdict travels: through JSON and back.
        @SuppressWarnings("unchecked")
        Map<String, Object> travelled = InterlockJson.read(InterlockJson.write(value), Map.class);
        assertThat(RollupTally.fromValue(travelled)).contains(tally);
    }

    @Test
    void aValueThatIsNotARollupsHasNoTally() {
        assertThat(RollupTally.fromValue(null)).isEmpty();
        assertThat(RollupTally.fromValue(Map.of())).isEmpty();
        assertThat(RollupTally.fromValue(Map.of("upstreamRunId", "run-7"))).isEmpty();
        assertThat(RollupTally.fromValue(Map.of("rollup", true))).isEmpty();
        assertThat(RollupTally.fromValue(Map.of("rollup", Map.of("periods", 24, "in", 23))))
                .as("no needed")
                .isEmpty();
        assertThat(RollupTally.fromValue(Map.of("rollup", Map.of("periods", "24", "in", 23, "needed", 24))))
                .isEmpty();
    }

    @Test
    void withoutNamesTheTraitAndItsMissingPeriods() {
        assertThat(RollupTally.count(HOURS, hoursBut(5), TWENTY).without("upstream-dependency"))
                .isEqualTo("upstream-dependency (1 of 24 missing: hourly.0500)");
        assertThat(RollupTally.count(HOURS, hoursBut(5, 9), TWENTY).without("upstream-dependency"))
                .isEqualTo("upstream-dependency (2 of 24 missing: hourly.0500, hourly.0900)");
        assertThat(new RollupTally(24, 22, List.of(), 20).without("landed")).isEqualTo("landed (2 of 24 missing)");
    }
}
