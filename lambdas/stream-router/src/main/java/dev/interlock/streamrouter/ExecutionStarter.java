package dev.interlock.streamrouter;

import dev.interlock.model.json.InterlockJson;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.StartExecutionResponse;

/** Starts pipeline executions on Step Functions; an execution of the same name is reported as already started. */
public final class ExecutionStarter {

    /** How a StartExecution ended. */
    public sealed interface Outcome {}

    /** A new execution. */
    public record Started(String executionArn) implements Outcome {}

    /** An execution of this name exists: the marker was routed before (a re-delivered record). */
    public record AlreadyStarted(String message) implements Outcome {}

    /** Step Functions did not start it (throttled, unavailable, misconfigured); the record should be retried. */
    public record Failed(String reason) implements Outcome {}

    private final Supplier<SfnClient> stepFunctions;
    private final String stateMachineArn;

    /** @param stepFunctions called on first use, so a batch of only non-markers creates no client */
    public ExecutionStarter(Supplier<SfnClient> stepFunctions, String stateMachineArn) {
        this.stepFunctions = stepFunctions;
        this.stateMachineArn = stateMachineArn;
    }

    /** Starts {@code name} with {@code input}; SDK errors become outcomes, so one record never fails the batch. */
    public Outcome start(String name, ExecutionInput input) {
        try {
            StartExecutionResponse response = stepFunctions
                    .get()
                    .startExecution(b ->
                            b.stateMachineArn(stateMachineArn).name(name).input(InterlockJson.write(input.document())));
            return new Started(response.executionArn());
        } catch (ExecutionAlreadyExistsException e) {
            return new AlreadyStarted(
                    e.awsErrorDetails() == null
                            ? e.getMessage()
                            : e.awsErrorDetails().errorMessage());
        } catch (SdkException e) {
            return new Failed(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
    }
}
