package dev.interlock.bench.cost;

import dev.interlock.infra.FunctionProfile;
import dev.interlock.store.dynamodb.RequestCounter;
import java.util.Map;

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

    /**
     * What a {@link Meter.Reading} used: the functions' invocations, their billed duration times the memory
     * {@link FunctionProfile} gives each function, and their DynamoDB requests and units; plus what the caller counted.
     */
    public static Usage of(Meter.Reading reading, long transitions, long apiRequests) {
        long invocations = reading.invocations().values().stream()
                .mapToLong(Long::longValue)
                .sum();
        double gbSeconds = 0;
        for (var m : reading.billedMillis().entrySet()) {
            gbSeconds += gbSeconds(m.getValue(), FunctionProfile.of(m.getKey()).memoryMb());
        }
        Map<String, RequestCounter.Count> ddb = reading.functionRequests();
        long requests =
                ddb.values().stream().mapToLong(RequestCounter.Count::requests).sum();
        double rru = ddb.values().stream()
                .mapToDouble(RequestCounter.Count::readUnits)
                .sum();
        double wru = ddb.values().stream()
                .mapToDouble(RequestCounter.Count::writeUnits)
                .sum();
        return new Usage(transitions, invocations, gbSeconds, requests, rru, wru, reading.snsPublishes(), apiRequests);
    }

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
