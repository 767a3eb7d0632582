package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyResponseEvent;
import dev.interlock.model.json.InterlockJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One HTTP answer: status, headers and a JSON body (or none). */
public record ApiResponse(int status, Map<String, String> headers, String body) {

    public static final String JSON = "application/json";
    public static final String PROBLEM_JSON = "application/problem+json";

    public ApiResponse {
        headers = Map.copyOf(headers);
    }

    /** A JSON document. */
    public static ApiResponse json(int status, Object document) {
        return new ApiResponse(status, Map.of("Content-Type", JSON), InterlockJson.write(document));
    }

    /** 204 without a body. */
    public static ApiResponse noContent() {
        return new ApiResponse(204, Map.of(), null);
    }

    /** A problem document; {@code allow} fills the Allow header of a 405. */
    public static ApiResponse problem(Problem problem, List<String> allow) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", PROBLEM_JSON);
        if (!allow.isEmpty()) {
            headers.put("Allow", String.join(", ", allow));
        }
        return new ApiResponse(problem.status(), headers, InterlockJson.write(problem));
    }

    /** API Gateway's proxy response. */
    public APIGatewayProxyResponseEvent toEvent() {
        return new APIGatewayProxyResponseEvent()
                .withStatusCode(status)
                .withHeaders(headers)
                .withBody(body)
                .withIsBase64Encoded(false);
    }
}
