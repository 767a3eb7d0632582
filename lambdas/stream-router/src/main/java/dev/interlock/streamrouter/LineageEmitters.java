package dev.interlock.streamrouter;

import dev.interlock.wiring.Deps;
import io.openlineage.client.transports.HttpConfig;
import io.openlineage.client.transports.HttpTransport;

/** Builds the stream router's {@link LineageEmitter} from the deployment's {@link LineageSettings}. */
final class LineageEmitters {

    /** How long one event may take to reach the HTTP receiver: the stream batch waits for it. */
    private static final int HTTP_TIMEOUT_MILLIS = 5_000;

    private LineageEmitters() {}

    static LineageEmitter of(Deps deps) {
        LineageSettings settings = LineageSettings.from(deps.environment());
        if (!settings.emits()) {
            return LineageEmitter.NONE;
        }
        HttpConfig http = new HttpConfig();
        http.setUrl(settings.url().orElseThrow());
        http.setTimeoutInMillis(HTTP_TIMEOUT_MILLIS);
        return new LineageEmitter(
                LineageEmitter.Sink.of(new HttpTransport(http)),
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
