package dev.interlock.streamrouter;

import dev.interlock.wiring.Deps;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Builds the stream router's {@link LineageEmitter} from the deployment's {@link LineageSettings}: the official client's
 * HTTP transport, an EventBridge bus through the shared AWS clients (so the IAM request recorder sees the call), or
 * both.
 */
final class LineageEmitters {

    /** How long one event may take to reach the HTTP receiver: the stream batch waits for it. */
    private static final int HTTP_TIMEOUT_MILLIS = 5_000;

    private LineageEmitters() {}

    static LineageEmitter of(Deps deps) {
        LineageSettings settings = LineageSettings.from(deps.environment());
        if (!settings.emits()) {
            return LineageEmitter.NONE;
        }
        Map<String, LineageEmitter.Sink> sinks = new LinkedHashMap<>();
        settings.url().ifPresent(url -> {
            HttpConfig http = new HttpConfig();
            http.setUrl(url);
            http.setTimeoutInMillis(HTTP_TIMEOUT_MILLIS);
            sinks.put("http " + url, LineageEmitter.Sink.of(new HttpTransport(http)));
        });
        settings.eventBus()
                .ifPresent(bus -> sinks.put(
                        "event bus " + bus,
                        new EventBridgeSink(deps.clients()::eventBridge, bus, EventBridgeSink.Pause.SLEEP)));
        return new LineageEmitter(
                LineageEmitter.Sink.each(sinks),
                settings.namespace(),
                deps.clock(),
                deps.log("stream-router"),
                pipelineId -> deps.provider().pipelines().get(pipelineId),
                key -> deps.provider().runLogs().get(key),
                event -> {
                    deps.provider().events().append(event);
                    return true;
                });
    }
}
