package dev.interlock.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.net.HostResolver;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.store.Backoff;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.LocalHttpServer;
import dev.interlock.testing.LocalHttpServer.Answer;
import dev.interlock.testing.TestTemplates;
import java.io.ByteArrayOutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** HTTP evaluators against a real JDK HTTP server on 127.0.0.1 (private URLs allowed, as in the local runtime). */
class HttpEvaluatorTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");

    private final LocalHttpServer server = LocalHttpServer.start();
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final InMemoryProvider provider = new InMemoryProvider(clock);

    @AfterEach
    void stop() {
        server.close();
    }

    /** Retries wait by moving the clock; the jitter always picks half the ceiling, so the schedule is exact. */
    private TraitEvaluation evaluation(boolean allowPrivate, String baseUrl) {
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(allowPrivate, HostResolver.system()),
                clock,
                new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance));
        return new TraitEvaluation(
                provider,
                new HttpEvaluator(http, baseUrl, TestTemplates.none()),
                new LambdaEvaluator(() -> null),
                clock);
    }

    private TraitResult evaluate(String evaluator, int timeoutSeconds) {
        return evaluation(true, "").evaluate(trait(evaluator, timeoutSeconds));
    }

    private static ResolvedTrait trait(String evaluator, int timeoutSeconds) {
        return new ResolvedTrait(
                "orders",
                "daily",
                DATE,
                "source-freshness",
                evaluator,
                Map.of("maxLagSeconds", 60, "date", "2026-03-01", "scheduleId", "daily"),
                timeoutSeconds,
                300,
                true);
    }

    private String url(String path) {
        return server.uri(path).toString();
    }

    @Test
    void passPostsTheEvaluatorInputAndKeepsTheValue() {
        server.answer("POST /freshness", Answer.json(200, "{\"status\":\"PASS\",\"value\":{\"lag\":12}}"));

        TraitResult result = evaluate(url("/freshness"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(result.value()).isEqualTo(Map.of("lag", 12));
        assertThat(result.reason()).isNull();
        assertThat(result.failureCategory()).isNull();
        LocalHttpServer.Request sent = server.requests().getFirst();
        assertThat(sent.headers()).containsEntry("Content-Type", "application/json");
        JsonNode body = InterlockJson.tree(sent.body());
        assertThat(body)
                .isEqualTo(InterlockJson.tree("{\"pipelineId\":\"orders\",\"traitType\":\"source-freshness\","
                        + "\"config\":{\"maxLagSeconds\":60,\"date\":\"2026-03-01\",\"scheduleId\":\"daily\"}}"));
    }

    private TraitEvaluation evaluationWithCredentials() {
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(true, HostResolver.system()),
                clock,
                new Backoff(8, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.5, clock::advance));
        return new TraitEvaluation(
                provider,
                new HttpEvaluator(
                        http,
                        "",
                        TestTemplates.of(Map.of(
                                "INTERLOCK_CHECKS_TOKEN",
                                "checks-token-value",
                                "INTERLOCK_OTHER_TOKEN",
                                "other-token-value",
                                "INTERLOCK_SECRET_HOSTS",
                                "INTERLOCK_CHECKS_*=127.0.0.1;INTERLOCK_OTHER_*=elsewhere.example.com"))),
                new LambdaEvaluator(() -> null),
                clock);
    }

    private static ResolvedTrait withHeaders(String evaluator, Map<String, String> headers) {
        return new ResolvedTrait("orders", "h07", DATE, "source-freshness", evaluator, Map.of(), 5, 300, true, headers);
    }

    @Test
    void theTraitsHeadersAreRenderedAtCallTimeWithTheExecutionsValuesAndCredentials() {
        server.answer("POST /freshness", Answer.json(200, "{\"status\":\"PASS\"}"));

        TraitResult result = evaluationWithCredentials()
                .evaluate(withHeaders(
                        url("/freshness"),
                        Map.of("Authorization", "Bearer ${INTERLOCK_CHECKS_TOKEN}", "X-Window", "${date}T${hour}")));

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(server.requests().getFirst().headers())
                .containsEntry("Authorization", "Bearer checks-token-value")
                .containsEntry("X-Window", "2026-03-01T07")
                .containsEntry("Content-Type", "application/json");
    }

    @Test
    void aCredentialForAnotherHostIsAnErrorAndNothingIsSent() {
        server.answer("POST /freshness", Answer.json(200, "{\"status\":\"PASS\"}"));

        TraitResult result = evaluationWithCredentials()
                .evaluate(withHeaders(url("/freshness"), Map.of("Authorization", "Bearer ${INTERLOCK_OTHER_TOKEN}")));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("EVALUATOR_REFUSED: ${INTERLOCK_OTHER_TOKEN} may not be sent to host "
                        + "'127.0.0.1': INTERLOCK_SECRET_HOSTS allows it only to elsewhere.example.com");
        assertThat(server.requests()).isEmpty();
    }

    @Test
    void aCredentialTheEvaluatorEchoesInItsErrorIsMaskedInTheStoredReason() {
        server.answer("POST /freshness", Answer.status(403, "token checks-token-value is revoked"));

        TraitResult result = evaluationWithCredentials()
                .evaluate(withHeaders(url("/freshness"), Map.of("Authorization", "Bearer ${INTERLOCK_CHECKS_TOKEN}")));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.reason()).contains("token *** is revoked").doesNotContain("checks-token-value");
    }

    @Test
    void failAndStaleAreTakenAsTheEvaluatorSaysWithTheirReasons() {
        server.answer(
                "POST /count",
                Answer.json(200, "{\"status\":\"FAIL\",\"reason\":\"only 3 rows\",\"value\":{\"count\":3}}"));
        server.answer("POST /fresh", Answer.json(200, "{\"Status\":\"STALE\",\"Reason\":\"lag 900s\"}"));

        TraitResult fail = evaluate(url("/count"), 5);
        TraitResult stale = evaluate(url("/fresh"), 5);

        assertThat(fail.status()).isEqualTo(TraitStatus.FAIL);
        assertThat(fail.reason()).isEqualTo("only 3 rows");
        assertThat(fail.value()).isEqualTo(Map.of("count", 3));
        assertThat(fail.failureCategory()).isNull();
        assertThat(stale.status()).isEqualTo(TraitStatus.STALE);
        assertThat(stale.reason()).isEqualTo("lag 900s");
    }

    @Test
    void aRelativePathIsResolvedAgainstTheBaseUrl() {
        server.answer("POST /evaluate/record-count", Answer.json(200, "{\"status\":\"PASS\"}"));

        TraitResult result = evaluation(true, url("/evaluate/")).evaluate(trait("/record-count", 5));

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(server.requests())
                .extracting(LocalHttpServer.Request::path)
                .containsExactly("/evaluate/record-count");
    }

    @Test
    void aRelativePathWithoutBaseUrlIsAPermanentError() {
        TraitResult result = evaluation(true, "").evaluate(trait("record-count", 5));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("evaluator path 'record-count' is not a URL and EVALUATOR_BASE_URL is not set");
    }

    @Test
    void a503ThenSuccessIsRetriedWithinTheTimeout() {
        server.answer(
                "POST /flaky",
                Answer.status(503, "busy"),
                Answer.status(502, "gateway"),
                Answer.json(200, "{\"status\":\"PASS\"}"));

        TraitResult result = evaluate(url("/flaky"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(server.requests()).hasSize(3);
        // Half of the 200 ms and 400 ms ceilings, waited on the injected clock.
        assertThat(clock.instant()).isEqualTo(Instant.parse("2026-03-01T10:00:00.300Z"));
    }

    @Test
    void a503UntilTheTimeoutIsATransientErrorNotAFail() {
        server.answer("POST /down", Answer.status(503, "maintenance"));

        TraitResult result = evaluate(url("/down"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(result.reason())
                .isEqualTo("EVALUATOR_HTTP_ERROR: POST " + url("/down") + " returned status 503: maintenance");
        // Waits of 100, 200, 400, 800 and 1600 ms fit in 5 s; the next (3200 ms) would not.
        assertThat(server.requests()).hasSize(6);
    }

    @Test
    void a5xxThatIsNotRetryableIsATransientErrorAtOnce() {
        server.answer("POST /broken", Answer.status(500, "stack trace"));

        TraitResult result = evaluate(url("/broken"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void a4xxIsAPermanentError() {
        server.answer("POST /gone", Answer.status(404, "no such evaluator"));

        TraitResult result = evaluate(url("/gone"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("EVALUATOR_HTTP_ERROR: POST " + url("/gone") + " returned status 404: no such evaluator");
        assertThat(server.requests()).hasSize(1);
    }

    @Test
    void invalidJsonIsAnErrorWithCategoryNeverAFail() {
        server.answer("POST /html", Answer.status(200, "<html>ok</html>"));

        TraitResult result = evaluate(url("/html"), 5);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .startsWith("EVALUATOR_OUTPUT_INVALID: POST " + url("/html") + ": not JSON")
                .endsWith("<html>ok</html>");
    }

    @Test
    void anUnknownStatusOrAMissingStatusIsAnInvalidAnswer() {
        server.answer("POST /maybe", Answer.json(200, "{\"status\":\"MAYBE\"}"));
        server.answer("POST /nostatus", Answer.json(200, "{\"value\":{}}"));

        TraitResult maybe = evaluate(url("/maybe"), 5);
        TraitResult none = evaluate(url("/nostatus"), 5);

        assertThat(maybe.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(maybe.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(maybe.reason())
                .isEqualTo("EVALUATOR_OUTPUT_INVALID: POST " + url("/maybe")
                        + ": unknown trait status 'MAYBE'; allowed: PASS, FAIL, STALE, ERROR");
        assertThat(none.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(none.reason())
                .isEqualTo("EVALUATOR_OUTPUT_INVALID: POST " + url("/nostatus")
                        + ": no string field 'status' in: {\"value\":{}}");
    }

    @Test
    void anEvaluatorThatNeverAnswersIsATimeoutError() {
        server.answer("POST /slow", Answer.hang());
        // A real clock and a single attempt: the one-second call timeout spends the whole trait timeout.
        Clock real = Clock.systemUTC();
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(true, HostResolver.system()),
                real,
                new Backoff(1, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.0, d -> {}));
        TraitEvaluation evaluation = new TraitEvaluation(
                new InMemoryProvider(real),
                new HttpEvaluator(http, "", TestTemplates.none()),
                new LambdaEvaluator(() -> null),
                real);

        TraitResult result = evaluation.evaluate(trait(url("/slow"), 1));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(result.reason()).startsWith("EVALUATOR_TIMEOUT: POST " + url("/slow"));
    }

    @Test
    void theInvocationDeadlineBoundsAnEvaluatorWhoseTimeoutIsLongerSoTheResultIsStillStored() throws Exception {
        server.answer("POST /slow", Answer.hang());
        // One attempt; the hand-moved clock makes the computed call timeout exact while the HTTP client waits for real.
        GuardedHttp http = new GuardedHttp(
                new UrlGuard(true, HostResolver.system()),
                clock,
                new Backoff(1, Duration.ofMillis(200), Duration.ofSeconds(10), () -> 0.0, d -> {}));
        TraitEvaluation evaluation = new TraitEvaluation(
                provider, new HttpEvaluator(http, "", TestTemplates.none()), new LambdaEvaluator(() -> null), clock);
        String in = "{\"pipelineId\":\"orders\",\"scheduleId\":\"daily\",\"date\":\"2026-03-01\","
                + "\"traitType\":\"source-freshness\",\"evaluator\":\"" + url("/slow") + "\",\"config\":{},"
                + "\"timeout\":60,\"ttl\":0,\"required\":true}";
        // 4 s left in the invocation (what the evaluator's handler passes from its Lambda context): the evaluator gets
        // 1 s of it, not the trait's 60 s.
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        InterlockJson.json()
                .writeValue(
                        out,
                        evaluation
                                .evaluate(InterlockJson.read(in, ResolvedTrait.class), Duration.ofMillis(4000))
                                .verdict());

        assertThat(out.toString(StandardCharsets.UTF_8))
                .contains("\"status\":\"ERROR\"")
                .contains("\"failureCategory\":\"TIMEOUT\"")
                .contains("EVALUATOR_TIMEOUT: POST " + url("/slow") + ": no answer within 1000 ms");
    }

    @Test
    void aConnectionThatIsRefusedIsATransientError() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort();
        }

        TraitResult result = evaluate("http://127.0.0.1:" + closedPort + "/x", 1);

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(result.reason()).startsWith("EVALUATOR_UNREACHABLE: POST http://127.0.0.1:" + closedPort + "/x");
    }

    @Test
    void loopbackIsRefusedUnlessPrivateUrlsAreAllowed() {
        server.answer("POST /freshness", Answer.json(200, "{\"status\":\"PASS\"}"));

        TraitResult result = evaluation(false, "").evaluate(trait(url("/freshness"), 5));

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason()).startsWith("EVALUATOR_REFUSED: address 127.0.0.1 is loopback");
        assertThat(server.requests()).isEmpty();
    }
}
