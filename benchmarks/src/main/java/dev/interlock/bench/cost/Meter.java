package dev.interlock.bench.cost;

import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.store.dynamodb.RequestCounter;
import java.util.EnumMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * What the functions of the local runtime used, since the last {@link #reset}: invocations and their durations per
 * function ({@link MeteredFunctions}), and DynamoDB requests with the capacity they consumed per function and store
 * operation ({@link MeteringInterceptor}). A DynamoDB request belongs to the function whose invocation is running on
 * the calling thread (the SDK's synchronous clients call interceptors on the caller's thread); requests made outside
 * any invocation (the runtime's own table set-up and TTL sweep, the benchmark's) are not a function's and are kept
 * apart.
 */
public final class Meter {

    /** The one meter of this JVM: the SDK creates {@link MeteringInterceptor} itself, with no way to hand it one. */
    public static final Meter GLOBAL = new Meter();

    private static final String OUTSIDE = "(no function)";

    private final ThreadLocal<InterlockFunction> running = new ThreadLocal<>();
    private final Map<InterlockFunction, LongAdder> invocations = new ConcurrentHashMap<>();
    private final Map<InterlockFunction, LongAdder> billedMillis = new ConcurrentHashMap<>();
    private final Map<String, RequestCounter> dynamoDb = new ConcurrentHashMap<>();
    private final AtomicLong snsPublishes = new AtomicLong();

    /** One invocation of {@code function}, timed, with its DynamoDB requests attributed to it. */
    public <T> T invocation(InterlockFunction function, Supplier<T> body) {
        InterlockFunction outer = running.get();
        running.set(function);
        long start = System.nanoTime();
        try {
            return body.get();
        } finally {
            long nanos = System.nanoTime() - start;
            running.set(outer);
            invocations.computeIfAbsent(function, f -> new LongAdder()).increment();
            billedMillis.computeIfAbsent(function, f -> new LongAdder()).add(Usage.billedMillis(nanos));
        }
    }

    /** The counter for DynamoDB requests made on this thread now. */
    RequestCounter dynamoDbCounter() {
        InterlockFunction function = running.get();
        return dynamoDb.computeIfAbsent(function == null ? OUTSIDE : function.moduleName(), f -> new RequestCounter());
    }

    /** One message published to an SNS topic (by a function or by the state machine's SNS task). */
    public void snsPublished() {
        snsPublishes.incrementAndGet();
    }

    public void reset() {
        invocations.clear();
        billedMillis.clear();
        dynamoDb.clear();
        snsPublishes.set(0);
    }

    /** What was used since the last reset. */
    public Reading read() {
        Map<InterlockFunction, Long> calls = new EnumMap<>(InterlockFunction.class);
        Map<InterlockFunction, Long> millis = new EnumMap<>(InterlockFunction.class);
        invocations.forEach((f, n) -> calls.put(f, n.sum()));
        billedMillis.forEach((f, n) -> millis.put(f, n.sum()));
        Map<String, Map<String, RequestCounter.Count>> requests = new TreeMap<>();
        dynamoDb.forEach((f, counter) -> requests.put(f, counter.snapshot()));
        return new Reading(calls, millis, requests, snsPublishes.get());
    }

    /**
     * One reading.
     *
     * @param invocations per function
     * @param billedMillis per function, each invocation rounded up to the millisecond
     * @param dynamoDb per function module name (or {@value #OUTSIDE}), per {@code <store operation> <API call>}
     * @param snsPublishes messages published
     */
    public record Reading(
            Map<InterlockFunction, Long> invocations,
            Map<InterlockFunction, Long> billedMillis,
            Map<String, Map<String, RequestCounter.Count>> dynamoDb,
            long snsPublishes) {

        public static final String NO_FUNCTION = OUTSIDE;

        /** DynamoDB counts of the functions only (not {@value #OUTSIDE}), keyed {@code <function> <operation> <call>}. */
        public Map<String, RequestCounter.Count> functionRequests() {
            Map<String, RequestCounter.Count> out = new TreeMap<>();
            dynamoDb.forEach((f, counts) -> {
                if (!f.equals(OUTSIDE)) {
                    counts.forEach((k, c) -> out.put(f + " " + k, c));
                }
            });
            return out;
        }
    }
}
