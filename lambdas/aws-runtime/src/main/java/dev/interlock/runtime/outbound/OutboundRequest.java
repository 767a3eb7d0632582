package dev.interlock.runtime.outbound;

import java.net.URI;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One outbound HTTP call.
 *
 * @param method      the HTTP method, upper case
 * @param uri         the target; checked by the URL guard before every attempt
 * @param headers     request headers (values are never logged)
 * @param body        the request body, or {@code null} for none
 * @param callTimeout the limit of one attempt, from connect to the last byte
 * @param budget      the limit of all attempts and the waits between them
 * @param retry       which failures may be retried
 * @param hosts       the hosts it may be sent to, for what it carries (credentials)
 */
public record OutboundRequest(
        String method,
        URI uri,
        Map<String, String> headers,
        String body,
        Duration callTimeout,
        Duration budget,
        RetryMode retry,
        HostRestriction hosts) {

    /** The timeout of one attempt when the caller names none (30 s, the documented trigger default). */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

    public OutboundRequest {
        method = Objects.requireNonNull(method, "method").toUpperCase(Locale.ROOT);
        Objects.requireNonNull(uri, "uri");
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers == null ? Map.of() : headers));
        callTimeout = positive(callTimeout == null ? DEFAULT_TIMEOUT : callTimeout, "callTimeout");
        budget = positive(budget == null ? callTimeout : budget, "budget");
        retry = retry == null ? RetryMode.IDEMPOTENT : retry;
        hosts = hosts == null ? HostRestriction.NONE : hosts;
    }

    /** A request that carries no credential (any host the URL guard accepts). */
    public OutboundRequest(
            String method,
            URI uri,
            Map<String, String> headers,
            String body,
            Duration callTimeout,
            Duration budget,
            RetryMode retry) {
        this(method, uri, headers, body, callTimeout, budget, retry, HostRestriction.NONE);
    }

    /** A GET with the default timeout, retried as an idempotent read. */
    public static OutboundRequest get(URI uri) {
        return new OutboundRequest("GET", uri, Map.of(), null, null, null, RetryMode.IDEMPOTENT);
    }

    /** A POST with a body and the default timeout, retried only where the server cannot have acted. */
    public static OutboundRequest post(URI uri, String body) {
        return new OutboundRequest("POST", uri, Map.of(), body, null, null, RetryMode.START_ONCE);
    }

    public OutboundRequest withHeaders(Map<String, String> newHeaders) {
        return new OutboundRequest(method, uri, newHeaders, body, callTimeout, budget, retry, hosts);
    }

    /** Sets one attempt's timeout; a budget smaller than it grows to it. */
    public OutboundRequest withTimeout(Duration timeout) {
        Duration b = budget.compareTo(timeout) < 0 ? timeout : budget;
        return new OutboundRequest(method, uri, headers, body, timeout, b, retry, hosts);
    }

    public OutboundRequest withBudget(Duration newBudget) {
        return new OutboundRequest(method, uri, headers, body, callTimeout, newBudget, retry, hosts);
    }

    public OutboundRequest withRetry(RetryMode mode) {
        return new OutboundRequest(method, uri, headers, body, callTimeout, budget, mode, hosts);
    }

    /** Restricts the hosts the request may reach (it carries credentials allowed only there). */
    public OutboundRequest withHosts(HostRestriction restriction) {
        return new OutboundRequest(method, uri, headers, body, callTimeout, budget, retry, restriction);
    }

    private static Duration positive(Duration d, String name) {
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(name + " must be positive, got " + d);
        }
        return d;
    }
}
