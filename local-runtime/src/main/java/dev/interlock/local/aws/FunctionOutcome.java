package dev.interlock.local.aws;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import java.nio.charset.StandardCharsets;

/**
 * The result of invoking a local function the way Lambda reports it: a payload, or a function error whose body is
 * {@code {"errorType","errorMessage","stackTrace"}} and whose type Step Functions uses as the error name.
 */
public record FunctionOutcome(byte[] payload, String errorType, String errorMessage) {

    private static final ObjectMapper JSON = InterlockJson.json();

    public static FunctionOutcome invoke(FunctionRegistry registry, String name, byte[] payload, long timeoutMillis) {
        LocalFunction fn = registry.find(name).orElseThrow(() -> new FunctionNotFoundException(name));
        try {
            byte[] out = fn.invoke(payload, new LocalContext(LocalArns.functionName(name), timeoutMillis));
            return new FunctionOutcome(out.length == 0 ? "null".getBytes(StandardCharsets.UTF_8) : out, null, null);
        } catch (Exception | Error e) {
            return new FunctionOutcome(null, e.getClass().getName(), String.valueOf(e.getMessage()));
        }
    }

    public boolean failed() {
        return errorType != null;
    }

    /** Lambda's error body. */
    public byte[] errorBody() {
        ObjectNode n = JSON.createObjectNode();
        n.put("errorMessage", errorMessage);
        n.put("errorType", errorType);
        n.putArray("stackTrace");
        return n.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** No function of that name is registered (Lambda's ResourceNotFoundException). */
    public static final class FunctionNotFoundException extends RuntimeException {
        public FunctionNotFoundException(String name) {
            super("Function not found: " + LocalArns.function(LocalArns.functionName(name)));
        }
    }
}
