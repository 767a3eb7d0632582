package dev.interlock.evaluation;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.runtime.aws.AwsFailures;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/**
 * Calls a Lambda evaluator ({@code lambda:<function>}) synchronously with {@code {pipelineId, traitType, config}};
 * its return value is read like an HTTP evaluator's body. A function error, an SDK failure or an invalid answer is
 * an ERROR verdict with a category.
 */
public final class LambdaEvaluator {

    private final Supplier<LambdaClient> lambda;

    /** The client is supplied lazily: a function whose traits never use Lambda evaluators never creates it. */
    public LambdaEvaluator(Supplier<LambdaClient> lambda) {
        this.lambda = lambda;
    }

    Verdict evaluate(String function, EvaluatorInput input, Duration timeout) {
        InvokeResponse response;
        try {
            response = lambda.get()
                    .invoke(r -> r.functionName(function)
                            .invocationType(InvocationType.REQUEST_RESPONSE)
                            .payload(SdkBytes.fromUtf8String(InterlockJson.write(input)))
                            .overrideConfiguration(o -> o.apiCallTimeout(timeout)));
        } catch (SdkException e) {
            FailureCategory category = AwsFailures.classify(e);
            String prefix = category == FailureCategory.TIMEOUT ? "EVALUATOR_TIMEOUT: " : "EVALUATOR_UNREACHABLE: ";
            return Verdict.error(prefix + AwsFailures.describe("lambda Invoke " + function, e), category);
        }
        String payload = response.payload() == null ? "" : response.payload().asUtf8String();
        if (response.functionError() != null) {
            // The evaluator itself raised: its error type and message say why.
            return Verdict.error(
                    "EVALUATOR_CRASH: lambda " + function + " failed (" + response.functionError() + "): "
                            + errorSummary(payload),
                    FailureCategory.EVALUATOR_CRASH);
        }
        try {
            return EvaluatorAnswer.parse(payload);
        } catch (EvaluatorAnswer.InvalidAnswer e) {
            return Verdict.error(
                    "EVALUATOR_OUTPUT_INVALID: lambda " + function + ": " + e.getMessage(),
                    // Not an evaluator answer: asking again gets the same answer, so waiting cannot help.
                    FailureCategory.PERMANENT);
        }
    }

    /** {@code errorType: errorMessage} of a Lambda error payload, else the payload itself, shortened. */
    private static String errorSummary(String payload) {
        try {
            JsonNode node = InterlockJson.json().readTree(payload);
            if (node != null && node.isObject() && node.has("errorMessage")) {
                return node.path("errorType").asText("Error") + ": "
                        + node.path("errorMessage").asText("");
            }
        } catch (JsonProcessingException e) {
            // Not JSON: the raw payload below is the best description there is.
            return EvaluatorAnswer.snippet(payload);
        }
        return EvaluatorAnswer.snippet(payload);
    }
}
