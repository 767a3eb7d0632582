package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;

/** The details object of a history event, shaped like the matching GetExecutionHistory structure. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public sealed interface EventDetails {

    /** Whether a payload was cut to the size limit; never true here, present because AWS always sends it. */
    record PayloadDetails(boolean truncated) {
        static final PayloadDetails NOT_TRUNCATED = new PayloadDetails(false);
    }

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ExecutionStarted(String input, PayloadDetails inputDetails, String roleArn) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record ExecutionSucceeded(String output, PayloadDetails outputDetails) implements EventDetails {}

    /** executionFailed/Aborted/TimedOut and lambdaFunctionFailed/TimedOut event details. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record Failure(String error, String cause) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record StateEntered(String name, String input, PayloadDetails inputDetails) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record StateExited(String name, String output, PayloadDetails outputDetails) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TaskScheduled(
            String resourceType,
            String resource,
            String region,
            String parameters,
            Long timeoutInSeconds,
            Long heartbeatInSeconds)
            implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TaskStarted(String resourceType, String resource) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TaskSucceeded(String resourceType, String resource, String output, PayloadDetails outputDetails)
            implements EventDetails {}

    /** taskFailedEventDetails and taskTimedOutEventDetails. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record TaskError(String resourceType, String resource, String error, String cause) implements EventDetails {}

    /** A Task whose Resource is a Lambda function ARN, which AWS records as LambdaFunction* events. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LambdaFunctionScheduled(String resource, String input, PayloadDetails inputDetails, Long timeoutInSeconds)
            implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record LambdaFunctionSucceeded(String output, PayloadDetails outputDetails) implements EventDetails {}

    record MapStateStarted(int length) implements EventDetails {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    record MapIteration(String name, int index) implements EventDetails {}
}
