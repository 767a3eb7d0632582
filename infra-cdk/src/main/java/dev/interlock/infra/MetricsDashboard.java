package dev.interlock.infra;

import dev.interlock.log.Metric;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.cloudwatch.Dashboard;
import software.amazon.awscdk.services.cloudwatch.GraphWidget;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.IWidget;
import software.amazon.awscdk.services.cloudwatch.MathExpression;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * One CloudWatch dashboard of what the functions publish (docs/metrics.md): the fleet's evaluations, NOT READY rounds,
 * triggers and run ends; time to ready, job duration and SLA margin per pipeline (a SEARCH over the PipelineId
 * dimension, so a new pipeline appears without a deploy); alerts by kind; and the error metrics the alarms watch.
 */
final class MetricsDashboard {

    private static final Duration PERIOD = Duration.minutes(5);

    MetricsDashboard(Construct scope, InterlockFunctions functions, StateMachine machine) {
        List<IWidget> widgets = new ArrayList<>();
        widgets.add(graph(
                "Evaluations and NOT READY rounds (fleet)",
                fleet(Metric.EVALUATIONS, "Sum"),
                fleet(Metric.NOT_READY_ROUNDS, "Sum")));
        widgets.add(graph(
                "Triggers and run ends (fleet)",
                fleet(Metric.TRIGGERS, "Sum"),
                fleet(Metric.RUNS_COMPLETED, "Sum"),
                fleet(Metric.RUNS_FAILED, "Sum")));
        widgets.add(graph("SLA missed (fleet)", fleet(Metric.SLA_MISSED, "Maximum")));
        widgets.add(graph(
                "Time from window open to ready, per pipeline (s)", perPipeline(Metric.TIME_TO_READY, "Maximum")));
        widgets.add(graph("Job duration, per pipeline (s)", perPipeline(Metric.JOB_DURATION, "Maximum")));
        widgets.add(graph("SLA margin, per pipeline (s; below 0 is late)", perPipeline(Metric.SLA_MARGIN, "Minimum")));
        widgets.add(graph("NOT READY rounds, per pipeline", perPipeline(Metric.NOT_READY_ROUNDS, "Sum")));
        widgets.add(graph(
                "Alerts by kind",
                search("{" + Metric.NAMESPACE + "," + Metric.ALERT_KIND + "}", Metric.ALERTS, "Sum")));
        MetricOptions sum =
                MetricOptions.builder().period(PERIOD).statistic("Sum").build();
        List<IMetric> errors = new ArrayList<>();
        for (InterlockFunction f : InterlockFunction.values()) {
            errors.add(functions.alias(f).metricErrors(sum));
        }
        widgets.add(GraphWidget.Builder.create()
                .title("Function errors")
                .left(errors)
                .width(12)
                .build());
        widgets.add(graph("Executions failed and timed out", machine.metricFailed(sum), machine.metricTimedOut(sum)));
        Dashboard.Builder.create(scope, "MetricsDashboard")
                .widgets(rows(widgets))
                .build();
    }

    private static IMetric fleet(Metric metric, String statistic) {
        return Alarms.interlock(
                metric,
                Map.of(),
                MetricOptions.builder().period(PERIOD).statistic(statistic).build());
    }

    private static IMetric perPipeline(Metric metric, String statistic) {
        return search("{" + Metric.NAMESPACE + "," + Metric.PIPELINE_ID + "}", metric, statistic);
    }

    private static IMetric search(String schema, Metric metric, String statistic) {
        return MathExpression.Builder.create()
                .expression("SEARCH('" + schema + " MetricName=\"" + metric.metricName() + "\"', '" + statistic + "', "
                        + PERIOD.toSeconds() + ")")
                .label(metric.metricName())
                .usingMetrics(Map.of())
                .period(PERIOD)
                .build();
    }

    private static GraphWidget graph(String title, IMetric... metrics) {
        return GraphWidget.Builder.create()
                .title(title)
                .left(List.of(metrics))
                .width(12)
                .build();
    }

    /** Two widgets a row. */
    private static List<List<IWidget>> rows(List<IWidget> widgets) {
        List<List<IWidget>> rows = new ArrayList<>();
        for (int i = 0; i < widgets.size(); i += 2) {
            rows.add(widgets.subList(i, Math.min(i + 2, widgets.size())));
        }
        return rows;
    }
}
