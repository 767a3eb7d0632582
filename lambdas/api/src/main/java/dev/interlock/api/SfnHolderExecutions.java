package dev.interlock.api;

import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;

/** {@link HolderExecutions} over Step Functions: the execution ARN is the state machine's with the execution's name. */
final class SfnHolderExecutions implements HolderExecutions {

    /** Step Functions takes a cause of at most 32,768 characters; ours are short, this only guards. */
    private static final int MAX_CAUSE = 32_768;

    private final Supplier<SfnClient> client;
    private final String stateMachineArn;

    SfnHolderExecutions(Supplier<SfnClient> client, String stateMachineArn) {
        if (stateMachineArn == null || !stateMachineArn.contains(":stateMachine:")) {
            throw new IllegalArgumentException("STATE_MACHINE_ARN is not a state machine ARN: " + stateMachineArn);
        }
        this.client = client;
        this.stateMachineArn = stateMachineArn;
    }

    @Override
    public Optional<String> status(String executionName) {
        try {
            return Optional.of(client.get()
                    .describeExecution(b -> b.executionArn(arnOf(executionName)))
                    .statusAsString());
        } catch (ExecutionDoesNotExistException e) {
            return Optional.empty();
        }
    }

    @Override
    public void stop(String executionName, String cause) {
        String bounded = cause.length() > MAX_CAUSE ? cause.substring(0, MAX_CAUSE) : cause;
        client.get()
                .stopExecution(b -> b.executionArn(arnOf(executionName))
                        .error("Interlock.LockReleased")
                        .cause(bounded));
    }

    /** {@code arn:…:stateMachine:<machine>} → {@code arn:…:execution:<machine>:<name>}. */
    String arnOf(String executionName) {
        return stateMachineArn.replace(":stateMachine:", ":execution:") + ":" + executionName;
    }
}
