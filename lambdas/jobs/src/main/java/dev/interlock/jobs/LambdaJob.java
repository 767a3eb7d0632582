package dev.interlock.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.LambdaTrigger;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.InvocationType;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;

/** Invokes a Lambda function synchronously with the configured payload; a normal return completes the run. */
final class LambdaJob {

    private final Supplier<LambdaClient> lambda;

    LambdaJob(Supplier<LambdaClient> lambda) {
        this.lambda = lambda;
    }

    TriggerResult start(LambdaTrigger trigger) throws JobFailure {
        String function = Metadata.requireField(trigger.functionName(), "lambda", "functionName");
        String payload;
        try {
            payload = trigger.payload() == null || trigger.payload().isNull()
                    ? "{}"
                    : InterlockJson.json().writeValueAsString(trigger.payload());
        } catch (JsonProcessingException e) {
            throw new JobFailure("lambda payload cannot be written as JSON", FailureCategory.PERMANENT, e);
        }
        InvokeResponse response = JobFailure.aws(
                "lambda Invoke",
                () -> lambda.get()
                        .invoke(r -> r.functionName(function)
                                .invocationType(InvocationType.REQUEST_RESPONSE)
                                .payload(SdkBytes.fromUtf8String(payload))));
        if (response.functionError() != null) {
            // The function ran and raised: its own error type and message say why (the payload may hold more).
            throw new JobFailure(
                    "lambda " + function + " failed (" + response.functionError() + "): "
                            + errorSummary(response.payload()),
                    FailureCategory.TRANSIENT,
                    null);
        }
        Map<String, String> metadata = new LinkedHashMap<>();
        metadata.put(Metadata.LAMBDA_FUNCTION_NAME, function);
        if (response.executedVersion() != null) {
            metadata.put(Metadata.LAMBDA_EXECUTED_VERSION, response.executedVersion());
        }
        return TriggerResult.completed(metadata);
    }

    /** {@code errorType: errorMessage} from a Lambda error payload, at most 300 characters. */
    private static String errorSummary(SdkBytes payload) {
        if (payload == null) {
            return "no error payload";
        }
        String raw = payload.asUtf8String();
        String summary = raw;
        try {
            JsonNode node = InterlockJson.json().readTree(raw);
            if (node != null && node.isObject()) {
                summary = node.path("errorType").asText("error") + ": "
                        + node.path("errorMessage").asText("");
            }
        } catch (JsonProcessingException e) {
            // Not JSON: the raw text (cut below) is the best description there is.
            summary = raw;
        }
        return summary.length() > 300 ? summary.substring(0, 300) + "…" : summary;
    }
}
