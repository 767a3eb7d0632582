package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.pascal;

import dev.interlock.log.Metric;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.Map;
import java.util.Optional;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.apigateway.RestApi;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * What pages the on-call engineer: failed invocations of any function, failed or timed-out executions, marker batches
 * in the dead-letter queue, a stream router falling behind, API 5xx, and the SLA: a late completion, a deadline
 * passed without one, a failed run. Each alarm notifies {@code alarmTopicArn}
 * (when set) on ALARM and on OK.
 */
final class Alarms {

    private final Construct scope;
    private final Optional<ITopic> topic;

    Alarms(
            Construct scope,
            DeploymentOptions options,
            InterlockFunctions functions,
            StateMachine machine,
            Queue streamDeadLetterQueue,
            Queue ruleDeadLetterQueue,
            RestApi api) {
        this.scope = scope;
        this.topic = options.alarmTopicArn().map(arn -> Topic.fromTopicArn(scope, "AlarmTopic", arn));
        MetricOptions fiveMinuteSum = MetricOptions.builder()
                .period(Duration.minutes(5))
                .statistic("Sum")
                .build();
        MetricOptions fiveMinuteMaximum = MetricOptions.builder()
                .period(Duration.minutes(5))
                .statistic("Maximum")
                .build();
        for (InterlockFunction f : InterlockFunction.values()) {
            alarm(
                    pascal(f) + "ErrorsAlarm",
                    "Interlock " + f.moduleName() + ": invocations failed",
                    functions.alias(f).metricErrors(fiveMinuteSum),
                    1);
        }
        alarm(
                "ExecutionsFailedAlarm",
                "Interlock state machine: executions failed (business or infrastructure)",
                machine.metricFailed(fiveMinuteSum),
                1);
        alarm(
                "ExecutionsTimedOutAlarm",
                "Interlock state machine: executions hit TimeoutSeconds",
                machine.metricTimedOut(fiveMinuteSum),
                1);
        alarm(
                "StreamDeadLetterQueueAlarm",
                "Interlock: marker batches gave up and went to the stream DLQ",
                streamDeadLetterQueue.metricApproximateNumberOfMessagesVisible(fiveMinuteMaximum),
                1);
        alarm(
                "EventRuleDeadLetterQueueAlarm",
                "Interlock: an event rule (watchdog tick, execution end, job state) could not reach the orchestrator",
                ruleDeadLetterQueue.metricApproximateNumberOfMessagesVisible(fiveMinuteMaximum),
                1);
        // Stream records live 24 h; a router more than 10 minutes behind is delaying every pipeline start.
        alarm(
                "StreamIteratorAgeAlarm",
                "Interlock stream router: oldest unprocessed marker is over 10 minutes old",
                functions.alias(InterlockFunction.STREAM_ROUTER).metric("IteratorAge", fiveMinuteMaximum),
                600_000);
        alarm(
                "ApiServerErrorsAlarm",
                "Interlock registration API: 5xx responses (no input may cause one)",
                api.metricServerError(fiveMinuteSum),
                1);
        // The SLA, from the metrics the functions publish (docs/metrics.md), on the fleet aggregate: one alarm for
        // every pipeline; the dashboard's per-pipeline graphs say which.
        alarm(
                "SlaMissedAlarm",
                "Interlock: a pipeline completed after its completion deadline (SlaMissed)",
                interlock(Metric.SLA_MISSED, Map.of(), fiveMinuteMaximum),
                1);
        alarm(
                "SlaMissedAlertsAlarm",
                "Interlock: a completion deadline passed with the day not completed (SLA_MISSED alerts)",
                interlock(Metric.ALERTS, Map.of(Metric.ALERT_KIND, "SLA_MISSED"), fiveMinuteSum),
                1);
        alarm(
                "RunsFailedAlarm",
                "Interlock: a job's run ended FAILED (RunsFailed)",
                interlock(Metric.RUNS_FAILED, Map.of(), fiveMinuteSum),
                1);
    }

    /** One of the metrics the functions publish, in the Interlock namespace. */
    static software.amazon.awscdk.services.cloudwatch.Metric interlock(
            Metric metric, Map<String, String> dimensions, MetricOptions options) {
        return software.amazon.awscdk.services.cloudwatch.Metric.Builder.create()
                .namespace(Metric.NAMESPACE)
                .metricName(metric.metricName())
                .dimensionsMap(dimensions)
                .period(options.getPeriod())
                .statistic(options.getStatistic())
                .build();
    }

    private void alarm(String id, String description, IMetric metric, double threshold) {
        Alarm alarm = Alarm.Builder.create(scope, id)
                .alarmDescription(description)
                .metric(metric)
                .threshold(threshold)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        topic.ifPresent(t -> {
            alarm.addAlarmAction(new SnsAction(t));
            alarm.addOkAction(new SnsAction(t));
        });
    }
}
