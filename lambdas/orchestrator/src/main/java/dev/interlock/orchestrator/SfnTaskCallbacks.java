package dev.interlock.orchestrator;

import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
import software.amazon.awssdk.services.sfn.model.TaskDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.TaskTimedOutException;

/** {@link TaskCallbacks} over the Step Functions client; a token whose task no longer waits is {@code false}. */
final class SfnTaskCallbacks implements TaskCallbacks {

    /** Step Functions' limits on SendTaskFailure's fields. */
    private static final int MAX_ERROR = 256;

    private static final int MAX_CAUSE = 32768;

    private final Supplier<SfnClient> client;

    SfnTaskCallbacks(Supplier<SfnClient> client) {
        this.client = client;
    }

    @Override
    public boolean succeed(String taskToken, String outputJson) {
        try {
            client.get().sendTaskSuccess(b -> b.taskToken(taskToken).output(outputJson));
            return true;
        } catch (TaskDoesNotExistException | TaskTimedOutException | InvalidTokenException gone) {
            return false;
        }
    }

    @Override
    public Optional<String> executionStatus(String executionArn) {
        try {
            return Optional.of(client.get()
                    .describeExecution(b -> b.executionArn(executionArn))
                    .statusAsString());
        } catch (ExecutionDoesNotExistException gone) {
            return Optional.empty();
        }
    }

    @Override
    public boolean fail(String taskToken, String error, String cause) {
        try {
            client.get()
                    .sendTaskFailure(b ->
                            b.taskToken(taskToken).error(cut(error, MAX_ERROR)).cause(cut(cause, MAX_CAUSE)));
            return true;
        } catch (TaskDoesNotExistException | TaskTimedOutException | InvalidTokenException gone) {
            return false;
        }
    }

    private static String cut(String text, int max) {
        return text == null || text.length() <= max ? text : text.substring(0, max);
    }
}
