package dev.interlock.streamrouter;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import java.net.URI;
import java.util.Optional;

/**
 * Where this deployment's OpenLineage run events go (docs/openlineage.md): an HTTP receiver (Marquez-compatible), under
 * one job namespace. No receiver: nothing is emitted.
 */
public record LineageSettings(Optional<URI> url, String namespace) {

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
    }

    /** Reads {@code OPENLINEAGE_URL} and {@code OPENLINEAGE_NAMESPACE}. */
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
        return new LineageSettings(url, environment.get(EnvVar.OPENLINEAGE_NAMESPACE));
    }

    /** Whether any run event is emitted. */
    public boolean emits() {
        return url.isPresent();
    }
}
