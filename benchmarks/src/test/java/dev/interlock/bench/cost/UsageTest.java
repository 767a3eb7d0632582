package dev.interlock.bench.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class UsageTest {

    private static final ListPrices PRICES = ListPrices.US_EAST_1;

    @Test
    void eachDimensionIsPricedAtItsListPrice() {
        Usage.Cost cost =
                new Usage(1_000, 1_000_000, 1_000, 0, 1_000_000, 1_000_000, 1_000_000, 1_000_000).cost(PRICES);

        assertThat(cost.stepFunctions()).isCloseTo(0.025, within(1e-12));
        assertThat(cost.lambda()).isCloseTo(0.20 + 1_000 * 0.0000133334, within(1e-12));
        assertThat(cost.dynamoDb()).isCloseTo(0.125 + 0.625, within(1e-12));
        assertThat(cost.sns()).isCloseTo(0.50, within(1e-12));
        assertThat(cost.apiGateway()).isCloseTo(3.50, within(1e-12));
        assertThat(cost.total()).isCloseTo(0.025 + 0.20 + 0.0133334 + 0.75 + 0.50 + 3.50, within(1e-9));
    }

    @Test
    void requestCountsAreNotBilledOnlyUnitsAre() {
        Usage onlyRequests = new Usage(0, 0, 0, 100, 0, 0, 0, 0);

        assertThat(onlyRequests.cost(PRICES).total()).isZero();
    }

    @Test
    void perThousandPipelineDaysSharesARunAmongItsPipelines() {
        Usage cascade = new Usage(3_000, 0, 0, 0, 0, 0, 0, 0);

        assertThat(cascade.perThousandPipelineDays(PRICES, 1)).isCloseTo(75.0, within(1e-9));
        assertThat(cascade.perThousandPipelineDays(PRICES, 3)).isCloseTo(25.0, within(1e-9));
        assertThatThrownBy(() -> cascade.perThousandPipelineDays(PRICES, 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least one pipeline");
    }

    @Test
    void durationIsBilledPerMillisecondRoundedUpTimesMemory() {
        assertThat(Usage.billedMillis(1)).isEqualTo(1);
        assertThat(Usage.billedMillis(1_000_000)).isEqualTo(1);
        assertThat(Usage.billedMillis(1_000_001)).isEqualTo(2);
        assertThat(Usage.gbSeconds(1, 1024)).isCloseTo(0.001, within(1e-12));
        assertThat(Usage.gbSeconds(250, 512)).isCloseTo(0.125, within(1e-12));
    }
}
