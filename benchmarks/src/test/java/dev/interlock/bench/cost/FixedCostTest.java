package dev.interlock.bench.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class FixedCostTest {

    private static final ListPrices PRICES = ListPrices.US_EAST_1;
    /** Two ticks that used, together: 2 invocations, 0.2 GB-s, 10 requests of which 2 WRU, 1,000 log bytes. */
    private static final FixedCost.Tick TICKS = new FixedCost.Tick(new Usage(0, 2, 0.2, 10, 0, 2, 0, 0), 1_000, 2);

    private static JsonNode template(String resources) throws Exception {
        return InterlockJson.json().readTree("{\"Resources\": {" + resources + "}}");
    }

    private static Map<String, Double> quantities(FixedCost cost) {
        return cost.items().stream().collect(Collectors.toMap(FixedCost.Item::what, FixedCost.Item::perMonth));
    }

    @Test
    void alarmsAreBilledPerMetricAndTheWebAclWithEachOfItsRules() throws Exception {
        FixedCost cost = FixedCost.of(
                template("\"A\": {\"Type\": \"AWS::CloudWatch::Alarm\", \"Properties\": {\"MetricName\": \"Errors\"}},"
                        + "\"M\": {\"Type\": \"AWS::CloudWatch::Alarm\", \"Properties\": {\"Metrics\": ["
                        + "{\"Id\": \"a\", \"MetricStat\": {}}, {\"Id\": \"b\", \"MetricStat\": {}},"
                        + "{\"Id\": \"e\", \"Expression\": \"a+b\"}]}},"
                        + "\"W\": {\"Type\": \"AWS::WAFv2::WebACL\", \"Properties\": {\"Rules\": [{}, {}]}},"
                        + "\"T\": {\"Type\": \"AWS::DynamoDB::Table\"}"),
                TICKS,
                PRICES);

        assertThat(quantities(cost))
                .containsEntry("CloudWatch alarm metrics", 3.0)
                .containsEntry("WAF web ACLs", 1.0)
                .containsEntry("WAF rules", 2.0)
                .containsEntry("scheduled invocations: Lambda requests", 0.0);
        assertThat(cost.totalUsd()).isCloseTo(3 * 0.10 + 5.00 + 2 * 1.00, within(1e-9));
        assertThat(cost.perGbMonthUsd()).isCloseTo(0.45, within(1e-9));
    }

    /** The metrics dashboard (infra-cdk MetricsDashboard) is billed by the month, at list price with no free tier. */
    @Test
    void aDashboardIsBilledByTheMonth() throws Exception {
        FixedCost cost = FixedCost.of(
                template("\"D\": {\"Type\": \"AWS::CloudWatch::Dashboard\", \"Properties\": {}}"), TICKS, PRICES);

        assertThat(quantities(cost)).containsEntry("CloudWatch dashboards", 1.0);
        assertThat(cost.totalUsd()).isCloseTo(3.00, within(1e-9));
    }

    @Test
    void aScheduledRuleIsPricedAsTheMeasuredTicksTimesItsFiringsInAMonth() throws Exception {
        FixedCost cost = FixedCost.of(
                template("\"R\": {\"Type\": \"AWS::Events::Rule\", \"Properties\": "
                        + "{\"ScheduleExpression\": \"rate(5 minutes)\", \"Targets\": [{}]}},"
                        + "\"E\": {\"Type\": \"AWS::Events::Rule\", \"Properties\": "
                        + "{\"EventPattern\": {}, \"Targets\": [{}]}}"),
                TICKS,
                PRICES);

        double firings = 730.5 * 12; // 8,766
        assertThat(quantities(cost))
                .containsEntry("scheduled invocations: Lambda requests", firings)
                .containsEntry("scheduled invocations: X-Ray traces", firings);
        assertThat(quantities(cost).get("scheduled invocations: Lambda GB-s")).isCloseTo(firings * 0.1, within(1e-6));
        // 10 requests, 2 write units: the 8 others are counted as one read unit each, though DynamoDB Local said 0.
        assertThat(quantities(cost).get("scheduled invocations: DynamoDB read units"))
                .isCloseTo(firings * 4, within(1e-6));
        assertThat(quantities(cost).get("scheduled invocations: log GB ingested"))
                .isCloseTo(firings * (500 + 400) / 1e9, within(1e-12));
    }

    @Test
    void aResourceTypeNobodyPricedOrAScheduleItCannotReadIsRefused() throws Exception {
        assertThatThrownBy(() -> FixedCost.of(
                        template("\"K\": {\"Type\": \"AWS::KMS::Key\"}, \"N\": {\"Type\": \"AWS::EC2::NatGateway\"}"),
                        TICKS,
                        PRICES))
                .hasMessageContaining("[AWS::EC2::NatGateway, AWS::KMS::Key]");
        assertThatThrownBy(() -> FixedCost.perMonth("cron(0 12 * * ? *)")).hasMessageContaining("cron(0 12");
        assertThat(FixedCost.perMonth("rate(1 hour)")).isCloseTo(730.5, within(1e-9));
        assertThat(FixedCost.perMonth("rate(1 day)")).isCloseTo(730.5 / 24, within(1e-9));
    }
}
