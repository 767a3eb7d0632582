package dev.interlock.evaluation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.store.contract.ManualClock;
import dev.interlock.store.memory.InMemoryProvider;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import dev.interlock.testing.TestTemplates;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.lambda.LambdaClient;

/** {@code lambda:<function>} evaluators through the real SDK client against a local Lambda Invoke endpoint. */
class LambdaEvaluatorTest {

    private static final String INVOKE = "POST /2015-03-31/functions/quality-check/invocations";

    private final AwsProtocolStub stub = AwsProtocolStub.start();
    private final LambdaClient client = stub.client(LambdaClient.builder());
    private final ManualClock clock = new ManualClock(Instant.parse("2026-03-01T10:00:00Z"));
    private final TraitEvaluation evaluation = new TraitEvaluation(
            new InMemoryProvider(clock),
            new HttpEvaluator(null, "", TestTemplates.none()),
            new LambdaEvaluator(() -> client),
            clock);

    @AfterEach
    void stop() {
        client.close();
        stub.close();
    }

    private TraitResult evaluate() {
        return evaluation.evaluate(new ResolvedTrait(
                "orders",
                "daily",
                LocalDate.parse("2026-03-01"),
                "row-count",
                "lambda:quality-check",
                Map.of("minRows", 100),
                10,
                0,
                true));
    }

    @Test
    void theFunctionReceivesTheEvaluatorInputAndItsAnswerIsTheResult() {
        stub.on(INVOKE, Reply.raw("{\"status\":\"PASS\",\"value\":{\"rows\":1234}}", Map.of()));

        TraitResult result = evaluate();

        assertThat(result.status()).isEqualTo(TraitStatus.PASS);
        assertThat(result.value()).isEqualTo(Map.of("rows", 1234));
        AwsProtocolStub.Recorded sent = stub.requests(INVOKE).getFirst();
        assertThat(sent.json())
                .isEqualTo(InterlockJson.tree(
                        "{\"pipelineId\":\"orders\",\"traitType\":\"row-count\",\"config\":{\"minRows\":100}}"));
        assertThat(sent.headers()).containsEntry("X-Amz-Invocation-Type", "RequestResponse");
    }

    @Test
    void aFunctionErrorIsAnEvaluatorCrash() {
        stub.on(
                INVOKE,
                Reply.raw(
                        "{\"errorType\":\"KeyError\",\"errorMessage\":\"'bucket'\"}",
                        Map.of("X-Amz-Function-Error", "Unhandled")));

        TraitResult result = evaluate();

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.EVALUATOR_CRASH);
        assertThat(result.reason())
                .isEqualTo("EVALUATOR_CRASH: lambda quality-check failed (Unhandled): KeyError: 'bucket'");
    }

    @Test
    void serviceErrorsAreClassifiedByType() {
        stub.on(INVOKE, Reply.error(404, "ResourceNotFoundException", "Function not found"));
        TraitResult missing = evaluate();
        stub.on(INVOKE, Reply.error(429, "TooManyRequestsException", "Rate exceeded"));
        TraitResult throttled = evaluate();

        assertThat(missing.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(missing.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(missing.reason())
                .isEqualTo("EVALUATOR_UNREACHABLE: lambda Invoke quality-check failed: "
                        + "ResourceNotFoundException: Function not found (status 404)");
        assertThat(throttled.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(throttled.failureCategory()).isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void anAnswerThatIsNotAnEvaluatorOutputIsAnError() {
        stub.on(INVOKE, Reply.raw("\"ok\"", Map.of()));

        TraitResult result = evaluate();

        assertThat(result.status()).isEqualTo(TraitStatus.ERROR);
        assertThat(result.failureCategory()).isEqualTo(FailureCategory.PERMANENT);
        assertThat(result.reason())
                .isEqualTo("EVALUATOR_OUTPUT_INVALID: lambda quality-check: expected a JSON object, got: \"ok\"");
    }
}
