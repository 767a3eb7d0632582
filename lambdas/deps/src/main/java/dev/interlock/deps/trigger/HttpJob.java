package dev.interlock.deps.trigger;

import dev.interlock.deps.outbound.OutboundRequest;
import dev.interlock.deps.outbound.OutboundResponse;
import dev.interlock.deps.outbound.RetryMode;
import dev.interlock.model.trigger.HttpTrigger;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Calls an HTTP endpoint; a 2xx completes the run at once (the endpoint does the work or hands it off). */
final class HttpJob {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final HttpCalls calls;

    HttpJob(HttpCalls calls) {
        this.calls = calls;
    }

    TriggerResult start(HttpTrigger trigger) throws JobFailure {
        String method = trigger.method().trim().toUpperCase(Locale.ROOT);
        Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
        String body = trigger.body() == null ? null : calls.expand(trigger.body());
        OutboundRequest request = new OutboundRequest(method, HttpCalls.uri(trigger.url(), "url", "http", ""),
                calls.jsonHeaders(trigger.headers()), body, timeout, timeout,
                SAFE_METHODS.contains(method) ? RetryMode.IDEMPOTENT : RetryMode.START_ONCE);
        OutboundResponse response = calls.send(request);
        return TriggerResult.completed(Map.of(Metadata.HTTP_STATUS, Integer.toString(response.status())));
    }
}
