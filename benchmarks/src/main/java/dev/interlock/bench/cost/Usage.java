package dev.interlock.bench.cost;

/**
 * What one measured run used of every billed dimension, and what that costs.
 *
 * @param transitions Step Functions state transitions, as billed ({@link Transitions})
 * @param lambdaInvocations Lambda requests, every function
 * @param gbSeconds Lambda duration billed: each invocation's duration rounded up to the millisecond, times its
 *         function's configured memory in GB
 * @param dynamoDbRequests DynamoDB requests, failed conditional writes included
 * @param readUnits DynamoDB read request units consumed
 * @param writeUnits DynamoDB write request units consumed
 * @param snsPublishes SNS publishes
 * @param apiRequests API Gateway requests
 */
public record Usage(
        long transitions,
        long lambdaInvocations,
        double gbSeconds,
        long dynamoDbRequests,
        double readUnits,
        double writeUnits,
        long snsPublishes,
        long apiRequests) {

    /** Dollars per service at {@code prices}. */
    public record Cost(double stepFunctions, double lambda, double dynamoDb, double sns, double apiGateway) {

        public double total() {
            return stepFunctions + lambda + dynamoDb + sns + apiGateway;
        }
    }

    public Cost cost(ListPrices prices) {
        return new Cost(
                transitions * prices.transitionUsd(),
                lambdaInvocations * prices.lambdaRequestUsd() + gbSeconds * prices.lambdaGbSecondUsd(),
                readUnits * prices.readRequestUnitUsd() + writeUnits * prices.writeRequestUnitUsd(),
                snsPublishes * prices.snsPublishUsd(),
                apiRequests * prices.apiRequestUsd());
    }

    /**
     * Dollars for 1,000 pipeline-days when each of {@code pipelines} pipelines of the measured run runs once a day:
     * a run that covers a three-level cascade is three pipeline-days.
     */
    public double perThousandPipelineDays(ListPrices prices, int pipelines) {
        if (pipelines < 1) {
            throw new IllegalArgumentException("a run covers at least one pipeline, got " + pipelines);
        }
        return cost(prices).total() / pipelines * 1_000;
    }

    /** Lambda bills an invocation's duration rounded up to the millisecond. */
    public static long billedMillis(long nanos) {
        return Math.max(1, (nanos + 999_999) / 1_000_000);
    }

    /** GB-seconds of {@code billedMillis} on a function configured with {@code memoryMb}. */
    public static double gbSeconds(long billedMillis, int memoryMb) {
        return billedMillis / 1000.0 * memoryMb / 1024.0;
    }
}
