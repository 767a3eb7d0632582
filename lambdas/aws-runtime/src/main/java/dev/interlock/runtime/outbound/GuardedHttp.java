package dev.interlock.runtime.outbound;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.runtime.priming.OfflineMode;
import dev.interlock.store.Backoff;
import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.security.KeyManagementException;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.DoubleSupplier;
import java.util.function.Supplier;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;

/**
 * Outbound HTTP for triggers, run checks and evaluators. Every attempt passes the {@link UrlGuard} and connects to
 * the address the guard checked (the URL's host is replaced by that address; the name travels as the Host header
 * and as the TLS server name, against which the certificate is verified). Redirects are never followed: a 3xx is
 * returned as it is, so no hop escapes the guard. Retries wait as the shared {@link Backoff} says (exponential,
 * full jitter) and stop at the request's time budget or the backoff's attempt limit, whichever comes first.
 */
public final class GuardedHttp implements AutoCloseable {

    /** Response bodies are read up to this many bytes; the rest is dropped. */
    public static final int MAX_BODY_BYTES = 1 << 20;
    /** Attempts at most, whatever the budget leaves room for. */
    static final int MAX_ATTEMPTS = 8;

    static final Duration BASE_DELAY = Duration.ofMillis(200);
    static final Duration MAX_DELAY = Duration.ofSeconds(10);
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);
    private static final String ALLOW_RESTRICTED = "jdk.httpclient.allowRestrictedHeaders";
    // Headers the client computes itself; a configured value would be refused by the JDK or be wrong.
    private static final Set<String> CLIENT_MANAGED =
            Set.of("host", "connection", "content-length", "expect", "upgrade");

    private final UrlGuard guard;
    private final Clock clock;
    private final Backoff backoff;
    private final Supplier<SSLContext> tlsContexts;
    private final boolean hostHeaderAllowed;
    private final OfflineMode offline;
    private final ConcurrentMap<String, HttpClient> clients = new ConcurrentHashMap<>();

    /** A client with the JVM's TLS defaults. */
    public GuardedHttp(UrlGuard guard, Clock clock, Backoff backoff) {
        this(guard, clock, backoff, null);
    }

    /**
     * With a source of TLS contexts (tests trusting their own certificate authority); {@code null} means fresh
     * contexts over the JVM's default trust store. Each server name gets its own context, because the JDK caches
     * TLS sessions by peer address: with a shared context, a session verified for one name could be resumed —
     * without any certificate check — for another name pinned to the same address.
     *
     * @param backoff the waits between attempts (full jitter) and its attempt limit; the request's budget also
     *                bounds them
     */
    public GuardedHttp(UrlGuard guard, Clock clock, Backoff backoff, Supplier<SSLContext> tlsContexts) {
        this(guard, clock, backoff, tlsContexts, new OfflineMode());
    }

    /** A client whose requests are answered without a connection on a thread that {@code offline} primes. */
    public GuardedHttp(
            UrlGuard guard, Clock clock, Backoff backoff, Supplier<SSLContext> tlsContexts, OfflineMode offline) {
        this.guard = guard;
        this.clock = clock;
        this.backoff = backoff;
        this.tlsContexts = tlsContexts == null ? GuardedHttp::defaultTlsContext : tlsContexts;
        this.offline = offline;
        this.hostHeaderAllowed = allowHostHeader(offline);
    }

    /**
     * The production client: real sleeps, and a jitter source created on the first retry (not at start-up, so
     * SnapStart restores do not share one random sequence).
     */
    public static GuardedHttp create(UrlGuard guard, Clock clock) {
        return create(guard, clock, new OfflineMode());
    }

    /** {@link #create(UrlGuard, Clock)} for a runtime that primes with {@code offline}. */
    public static GuardedHttp create(UrlGuard guard, Clock clock, OfflineMode offline) {
        return new GuardedHttp(
                guard,
                clock,
                new Backoff(MAX_ATTEMPTS, BASE_DELAY, MAX_DELAY, new SecureJitter(), d -> Thread.sleep(d)),
                null,
                offline);
    }

    /** The guard every attempt passes. */
    public UrlGuard guard() {
        return guard;
    }

    /**
     * Sends a request, retrying as its {@link RetryMode} allows while its budget lasts.
     *
     * @return the final response, whatever its status (a retryable status whose retries ran out included)
     * @throws OutboundException when no response was obtained, or the guard refused the target
     */
    public OutboundResponse send(OutboundRequest request) throws OutboundException {
        if (offline.active()) {
            // Priming rehearses the caller's code, never the network: an empty JSON success, no lookup, no connection.
            return new OutboundResponse(
                    200, "{}", java.util.Map.of("Content-Type", java.util.List.of("application/json")));
        }
        Instant deadline = clock.instant().plus(request.budget());
        for (int attempt = 0; ; attempt++) {
            Duration remaining = Duration.between(clock.instant(), deadline);
            Duration timeout = remaining.compareTo(request.callTimeout()) < 0 ? remaining : request.callTimeout();
            if (timeout.toMillis() < 1) {
                timeout = Duration.ofMillis(1);
            }
            Duration delay;
            switch (attempt(request, timeout)) {
                case Attempt.Answered answered -> {
                    if (!retryable(answered.response().status(), request.retry())) {
                        return answered.response();
                    }
                    delay = honourRetryAfter(answered.response(), backoff.delayBefore(attempt + 1));
                    if (!fits(delay, deadline) || !backoff.allowsAnotherAfter(attempt + 1)) {
                        return answered.response();
                    }
                }
                case Attempt.Failed failed -> {
                    if (!retryable(failed, request.retry())) {
                        throw failed.failure();
                    }
                    delay = backoff.delayBefore(attempt + 1);
                    if (!fits(delay, deadline) || !backoff.allowsAnotherAfter(attempt + 1)) {
                        throw failed.failure();
                    }
                }
            }
            try {
                backoff.sleeper().sleep(delay);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new OutboundException.Network("interrupted while waiting to retry " + request.method(), e);
            }
        }
    }

    /** The outcome of one attempt. */
    private sealed interface Attempt {
        record Answered(OutboundResponse response) implements Attempt {}

        /** {@code neverSent}: the connection was not made, so the server cannot have seen the request. */
        record Failed(OutboundException failure, boolean neverSent) implements Attempt {}
    }

    /**
     * One attempt. The guard runs before every attempt, since a name may resolve differently a moment later; a
     * refusal ends the call, a failed lookup is a network failure like any other (retried where allowed).
     */
    private Attempt attempt(OutboundRequest request, Duration timeout) throws OutboundException {
        // Checked again before every attempt, whatever the caller checked when it rendered the request, and before
        // the name is even looked up.
        String host =
                request.uri().getHost() == null ? "" : request.uri().getHost().replaceAll("^\\[|]$", "");
        Optional<String> refused = request.hosts().refusal(host);
        if (refused.isPresent()) {
            throw new OutboundException.Refused(
                    request.method() + " " + request.uri().getScheme() + "://" + host + ": " + refused.get());
        }
        CheckedTarget target;
        try {
            target = guard.check(request.uri());
        } catch (OutboundException.Network e) {
            return new Attempt.Failed(e, true);
        }
        return exchange(target, request, timeout);
    }

    private Attempt exchange(CheckedTarget target, OutboundRequest request, Duration timeout) throws OutboundException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(target.pinnedUri())
                .timeout(timeout)
                .version(HttpClient.Version.HTTP_1_1)
                .method(
                        request.method(),
                        request.body() == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(request.body(), StandardCharsets.UTF_8));
        for (Map.Entry<String, String> h : request.headers().entrySet()) {
            if (CLIENT_MANAGED.contains(h.getKey().toLowerCase(Locale.ROOT))) {
                continue;
            }
            try {
                builder.header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                // The JDK's message quotes the value; ours names only the header.
                throw new OutboundException.Refused("header '" + h.getKey() + "' has an invalid name or value");
            }
        }
        if (!target.hostIsLiteral() && hostHeaderAllowed) {
            builder.header("Host", target.hostHeader());
        }
        String what = request.method() + " " + target.redacted();
        try {
            HttpResponse<InputStream> response =
                    clientFor(target).send(builder.build(), HttpResponse.BodyHandlers.ofInputStream());
            String body;
            try (InputStream in = response.body()) {
                body = new String(in.readNBytes(MAX_BODY_BYTES), StandardCharsets.UTF_8);
            }
            return new Attempt.Answered(new OutboundResponse(
                    response.statusCode(), body, response.headers().map()));
        } catch (HttpConnectTimeoutException e) {
            return new Attempt.Failed(
                    new OutboundException.TimedOut(
                            what + ": connect timed out after " + CONNECT_TIMEOUT.toMillis() + " ms", e),
                    true);
        } catch (HttpTimeoutException e) {
            return new Attempt.Failed(
                    new OutboundException.TimedOut(what + ": no answer within " + timeout.toMillis() + " ms", e),
                    false);
        } catch (SSLHandshakeException e) {
            // A certificate that does not match the configured name (or no common protocol) will not fix itself.
            return new Attempt.Failed(
                    new OutboundException.Refused(what + ": TLS handshake failed: " + e.getMessage()), false);
        } catch (ConnectException e) {
            return new Attempt.Failed(
                    new OutboundException.Network(
                            what + ": cannot connect (" + e.getClass().getSimpleName() + ")", e),
                    true);
        } catch (IOException e) {
            boolean neverSent = causedBy(e, ConnectException.class);
            return new Attempt.Failed(
                    new OutboundException.Network(
                            what + ": " + e.getClass().getSimpleName()
                                    + (e.getMessage() == null ? "" : " " + e.getMessage()),
                            e),
                    neverSent);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new OutboundException.Network(what + ": interrupted", e);
        }
    }

    private static boolean retryable(int status, RetryMode mode) {
        return switch (mode) {
            case NONE -> false;
            case START_ONCE -> status == 429 || status == 503;
            case IDEMPOTENT -> status == 429 || status == 502 || status == 503 || status == 504;
        };
    }

    private static boolean retryable(Attempt.Failed failed, RetryMode mode) {
        return switch (mode) {
            case NONE -> false;
            case START_ONCE -> failed.neverSent();
            case IDEMPOTENT ->
                failed.failure() instanceof OutboundException.Network
                        || failed.failure() instanceof OutboundException.TimedOut;
        };
    }

    private static Duration honourRetryAfter(OutboundResponse response, Duration delay) {
        Optional<String> retryAfter = response.header("Retry-After");
        if (retryAfter.isEmpty()) {
            return delay;
        }
        try {
            Duration asked = Duration.ofSeconds(Long.parseLong(retryAfter.get().trim()));
            return asked.compareTo(delay) > 0 ? asked : delay;
        } catch (NumberFormatException e) {
            // An HTTP-date Retry-After is rare from APIs; the jittered delay stands.
            return delay;
        }
    }

    private boolean fits(Duration delay, Instant deadline) {
        return clock.instant().plus(delay).isBefore(deadline);
    }

    private HttpClient clientFor(CheckedTarget target) {
        // One client per TLS server name: the name is fixed in the client's SSL parameters, and the JDK pools
        // connections by address, so two names on one address must not share a client.
        String key = !target.secure()
                ? "plain"
                : target.hostIsLiteral() ? "tls" : "tls:" + target.host().toLowerCase(Locale.ROOT);
        return clients.computeIfAbsent(key, k -> {
            HttpClient.Builder builder = HttpClient.newBuilder()
                    .followRedirects(HttpClient.Redirect.NEVER)
                    .proxy(HttpClient.Builder.NO_PROXY)
                    .connectTimeout(CONNECT_TIMEOUT)
                    .version(HttpClient.Version.HTTP_1_1);
            if (target.secure()) {
                SSLContext context = tlsContexts.get();
                builder.sslContext(context);
                if (!target.hostIsLiteral()) {
                    builder.sslParameters(serverNameParameters(context, target.host()));
                }
            }
            return builder.build();
        });
    }

    private static SSLContext defaultTlsContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            // Null managers select the JVM defaults: no client certificate, the default trust store.
            context.init(null, null, null);
            return context;
        } catch (NoSuchAlgorithmException | KeyManagementException e) {
            throw new IllegalStateException("no TLS context available", e);
        }
    }

    /** Closes the HTTP clients (their selector threads and pooled connections). */
    @Override
    public void close() {
        clients.values().forEach(HttpClient::close);
        clients.clear();
    }

    /**
     * TLS parameters naming the server: the JDK sends them as SNI for an IP-literal URL, and its trust manager
     * verifies the certificate against the SNI name — so the pinned connection is verified for the configured host.
     */
    static SSLParameters serverNameParameters(SSLContext context, String host) {
        SSLParameters parameters = context.getDefaultSSLParameters();
        parameters.setServerNames(List.of(new SNIHostName(host)));
        return parameters;
    }

    /**
     * The JDK refuses a caller-set Host header unless {@code jdk.httpclient.allowRestrictedHeaders} names it before
     * the HTTP client first loads. Without it a pinned request still goes to the checked address, but carries the
     * address as its Host, which name-based virtual hosts may not route.
     */
    private static boolean allowHostHeader(OfflineMode offline) {
        String current = System.getProperty(ALLOW_RESTRICTED);
        if (current == null || current.isBlank()) {
            System.setProperty(ALLOW_RESTRICTED, "host");
        } else if (!List.of(current.toLowerCase(Locale.ROOT).split("\\s*,\\s*")).contains("host")) {
            System.setProperty(ALLOW_RESTRICTED, current + ",host");
        }
        try {
            HttpRequest.newBuilder(URI.create("http://127.0.0.1/")).header("Host", "probe");
            return true;
        } catch (IllegalArgumentException e) {
            new StructuredLog("outbound", System.out, Clock.systemUTC(), offline::active)
                    .warn(
                            LogContext.NONE,
                            "the JDK HTTP client was loaded before " + ALLOW_RESTRICTED
                                    + " could name 'host'; pinned requests carry the IP address as their Host header",
                            Map.of());
            return false;
        }
    }

    private static boolean causedBy(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    /** Uniform values in [0, 1) from a generator created on first use. */
    private static final class SecureJitter implements DoubleSupplier {
        private volatile SecureRandom random;

        @Override
        public double getAsDouble() {
            SecureRandom r = random;
            if (r == null) {
                r = new SecureRandom();
                random = r;
            }
            return r.nextDouble();
        }
    }
}
