package dev.interlock.evaluation;

import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundException;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundResponse;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.RetryMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Calls an HTTP evaluator (docs/pipeline-reference.md): POST {@code {pipelineId, traitType, config}} through the guarded client, retrying
 * 429/502/503/504, connection failures and timeouts with backoff while the trait timeout lasts, with the trait's
 * headers rendered at call time (execution values and credentials the deployment lets go to the evaluator's host).
 * Every way the call can go wrong is an ERROR verdict with a category, never a FAIL.
 */
public final class HttpEvaluator {

    private final GuardedHttp http;
    private final String baseUrl;
    private final OutboundTemplates templates;

    /**
     * @param http      the guarded HTTP client (URL guard, retries)
     * @param baseUrl   {@code EVALUATOR_BASE_URL}, the base of relative evaluator paths; blank when not configured
     * @param templates renders the trait's header templates
     */
    public HttpEvaluator(GuardedHttp http, String baseUrl, OutboundTemplates templates) {
        this.http = http;
        this.baseUrl = baseUrl == null ? "" : baseUrl.trim();
        this.templates = templates;
    }

    /** Evaluates at a path relative to the base URL (trailing and leading slashes are not doubled). */
    Verdict evaluateRelative(String path, EvaluatorInput input, Duration timeout, Request request) {
        if (baseUrl.isEmpty()) {
            return Verdict.error(
                    "evaluator path '" + path + "' is not a URL and EVALUATOR_BASE_URL is not set",
                    FailureCategory.PERMANENT);
        }
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        String relative = path.startsWith("/") ? path.substring(1) : path;
        try {
            return evaluate(new URI(base + "/" + relative), input, timeout, request);
        } catch (URISyntaxException e) {
            return Verdict.error(
                    "EVALUATOR_BASE_URL joined with '" + path + "' is not a valid URL: " + e.getReason(),
                    FailureCategory.PERMANENT);
        }
    }

    /**
     * The trait's header templates and the values they take.
     *
     * @param values the execution's values ({@code runId} is null: no run exists while traits are evaluated)
     */
    record Request(Map<String, String> headers, TemplateValues values) {}

    /** Evaluates at an absolute http(s) URL. */
    Verdict evaluate(URI url, EvaluatorInput input, Duration timeout, Request call) {
        OutboundTemplates.Rendering rendering = templates.rendering(call.values());
        Verdict verdict = evaluate(url, input, timeout, call, rendering);
        // A server may echo a header back in its error body: no credential value goes into a stored reason.
        return verdict.reason() == null ? verdict : verdict.withReason(rendering.scrub(verdict.reason()));
    }

    private Verdict evaluate(
            URI url, EvaluatorInput input, Duration timeout, Request call, OutboundTemplates.Rendering rendering) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Content-Type", "application/json");
        headers.put("Accept", "application/json");
        try {
            rendering.headers(call.headers(), url).forEach((k, v) -> {
                headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
                headers.put(k, v);
            });
        } catch (OutboundException e) {
            return Verdict.error("EVALUATOR_REFUSED: " + e.getMessage(), e.category());
        }
        // An evaluator only reads, so every retryable failure may be retried (unlike a trigger, which starts work).
        OutboundRequest request = new OutboundRequest(
                        "POST", url, headers, InterlockJson.write(input), timeout, timeout, RetryMode.IDEMPOTENT)
                .withHosts(rendering.hosts());
        String what = "POST " + redacted(url);
        OutboundResponse response;
        try {
            response = http.send(request);
        } catch (OutboundException e) {
            return switch (e) {
                case OutboundException.TimedOut t ->
                    Verdict.error("EVALUATOR_TIMEOUT: " + t.getMessage(), t.category());
                case OutboundException.Refused r -> Verdict.error("EVALUATOR_REFUSED: " + r.getMessage(), r.category());
                default -> Verdict.error("EVALUATOR_UNREACHABLE: " + e.getMessage(), e.category());
            };
        }
        try {
            response.requireSuccess(what);
        } catch (OutboundException.Status e) {
            return Verdict.error("EVALUATOR_HTTP_ERROR: " + e.getMessage(), e.category());
        }
        try {
            return EvaluatorAnswer.parse(response.body());
        } catch (EvaluatorAnswer.InvalidAnswer e) {
            return Verdict.error(
                    "EVALUATOR_OUTPUT_INVALID: " + what + ": " + e.getMessage(), FailureCategory.PERMANENT);
        }
    }

    /** The URL for reasons and logs: the query string may carry a token, so it is left out. */
    private static String redacted(URI url) {
        return url.getScheme() + "://" + url.getRawAuthority().replaceFirst("^[^@]*@", "")
                + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
