package dev.interlock.bench.cost;

import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbRequest;

/**
 * Hands every DynamoDB request of this JVM to the {@link Meter}, which counts it, with the capacity DynamoDB reports,
 * for the function running on the calling thread. The SDK adds it to every client it builds, the functions' own
 * included, because this module lists it in {@code software/amazon/awssdk/global/handlers/execution.interceptors}:
 * the functions are measured as they are, with no hook in their code. DynamoDB Streams reads (the event-source
 * mapping's, not billed per request) are another service's requests and are left out.
 */
public final class MeteringInterceptor implements ExecutionInterceptor {

    @Override
    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof DynamoDbRequest) {
            Meter.GLOBAL.dynamoDbCounter().afterExecution(context, attributes);
        }
    }

    @Override
    public void onExecutionFailure(Context.FailedExecution context, ExecutionAttributes attributes) {
        if (context.request() instanceof DynamoDbRequest) {
            Meter.GLOBAL.dynamoDbCounter().onExecutionFailure(context, attributes);
        }
    }
}
