package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.log.Metric;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awscdk.assertions.Match;

/**
 * The metrics the functions publish (embedded metric format, namespace Interlock) are graphed on one CloudWatch
 * dashboard, and the SLA ones alarm: a completion after its deadline, a deadline passed with no completion (the
 * watchdog's SLA_MISSED alert) and failed runs — on the fleet aggregate, so one alarm covers every pipeline.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MetricsDashboardTest {

    private SynthesizedStack synth;

    @BeforeAll
    void synthesize() {
        synth = SynthesizedStack.synthesize(Map.of());
    }

    @Test
    void oneDashboardGraphsEveryInterlockMetricAndTheErrorMetrics() {
        Map<String, Map<String, Object>> dashboards = synth.resourcesOfType("AWS::CloudWatch::Dashboard");
        assertThat(dashboards).hasSize(1);
        String body = String.valueOf(
                Json.map(dashboards.values().iterator().next(), "Properties").get("DashboardBody"));
        for (Metric m : Metric.values()) {
            assertThat(body).as("the dashboard graphs %s", m.metricName()).contains(m.metricName());
        }
        assertThat(body).contains(Metric.NAMESPACE).contains("PipelineId").contains("AlertKind");
        assertThat(body).contains("Errors").contains("ExecutionsFailed");
    }

    @Test
    void theSlaAndFailedRunsAlarmOnTheFleetAggregate() {
        synth.template()
                .hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Match.objectLike(Map.of(
                                "Namespace", "Interlock",
                                "MetricName", "SlaMissed",
                                "Statistic", "Maximum",
                                "Threshold", 1,
                                "TreatMissingData", "notBreaching")));
        synth.template()
                .hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Match.objectLike(Map.of(
                                "Namespace",
                                "Interlock",
                                "MetricName",
                                "Alerts",
                                "Dimensions",
                                List.of(Map.of("Name", "AlertKind", "Value", "SLA_MISSED")))));
        synth.template()
                .hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Match.objectLike(Map.of("Namespace", "Interlock", "MetricName", "RunsFailed")));
    }
}
