package dev.interlock.runtime.priming;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Which threads of one function's runtime are priming: rehearsing its events with every AWS call and outbound request
 * answered inside the process and nothing logged. The function's wiring creates one and hands it, when it builds
 * them, to everything that behaves differently while priming (the AWS clients' HTTP client and credentials, outbound
 * HTTP, credential reads, the request recorder, the logs); nothing asks a global switch.
 */
public final class OfflineMode {

    /** The items this thread's priming pass has put, by table and key (see {@link PrimingHttpClient}). */
    private final ThreadLocal<Map<String, JsonNode>> passes = new ThreadLocal<>();

    /** Whether the calling thread is priming. */
    public boolean active() {
        return passes.get() != null;
    }

    /**
     * The DynamoDB items put while this thread primes, so that a rehearsal reads back what it wrote (a trigger's claim
     * creates the run and then reads it). Only valid while {@link #active()}.
     */
    Map<String, JsonNode> items() {
        Map<String, JsonNode> items = passes.get();
        if (items == null) {
            throw new IllegalStateException("not priming");
        }
        return items;
    }

    /** Runs {@code body} with this thread priming (a nested call shares the outer pass's items). */
    public <T> T run(Callable<T> body) throws Exception {
        Map<String, JsonNode> previous = passes.get();
        passes.set(previous == null ? new HashMap<>() : previous);
        try {
            return body.call();
        } finally {
            if (previous == null) {
                passes.remove();
            } else {
                passes.set(previous);
            }
        }
    }
}
