package dev.interlock.api;

import com.amazonaws.services.lambda.runtime.events.APIGatewayProxyRequestEvent;
import dev.interlock.model.json.ValidationError;
import java.util.LinkedHashMap;
import java.util.List;
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
public record ApiRequest(
        String method,
        String path,
        Map<String, String> query,
        Map<String, String> headers,
        String body,
        boolean base64,
        String caller) {

    public ApiRequest {
        method = method == null ? "" : method.toUpperCase(Locale.ROOT);
        path = path == null || path.isEmpty() ? "/" : path;
        query = query == null ? Map.of() : Map.copyOf(withoutNulls(query, false));
        headers = headers == null ? Map.of() : Map.copyOf(withoutNulls(headers, true));
        caller = caller == null || caller.isBlank() ? "api" : caller;
    }

    /** A request without caller identity (tests, the local runtime). */
    public static ApiRequest of(
            String method, String path, Map<String, String> query, Map<String, String> headers, String body) {
        return new ApiRequest(method, path, query, headers, body, false, null);
    }

    /** Reads API Gateway's REST proxy event, per-route resources and a greedy proxy resource alike. */
    public static ApiRequest from(APIGatewayProxyRequestEvent event) {
        String caller = null;
        if (event.getRequestContext() != null && event.getRequestContext().getIdentity() != null) {
            var identity = event.getRequestContext().getIdentity();
            caller = identity.getUserArn() != null ? identity.getUserArn() : identity.getCaller();
        }
        return new ApiRequest(
                event.getHttpMethod(),
                routedPath(event),
                event.getQueryStringParameters(),
                event.getHeaders(),
                event.getBody(),
                Boolean.TRUE.equals(event.getIsBase64Encoded()),
                caller);
    }

    /**
     * The path to route: the matched resource with its (decoded) path parameters put back, percent-encoded. Unlike the
     * event's {@code path} it carries no custom-domain base path, and with a greedy {@code /{proxy+}} resource it is
     * exactly the proxied part. Without a resource (local runtime) the event's path is used.
     */
    static String routedPath(APIGatewayProxyRequestEvent event) {
        String resource = event.getResource();
        Map<String, String> parameters = event.getPathParameters() == null ? Map.of() : event.getPathParameters();
        if (resource == null || resource.isBlank()) {
            return event.getPath();
        }
        StringBuilder path = new StringBuilder();
        for (String segment : resource.split("/", -1)) {
            if (segment.isEmpty()) {
                continue;
            }
            path.append('/');
            if (segment.startsWith("{") && segment.endsWith("}")) {
                boolean greedy = segment.endsWith("+}");
                String name = segment.substring(1, segment.length() - (greedy ? 2 : 1));
                String value = parameters.get(name);
                if (value == null) {
                    return event.getPath();
                }
                path.append(greedy ? encodeEach(value) : encode(value));
            } else {
                path.append(segment);
            }
        }
        return path.isEmpty() ? "/" : path.toString();
    }

    private static String encodeEach(String greedyValue) {
        StringBuilder out = new StringBuilder();
        String[] parts = greedyValue.split("/", -1);
        for (int i = 0; i < parts.length; i++) {
            out.append(i == 0 ? "" : "/").append(encode(parts[i]));
        }
        return out.toString();
    }

    /** Percent-encodes everything but unreserved characters, so the router's decoding gives the value back. */
    private static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xFF));
            }
        }
        return out.toString();
    }

    /** A header, by case-insensitive name. */
    public Optional<String> header(String name) {
        return Optional.ofNullable(headers.get(name.toLowerCase(Locale.ROOT)));
    }

    /** A query parameter. */
    public Optional<String> queryParameter(String name) {
        return Optional.ofNullable(query.get(name));
    }

    /** A yes-or-no query parameter ({@code force}): {@code true} or {@code false}, absent is false; else an error. */
    public boolean flag(String name, List<ValidationError> errors) {
        Optional<String> given = queryParameter(name).map(String::strip);
        if (given.isEmpty() || given.get().equals("false")) {
            return false;
        }
        if (given.get().equals("true")) {
            return true;
        }
        errors.add(new ValidationError("query." + name, "must be true or false, got '" + given.get() + "'"));
        return false;
    }

    /**
     * A free-text query parameter for an audit record ({@code reason} of an unlock or an unmute): trimmed, null when
     * absent or blank, an error naming {@code query.<name>} when longer than {@code max}.
     */
    public String text(String name, int max, List<ValidationError> errors) {
        String text = queryParameter(name)
                .map(String::strip)
                .filter(r -> !r.isEmpty())
                .orElse(null);
        if (text != null && text.length() > max) {
            errors.add(new ValidationError(
                    "query." + name, "must be at most " + max + " characters, got " + text.length()));
        }
        return text;
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
