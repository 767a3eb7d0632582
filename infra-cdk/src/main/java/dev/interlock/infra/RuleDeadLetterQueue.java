package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.suppression;

import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * The dead-letter queue of every EventBridge rule target (the watchdog schedule, the execution-end rule, the job-state
 * rules): an event EventBridge could not deliver to the orchestrator after its retries lands here with the error, so
 * no lost event is silent; {@link Alarms} raises an alarm as soon as one is in it (docs/operations.md: redriving).
 */
final class RuleDeadLetterQueue {

    private final Queue queue;

    RuleDeadLetterQueue(Construct scope) {
        this.queue = Queue.Builder.create(scope, "EventRuleDeadLetterQueue")
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        NagSuppressions.addResourceSuppressions(
                queue,
                List.of(suppression(
                        "AwsSolutions-SQS3",
                        "This queue is itself the dead-letter destination of the EventBridge rule targets; an "
                                + "operator reads and redrives it by hand, so a DLQ of its own would be empty.")));
    }

    Queue queue() {
        return queue;
    }
}
