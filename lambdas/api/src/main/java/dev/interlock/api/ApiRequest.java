package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One HTTP request as the API sees it, from API Gateway's proxy event or the local runtime. The body stays raw
 * (possibly base64) so that decoding problems become 4xx answers rather than exceptions here.
 *
 * @param headers header names in lower case
 * @param caller  who called (the IAM user ARN under IAM auth), recorded as the origin of markers
 */
public record ApiRequest(String method, String path, Map<String, String> query, Map<String, String> headers,
                         String body, boolean base64, String caller) {

    public ApiRequest {
        method = method == null ? "" : method.toUpperCase(Locale.ROOT);
        path = path == null || path.isEmpty() ? "/" : path;
        query = query == null ? Map.of() : Map.copyOf(withoutNulls(query, false));
        headers = headers == null ? Map.of() : Map.copyOf(withoutNulls(headers, true));
        caller = caller == null || caller.isBlank() ? "api" : caller;
    }

    /** A request without caller identity (tests, the local runtime). */
    public static ApiRequest of(String method, String path, Map<String, String> query, Map<String, String> headers, String body) {
        return new ApiRequest(method, path, query, headers, body, false, null);
    }

    /** Reads API Gateway's REST proxy event; the actual path is routed, so a greedy proxy resource works too. */
    public static ApiRequest from(APIGatewayProxyRequestEvent event) {
        String caller = null;
        if (event.getRequestContext() != null && event.getRequestContext().getIdentity() != null) {
            var identity = event.getRequestContext().getIdentity();
            caller = identity.getUserArn() != null ? identity.getUserArn() : identity.getCaller();
        }
        return new ApiRequest(event.getHttpMethod(), event.getPath(), event.getQueryStringParameters(), event.getHeaders(),
                event.getBody(), Boolean.TRUE.equals(event.getIsBase64Encoded()), caller);
    }

    /** A header, by case-insensitive name. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    /** A query parameter. */
    public Optional<String> queryParameter(String name) {
        return Optional.ofNullable(query.get(name));
    }

    private static Map<String, String> withoutNulls(Map<String, String> in, boolean lowerCaseKeys) {
        Map<String, String> out = new LinkedHashMap<>();
        in.forEach((k, v) -> {
            if (k != null && v != null) {
                out.put(lowerCaseKeys ? k.toLowerCase(Locale.ROOT) : k, v);
            }
        });
        return out;
    }
}
