package dev.interlock.deps.trigger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.deps.outbound.GuardedHttp;
import dev.interlock.deps.outbound.InterlockVariables;
import dev.interlock.deps.outbound.OutboundException;
import dev.interlock.deps.outbound.OutboundRequest;
import dev.interlock.deps.outbound.OutboundResponse;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** The HTTP plumbing the http, Airflow and Databricks jobs share: expansion, JSON answers, typed failures. */
final class HttpCalls {

    private final GuardedHttp http;
    private final InterlockVariables variables;

    HttpCalls(GuardedHttp http, InterlockVariables variables) {
        this.http = http;
        this.variables = variables;
    }

    /** Configured headers with {@code INTERLOCK_*} references expanded, after a JSON content type and accept. */
    Map<String, String> jsonHeaders(Map<String, String> configured) throws JobFailure {
        return headers(configured, true);
    }

    /** Headers for a poll: no body, so no content type. */
    Map<String, String> pollHeaders(Map<String, String> configured) throws JobFailure {
        return headers(configured, false);
    }

    private Map<String, String> headers(Map<String, String> configured, boolean withBody) throws JobFailure {
        Map<String, String> headers = new LinkedHashMap<>();
        if (withBody) {
            headers.put("Content-Type", "application/json");
        }
        headers.put("Accept", "application/json");
        try {
            // A configured header replaces the default of the same name, whatever its case.
            variables.expandValues(configured).forEach((k, v) -> {
                headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
                headers.put(k, v);
            });
        } catch (OutboundException.Refused e) {
            throw JobFailure.of(e);
        }
        return headers;
    }

    String expand(String text) throws JobFailure {
        try {
            return variables.expand(text);
        } catch (OutboundException.Refused e) {
            throw JobFailure.of(e);
        }
    }

    /** Sends a request and returns whatever status it answered with. */
    OutboundResponse exchange(OutboundRequest request) throws JobFailure {
        try {
            return http.send(request);
        } catch (OutboundException e) {
            throw JobFailure.of(e);
        }
    }

    /** Sends a request and insists on a 2xx. */
    OutboundResponse send(OutboundRequest request) throws JobFailure {
        return requireSuccess(exchange(request), request);
    }

    static OutboundResponse requireSuccess(OutboundResponse response, OutboundRequest request) throws JobFailure {
        try {
            return response.requireSuccess(request.method() + " " + redacted(request.uri()));
        } catch (OutboundException e) {
            throw JobFailure.of(e);
        }
    }

    /** Sends a request, insists on a 2xx and parses the body as a JSON object. */
    JsonNode sendForJson(OutboundRequest request) throws JobFailure {
        return json(send(request), request.method() + " " + redacted(request.uri()));
    }

    static JsonNode json(OutboundResponse response, String what) throws JobFailure {
        try {
            JsonNode node = InterlockJson.json().readTree(response.body());
            if (node == null || !node.isObject()) {
                throw new JobFailure(what + " answered " + response.status() + " without a JSON object",
                        FailureCategory.TRANSIENT, null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new JobFailure(what + " answered " + response.status() + " with invalid JSON: " + response.bodySnippet(),
                    FailureCategory.TRANSIENT, e);
        }
    }

    /** A base URL (trailing slashes removed) followed by a path; a malformed URL is a configuration error. */
    static URI uri(String base, String field, String type, String path) throws JobFailure {
        String trimmed = Metadata.requireField(base, type, field).replaceAll("/+$", "");
        try {
            URI uri = URI.create(trimmed + path);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw JobFailure.permanent(type + " '" + field + "' must be an http(s) URL with a host");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw JobFailure.permanent(type + " '" + field + "' is not a valid URL");
        }
    }

    /** One path segment, percent-encoded (Airflow run ids contain ':' and '+'). */
    static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    static String redacted(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }
}
