package dev.interlock.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundException;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundResponse;
import dev.interlock.runtime.outbound.OutboundTemplates;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The HTTP plumbing the http, Airflow and Databricks jobs share: rendering templates into requests, JSON answers,
 * typed failures.
 */
final class HttpCalls {

    private final GuardedHttp http;
    private final OutboundTemplates templates;

    HttpCalls(GuardedHttp http, OutboundTemplates templates) {
        this.http = http;
        this.templates = templates;
    }

    /** A rendering of the requests of one run (see {@link OutboundTemplates.Rendering}). */
    OutboundTemplates.Rendering rendering(TemplateValues values) {
        return templates.rendering(values);
    }

    /** Configured headers rendered for {@code target}, after a JSON content type and accept. */
    static Map<String, String> jsonHeaders(
            OutboundTemplates.Rendering rendering, Map<String, String> configured, URI target) throws JobFailure {
        return headers(rendering, configured, target, true);
    }

    /** Headers for a poll: no body, so no content type. */
    static Map<String, String> pollHeaders(
            OutboundTemplates.Rendering rendering, Map<String, String> configured, URI target) throws JobFailure {
        return headers(rendering, configured, target, false);
    }

    private static Map<String, String> headers(
            OutboundTemplates.Rendering rendering, Map<String, String> configured, URI target, boolean withBody)
            throws JobFailure {
        Map<String, String> headers = new LinkedHashMap<>();
        if (withBody) {
            headers.put("Content-Type", "application/json");
        }
        headers.put("Accept", "application/json");
        try {
            // A configured header replaces the default of the same name, whatever its case.
            rendering.headers(configured, target).forEach((k, v) -> {
                headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
                headers.put(k, v);
            });
        } catch (OutboundException e) {
            throw JobFailure.of(e);
        }
        return headers;
    }

    /** A body (or any header-like text) rendered for {@code target}, credentials included. */
    static String text(OutboundTemplates.Rendering rendering, String template, URI target, String what)
            throws JobFailure {
        try {
            return rendering.text(template, target, what);
        } catch (OutboundException e) {
            throw JobFailure.of(e);
        }
    }

    /** A template of execution values only (a URL). */
    static String plain(OutboundTemplates.Rendering rendering, String template, String what) throws JobFailure {
        if (template == null) {
            return null;
        }
        try {
            return rendering.plain(template, what);
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
                throw new JobFailure(
                        what + " answered " + response.status() + " without a JSON object",
                        FailureCategory.TRANSIENT,
                        null);
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new JobFailure(
                    what + " answered " + response.status() + " with invalid JSON: " + response.bodySnippet(),
                    FailureCategory.TRANSIENT,
                    e);
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
