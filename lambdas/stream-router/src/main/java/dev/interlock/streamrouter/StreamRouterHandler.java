package dev.interlock.streamrouter;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestHandler;
import com.amazonaws.services.lambda.runtime.events.DynamodbEvent;
import com.amazonaws.services.lambda.runtime.events.StreamsEventResponse;
import dev.interlock.deps.log.StructuredLog;
import software.amazon.awssdk.services.sfn.SfnClient;

import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/** Lambda entry of the table stream: one execution per marker insert, partial batch failures by sequence number. */
public final class StreamRouterHandler implements RequestHandler<DynamodbEvent, StreamsEventResponse> {

    private final MarkerRouter router;

    /** Collaborators by hand (tests, the local runtime). */
    public StreamRouterHandler(Supplier<SfnClient> stepFunctions, RouterSettings settings, Clock clock) {
        this.router = new MarkerRouter(new ExecutionStarter(stepFunctions, settings.stateMachineArn()), settings, clock,
                StructuredLog.forName("stream-router"));
    }

    @Override
    public StreamsEventResponse handleRequest(DynamodbEvent event, Context context) {
        List<DynamodbEvent.DynamodbStreamRecord> records = event == null || event.getRecords() == null ? List.of() : event.getRecords();
        List<StreamsEventResponse.BatchItemFailure> failures = router.route(records).stream()
                .filter(MarkerRouter.RecordOutcome::failed)
                .map(outcome -> new StreamsEventResponse.BatchItemFailure(outcome.sequenceNumber()))
                .toList();
        return new StreamsEventResponse(failures);
    }
}
