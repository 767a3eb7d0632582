package dev.interlock.runtime.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.store.Backoff;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import java.net.InetAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class GuardedHttpTest {

    private final LocalHttpServer server = LocalHttpServer.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final List<Duration> sleeps = new CopyOnWriteArrayList<>();
    // The sleeper moves the fake clock, so budgets run out without any real waiting; the jitter takes half the
    // ceiling, so each wait is exactly predictable.
    private final Backoff.Sleeper sleeper = d -> {
        sleeps.add(d);
        clock.advance(d);
    };

    private Backoff backoff(double jitter) {
        return new Backoff(
                GuardedHttp.MAX_ATTEMPTS, GuardedHttp.BASE_DELAY, GuardedHttp.MAX_DELAY, () -> jitter, sleeper);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    private GuardedHttp http(boolean allowPrivate) {
        return new GuardedHttp(new UrlGuard(allowPrivate, HostResolver.system()), clock, backoff(0.5));
    }

    private GuardedHttp http(HostResolver resolver) {
        return new GuardedHttp(new UrlGuard(true, resolver), clock, backoff(0.5));
    }

    @Test
    void loopbackIsRefusedByDefaultBeforeAnythingIsSent() {
        server.answer("GET /ok", Answer.status(200, "fine"));
        assertThatThrownBy(() -> http(false).send(OutboundRequest.get(server.uri("/ok"))))
                .isInstanceOf(OutboundException.Refused.class);
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void loopbackIsReachedWhenPrivateUrlsAreAllowed() throws Exception {
        server.answer("POST /ok", new Answer(201, Map.of("X-Job", "42"), "{\"id\":42}", false));
        OutboundResponse response = http(true)
                .send(OutboundRequest.post(server.uri("/ok?x=1"), "{\"a\":1}")
                        .withHeaders(Map.of("Content-Type", "application/json", "Authorization", "Bearer abc")));
        assertThat(response.status()).isEqualTo(201);
        assertThat(response.body()).isEqualTo("{\"id\":42}");
        assertThat(response.header("x-job")).contains("42");
        LocalHttpServer.Request received = server.requests().getFirst();
        assertThat(received.method()).isEqualTo("POST");
        assertThat(received.query()).isEqualTo("x=1");
        assertThat(received.body()).isEqualTo("{\"a\":1}");
        assertThat(received.headers())
                .containsEntry("Authorization", "Bearer abc")
                .containsEntry("Host", "127.0.0.1:" + server.port());
    }

    @Test
    void localhostIsRefusedByNameAndReachedWhenAllowed() throws Exception {
        server.answer("GET /ok", Answer.status(200, "fine"));
        URI byName = URI.create("http://localhost:" + server.port() + "/ok");
        assertThatThrownBy(() -> http(false).send(OutboundRequest.get(byName)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessageStartingWith("host 'localhost' resolves to ");
        assertThat(server.requests()).isEmpty();
        // localhost may resolve to ::1 first, where this IPv4-only server is not listening: pin to 127.0.0.1.
        GuardedHttp http = http(host -> List.of(InetAddress.getByName("127.0.0.1")));
        assertThat(http.send(OutboundRequest.get(byName)).body()).isEqualTo("fine");
        assertThat(server.requests().getFirst().headers()).containsEntry("Host", "localhost:" + server.port());
    }

    @Test
    void ipv6LoopbackIsRefusedByDefaultAndReachedWhenAllowed() throws Exception {
        com.sun.net.httpserver.HttpServer v6;
        try {
            v6 = com.sun.net.httpserver.HttpServer.create(
                    new java.net.InetSocketAddress(InetAddress.getByName("::1"), 0), 0);
        } catch (java.io.IOException e) {
            org.junit.jupiter.api.Assumptions.abort("no IPv6 loopback on this machine: " + e.getMessage());
            return;
        }
        v6.createContext("/", exchange -> {
            byte[] body = "v6".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        v6.start();
        try {
            URI uri = URI.create("http://[::1]:" + v6.getAddress().getPort() + "/");
            assertThatThrownBy(() -> http(false).send(OutboundRequest.get(uri)))
                    .isInstanceOf(OutboundException.Refused.class)
                    .hasMessage("address ::1 is loopback; private addresses need INTERLOCK_ALLOW_PRIVATE_URLS=true");
            assertThat(http(true).send(OutboundRequest.get(uri)).body()).isEqualTo("v6");
        } finally {
            v6.stop(0);
        }
    }

    @Test
    void metadataAddressIsRefusedEvenWhenPrivateUrlsAreAllowed() {
        assertThatThrownBy(() ->
                        http(true).send(OutboundRequest.get(URI.create("http://169.254.169.254/latest/meta-data/"))))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("address 169.254.169.254 is metadata and never allowed");
    }

    @Test
    void aNameIsConnectedThroughItsCheckedAddressAndSentAsTheHostHeader() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        GuardedHttp http = http(host -> {
            lookups.incrementAndGet();
            assertThat(host).isEqualTo("jobs.example.test");
            return List.of(InetAddress.getByName("127.0.0.1"));
        });
        server.answer("GET /status", Answer.status(200, "up"));
        URI uri = URI.create("http://jobs.example.test:" + server.port() + "/status");
        assertThat(http.send(OutboundRequest.get(uri)).body()).isEqualTo("up");
        assertThat(server.requests().getFirst().headers()).containsEntry("Host", "jobs.example.test:" + server.port());
        assertThat(lookups).hasValue(1);
    }

    @Test
    void aNameRebindingToMetadataBetweenAttemptsIsRefusedOnTheRetry() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        InetAddress metadata = InetAddress.getByName("169.254.169.254");
        AtomicInteger lookups = new AtomicInteger();
        GuardedHttp http = http(host -> List.of(lookups.getAndIncrement() == 0 ? loopback : metadata));
        server.answer("GET /flaky", Answer.status(503, "busy"));
        URI uri = URI.create("http://rebind.example.test:" + server.port() + "/flaky");
        assertThatThrownBy(() -> http.send(OutboundRequest.get(uri).withBudget(Duration.ofMinutes(1))))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage(
                        "host 'rebind.example.test' resolves to 169.254.169.254, which is metadata and never allowed");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void retriesRetryableStatusesWithExponentialFullJitterBackoff() throws Exception {
        server.answer(
                "GET /flaky",
                Answer.status(503, ""),
                Answer.status(502, ""),
                Answer.status(504, ""),
                Answer.status(429, ""),
                Answer.status(200, "done"));
        OutboundResponse response =
                http(true).send(OutboundRequest.get(server.uri("/flaky")).withBudget(Duration.ofMinutes(1)));
        assertThat(response.body()).isEqualTo("done");
        assertThat(server.requests()).hasSize(5);
        // Half of each ceiling (200, 400, 800, 1600 ms, inclusive).
        assertThat(sleeps)
                .containsExactly(
                        Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400), Duration.ofMillis(800));
    }

    @Test
    void theJitterScalesTheExponentialCeiling() throws Exception {
        GuardedHttp http = new GuardedHttp(new UrlGuard(true, HostResolver.system()), clock, backoff(0.25));
        server.answer("GET /flaky", Answer.status(503, ""), Answer.status(503, ""), Answer.status(200, "done"));
        http.send(OutboundRequest.get(server.uri("/flaky")).withBudget(Duration.ofMinutes(1)));
        assertThat(sleeps).containsExactly(Duration.ofMillis(50), Duration.ofMillis(100));
    }

    @Test
    void stopsRetryingWhenTheNextWaitWouldOverrunTheBudgetAndReturnsTheLastAnswer() throws Exception {
        server.answer("GET /down", Answer.status(503, "still down"));
        // Waits of 1, 2 and 4 s (base 2 s, jitter half) fit in a 10 s budget; the fourth (8 s) would not. The budget
        // is large next to the waits so the last real HTTP attempt keeps 3 s even on a loaded machine.
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(true, HostResolver.system()),
                clock,
                new Backoff(
                        GuardedHttp.MAX_ATTEMPTS, Duration.ofSeconds(2), Duration.ofSeconds(60), () -> 0.5, sleeper));
        OutboundResponse response =
                http.send(OutboundRequest.get(server.uri("/down")).withBudget(Duration.ofSeconds(10)));
        assertThat(response.status()).isEqualTo(503);
        assertThat(sleeps).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
        assertThat(server.requests()).hasSize(4);
        assertThatThrownBy(() -> response.requireSuccess("GET /down"))
                .isInstanceOf(OutboundException.Status.class)
                .hasMessage("GET /down returned status 503: still down")
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void stopsAtTheBackoffsAttemptLimitEvenWithBudgetLeft() throws Exception {
        server.answer("GET /down", Answer.status(503, ""));
        OutboundResponse response =
                http(true).send(OutboundRequest.get(server.uri("/down")).withBudget(Duration.ofHours(1)));
        assertThat(response.status()).isEqualTo(503);
        assertThat(server.requests()).hasSize(GuardedHttp.MAX_ATTEMPTS);
        assertThat(sleeps).hasSize(GuardedHttp.MAX_ATTEMPTS - 1);
    }

    @Test
    void honoursRetryAfter() throws Exception {
        server.answer("GET /slow", Answer.withHeader(429, "Retry-After", "3"), Answer.status(200, "ok"));
        http(true).send(OutboundRequest.get(server.uri("/slow")).withBudget(Duration.ofMinutes(1)));
        assertThat(sleeps).containsExactly(Duration.ofSeconds(3));
    }

    @Test
    void aStartingCallIsNotRepeatedAfterAnAnswerThatMayMeanTheWorkStarted() throws Exception {
        server.answer("POST /start", Answer.status(502, "bad gateway"));
        OutboundResponse response =
                http(true).send(OutboundRequest.post(server.uri("/start"), "{}").withBudget(Duration.ofMinutes(1)));
        assertThat(response.status()).isEqualTo(502);
        assertThat(server.requests()).hasSize(1);

        server.answer("POST /busy", Answer.status(503, ""), Answer.status(200, "started"));
        assertThat(http(true)
                        .send(OutboundRequest.post(server.uri("/busy"), "{}").withBudget(Duration.ofMinutes(1)))
                        .body())
                .isEqualTo("started");
    }

    @Test
    void clientErrorsAreReturnedAtOnceAndArePermanent() throws Exception {
        server.answer("GET /missing", Answer.status(404, "no such dag"));
        OutboundResponse response =
                http(true).send(OutboundRequest.get(server.uri("/missing")).withBudget(Duration.ofMinutes(1)));
        assertThat(server.requests()).hasSize(1);
        assertThat(sleeps).isEmpty();
        assertThatThrownBy(() -> response.requireSuccess("GET x"))
                .isInstanceOf(OutboundException.Status.class)
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.PERMANENT);
    }

    @Test
    void aRefusedConnectionIsTransientAndRetriedWithinTheBudget() throws Exception {
        URI closed;
        try (LocalHttpServer gone = LocalHttpServer.start()) {
            closed = gone.uri("/x");
        }
        assertThatThrownBy(
                        () -> http(true).send(OutboundRequest.post(closed, "{}").withBudget(Duration.ofSeconds(1))))
                .isInstanceOf(OutboundException.Network.class)
                .hasMessageStartingWith("POST http://127.0.0.1:")
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(sleeps).containsExactly(Duration.ofMillis(100), Duration.ofMillis(200), Duration.ofMillis(400));
    }

    @Test
    void aFailedLookupIsRetriedLikeAnyNetworkFailure() throws Exception {
        AtomicInteger lookups = new AtomicInteger();
        GuardedHttp http = http(host -> {
            if (lookups.getAndIncrement() == 0) {
                throw new java.net.UnknownHostException(host);
            }
            return List.of(InetAddress.getByName("127.0.0.1"));
        });
        server.answer("POST /start", Answer.status(200, "started"));
        URI uri = URI.create("http://jobs.example.test:" + server.port() + "/start");
        assertThat(http.send(OutboundRequest.post(uri, "{}").withBudget(Duration.ofMinutes(1)))
                        .body())
                .isEqualTo("started");
        assertThat(lookups).hasValue(2);
        assertThat(sleeps).containsExactly(Duration.ofMillis(100));
    }

    @Test
    void aCallThatOutlivesItsTimeoutIsATimeout() {
        server.answer("GET /hang", Answer.hang());
        assertThatThrownBy(() -> http(true)
                        .send(OutboundRequest.get(server.uri("/hang"))
                                .withTimeout(Duration.ofMillis(300))
                                .withRetry(RetryMode.NONE)))
                .isInstanceOf(OutboundException.TimedOut.class)
                .hasMessageEndingWith("no answer within 300 ms")
                .extracting(e -> ((OutboundException) e).category())
                .isEqualTo(FailureCategory.TIMEOUT);
        server.releaseHungRequests();
    }

    @Test
    void redirectsAreNotFollowed() throws Exception {
        server.answer("GET /moved", Answer.withHeader(302, "Location", "http://169.254.169.254/latest/meta-data/"));
        OutboundResponse response = http(true).send(OutboundRequest.get(server.uri("/moved")));
        assertThat(response.status()).isEqualTo(302);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void anInvalidHeaderIsRefusedWithoutEchoingItsValue() {
        assertThatThrownBy(() -> http(true)
                        .send(OutboundRequest.get(server.uri("/x"))
                                .withHeaders(Map.of("X-Token", "s3cr3t\r\nInjected: yes"))))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("header 'X-Token' has an invalid name or value")
                .message()
                .doesNotContain("s3cr3t");
    }

    @Test
    void aRequestCarryingCredentialsIsRefusedBeforeEveryAttemptToAHostTheyMayNotGoTo() throws Exception {
        server.answer("GET /ok", Answer.status(200, "fine"));
        HostRestriction onlyElsewhere = host -> host.equals("jobs.example.com")
                ? java.util.Optional.empty()
                : java.util.Optional.of("may not go to " + host);
        assertThatThrownBy(() ->
                        http(true).send(OutboundRequest.get(server.uri("/ok")).withHosts(onlyElsewhere)))
                .isInstanceOf(OutboundException.Refused.class)
                .hasMessage("GET http://127.0.0.1: may not go to 127.0.0.1");
        assertThat(server.requests()).isEmpty();
        assertThat(http(true)
                        .send(OutboundRequest.get(server.uri("/ok")).withHosts(HostRestriction.NONE))
                        .status())
                .isEqualTo(200);
    }
}
