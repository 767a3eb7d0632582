package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.suppression;

import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.StartingPosition;
import software.amazon.awscdk.services.lambda.eventsources.DynamoEventSource;
import software.amazon.awscdk.services.lambda.eventsources.SqsDlq;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * Marker INSERTs on the table's stream → the stream router, which starts the workflow; batches that exhaust their
 * retries go to a dead-letter queue. Only the stream router reads the stream and starts executions.
 */
final class StreamRouting {

    private final Queue deadLetterQueue;

    /**
     * TRIM_HORIZON is safe because execution names are deterministic per marker (a re-read record meets
     * ExecutionAlreadyExists); bisect + partial batch responses isolate a poison record, bounded retries and a maximum
     * record age stop it blocking the shard, and the DLQ keeps its coordinates.
     */
    StreamRouting(
            Construct scope, InterlockTable table, Alias streamRouter, StateMachine machine, boolean emitsLineage) {
        this.deadLetterQueue = Queue.Builder.create(scope, "StreamDeadLetterQueue")
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        NagSuppressions.addResourceSuppressions(
                deadLetterQueue,
                List.of(
                        suppression(
                                "AwsSolutions-SQS3",
                                "This queue is itself the dead-letter destination of the stream mapping; it receives batch metadata "
                                        + "for operators, nothing consumes and redrives it, so a DLQ of its own would be empty.")));
        streamRouter.addEventSource(DynamoEventSource.Builder.create(table.table())
                .startingPosition(StartingPosition.TRIM_HORIZON)
                .filters(filters(emitsLineage))
                .batchSize(10)
                .bisectBatchOnError(true)
                .retryAttempts(5)
                .maxRecordAge(Duration.hours(6))
                .reportBatchItemFailures(true)
                .onFailure(new SqsDlq(deadLetterQueue))
                .build());
        machine.grantStartExecution(streamRouter);
    }

    /** Marker inserts start executions; run changes reach the router only where it emits OpenLineage run events. */
    private static List<Map<String, Object>> filters(boolean emitsLineage) {
        List<Map<String, Object>> filters = new java.util.ArrayList<>();
        filters.add(Map.of("pattern", InterlockTable.DEFINITION.markerStreamFilterPattern()));
        if (emitsLineage) {
            filters.add(Map.of("pattern", InterlockTable.DEFINITION.runStreamFilterPattern()));
        }
        return filters;
    }

    Queue deadLetterQueue() {
        return deadLetterQueue;
    }
}
