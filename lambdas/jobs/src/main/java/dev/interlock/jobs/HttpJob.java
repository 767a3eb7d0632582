package dev.interlock.jobs;

import dev.interlock.jobs.outbound.OutboundRequest;
import dev.interlock.jobs.outbound.OutboundResponse;
import dev.interlock.jobs.outbound.OutboundTemplates;
import dev.interlock.jobs.outbound.RetryMode;
import dev.interlock.model.trigger.HttpTrigger;
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

    TriggerResult start(HttpTrigger trigger, TriggerRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            String method = trigger.method().trim().toUpperCase(Locale.ROOT);
            Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
            URI uri = HttpCalls.uri(HttpCalls.plain(rendering, trigger.url(), "url"), "url", "http", "");
            Map<String, String> headers = HttpCalls.jsonHeaders(rendering, trigger.headers(), uri);
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
            return TriggerResult.completed(Map.of(Metadata.HTTP_STATUS, Integer.toString(response.status())));
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }
}
