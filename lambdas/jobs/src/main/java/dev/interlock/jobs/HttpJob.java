package dev.interlock.jobs;

import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundResponse;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.RetryMode;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Calls an HTTP endpoint; a 2xx completes the run at once (the endpoint does the work or hands it off). URL, headers
 * and body are rendered at call time with the run's values and credentials.
 */
final class HttpJob {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final HttpCalls calls;

    HttpJob(HttpCalls calls) {
        this.calls = calls;
    }

    /** The header that carries the run id to the endpoint (a configured header of that name wins). */
    static final String IDEMPOTENCY_KEY = "Idempotency-Key";

    TriggerResult start(HttpTrigger trigger, TriggerRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            String method = trigger.method().trim().toUpperCase(Locale.ROOT);
            Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
            URI uri = HttpCalls.uri(HttpCalls.plain(rendering, trigger.url(), "url"), "url", "http", "");
            Map<String, String> headers =
                    new java.util.LinkedHashMap<>(HttpCalls.jsonHeaders(rendering, trigger.headers(), uri));
            // The run id as idempotency key: an endpoint that honours it answers a trigger retried after a lost answer
            // (or a crash between the claim and the record) with the first call's result instead of a second job.
            if (request.runId() != null
                    && !request.runId().isBlank()
                    && headers.keySet().stream().noneMatch(IDEMPOTENCY_KEY::equalsIgnoreCase)) {
                headers.put(IDEMPOTENCY_KEY, request.runId());
            }
            String body = trigger.body() == null ? null : HttpCalls.text(rendering, trigger.body(), uri, "body");
            OutboundRequest outbound = new OutboundRequest(
                            method,
                            uri,
                            headers,
                            body,
                            timeout,
                            timeout,
                            SAFE_METHODS.contains(method) ? RetryMode.IDEMPOTENT : RetryMode.START_ONCE)
                    .withHosts(rendering.hosts());
            OutboundResponse response = calls.send(outbound);
            TriggerResult completed =
                    TriggerResult.completed(Map.of(Metadata.HTTP_STATUS, Integer.toString(response.status())));
            // Whether the endpoint honours the key is its own business: what was sent is what the event can say.
            return request.resumed()
                            && request.runId() != null
                            && !request.runId().isBlank()
                    ? completed.withEarlierStart(EarlierStart.byToken("http " + IDEMPOTENCY_KEY + " header"))
                    : completed;
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }
}
