package dev.interlock.streamrouter;

import dev.interlock.model.lineage.LineageEventBus;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import java.net.URI;
import java.util.Optional;

/**
 * Where this deployment's OpenLineage run events go (docs/openlineage.md): an HTTP receiver (Marquez-compatible), an
 * EventBridge event bus, or both, under one job namespace. Neither: nothing is emitted.
 *
 * @param eventBus the bus's name or ARN, as PutEvents takes it
 */
public record LineageSettings(Optional<URI> url, Optional<String> eventBus, String namespace) {

    public LineageSettings {
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException(EnvVar.OPENLINEAGE_NAMESPACE.name() + " must not be blank");
        }
        url.ifPresent(u -> {
            if (!"http".equals(u.getScheme()) && !"https".equals(u.getScheme())) {
                throw new IllegalArgumentException(
                        EnvVar.OPENLINEAGE_URL.name() + " must be an http(s) URL, got '" + u + "'");
            }
        });
        eventBus.ifPresent(bus -> {
            if (!LineageEventBus.valid(bus)) {
                throw new IllegalArgumentException(EnvVar.OPENLINEAGE_EVENT_BUS.name()
                        + " must be an event bus name (letters, digits, . - _ /) or an event bus ARN, got '" + bus
                        + "'");
            }
        });
    }

    /** Reads {@code OPENLINEAGE_URL}, {@code OPENLINEAGE_EVENT_BUS} and {@code OPENLINEAGE_NAMESPACE}. */
    public static LineageSettings from(Environment environment) {
        Optional<URI> url = environment
                .find(EnvVar.OPENLINEAGE_URL)
                .filter(s -> !s.isBlank())
                .map(value -> {
                    try {
                        return URI.create(value.trim());
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(
                                EnvVar.OPENLINEAGE_URL.name() + " is not a valid URL: '" + value + "'", e);
                    }
                });
        Optional<String> bus =
                environment.find(EnvVar.OPENLINEAGE_EVENT_BUS).map(String::trim).filter(s -> !s.isEmpty());
        return new LineageSettings(url, bus, environment.get(EnvVar.OPENLINEAGE_NAMESPACE));
    }

    /** Whether any run event is emitted. */
    public boolean emits() {
        return url.isPresent() || eventBus.isPresent();
    }
}
