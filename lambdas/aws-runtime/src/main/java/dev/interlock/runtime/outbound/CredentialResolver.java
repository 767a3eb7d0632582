package dev.interlock.runtime.outbound;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.secret.CredentialReference;
import dev.interlock.runtime.priming.OfflineMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the value of a credential reference at call time: {@code INTERLOCK_*} variables from the environment,
 * secrets from Secrets Manager, parameters from SSM Parameter Store (decrypted). Secret strings and parameter values
 * are kept for a short time ({@code INTERLOCK_SECRET_CACHE_SECONDS}) in a small bounded cache, so a burst of triggers
 * and polls does not read the same secret each time, and a rotated secret is picked up within that time.
 *
 * <p>SnapStart-safe: the cache starts empty and is filled only by real calls; while priming, every reference is
 * answered by a placeholder after a rehearsed SDK call (answered inside the process) and nothing is cached, so a
 * snapshot never holds a credential. Messages name references, never values.
 */
public final class CredentialResolver {

    /** Distinct secrets and parameters kept at most; the least recently used one goes first. */
    static final int MAX_ENTRIES = 64;
    /** What a reference resolves to while priming (the request it goes into is answered inside the process). */
    static final String PRIMING_VALUE = "interlock-priming";

    /** Reads one secret string or parameter value from AWS. */
    interface Store {
        /** The secret's {@code SecretString}. */
        String secretString(String name) throws OutboundException.CredentialUnavailable;

        /** The parameter's value, decrypted. */
        String parameter(String name) throws OutboundException.CredentialUnavailable;
    }

    private record Cached(String value, Instant readAt) {}

    private final InterlockVariables variables;
    private final Store store;
    private final Duration ttl;
    private final Clock clock;
    private final OfflineMode offline;
    private final Map<String, Cached> cache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Cached> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    /**
     * @param ttl   how long a value read from AWS is reused; zero reads on every call
     * @param clock wall time for the cache (never a scaled business clock)
     * @param offline on a thread it primes, every reference resolves to a placeholder and nothing is cached
     */
    CredentialResolver(InterlockVariables variables, Store store, Duration ttl, Clock clock, OfflineMode offline) {
        this.variables = variables;
        this.store = store;
        this.ttl = ttl;
        this.clock = clock;
        this.offline = offline;
    }

    /** Whether the calling thread is priming this resolver's runtime. */
    boolean priming() {
        return offline.active();
    }

    /** The value a reference stands for. */
    public String resolve(CredentialReference reference) throws OutboundException.CredentialUnavailable {
        return switch (reference) {
            case CredentialReference.EnvironmentVariable v -> variables.value(v.name());
            case CredentialReference.SecretsManagerSecret s ->
                s.key() == null
                        ? read(s.selector(), () -> store.secretString(s.name()))
                        : jsonKey(s, read(s.selector(), () -> store.secretString(s.name())));
            case CredentialReference.SsmParameter p -> read(p.selector(), () -> store.parameter(p.name()));
        };
    }

    /** Forgets every cached value (a rotated secret that already failed a call is read again at once). */
    public void forget() {
        synchronized (cache) {
            cache.clear();
        }
    }

    @FunctionalInterface
    private interface Read {
        String value() throws OutboundException.CredentialUnavailable;
    }

    private String read(String key, Read read) throws OutboundException.CredentialUnavailable {
        if (offline.active()) {
            read.value();
            return PRIMING_VALUE;
        }
        Instant now = clock.instant();
        if (!ttl.isZero()) {
            synchronized (cache) {
                Cached hit = cache.get(key);
                if (hit != null && now.isBefore(hit.readAt().plus(ttl))) {
                    return hit.value();
                }
            }
        }
        String value = read.value();
        if (!ttl.isZero()) {
            synchronized (cache) {
                cache.put(key, new Cached(value, now));
            }
        }
        return value;
    }

    /** One key of a secret's JSON object; no parser message is kept, since it would quote the secret. */
    private String jsonKey(CredentialReference.SecretsManagerSecret secret, String secretString)
            throws OutboundException.CredentialUnavailable {
        if (secretString.equals(PRIMING_VALUE) && offline.active()) {
            return PRIMING_VALUE;
        }
        JsonNode json;
        try {
            json = InterlockJson.json().readTree(secretString);
        } catch (JsonProcessingException e) {
            json = null;
        }
        if (json == null || !json.isObject()) {
            throw permanent("Secrets Manager secret '" + secret.name() + "' is not a JSON object, so it has no key '"
                    + secret.key() + "' (write ${secret:" + secret.name() + "} for the whole secret string)");
        }
        JsonNode value = json.get(secret.key());
        if (value == null || value.isNull()) {
            throw permanent("Secrets Manager secret '" + secret.name() + "' has no key '" + secret.key() + "'");
        }
        if (!value.isValueNode()) {
            throw permanent("key '" + secret.key() + "' of Secrets Manager secret '" + secret.name()
                    + "' is not a string or number");
        }
        return value.asText();
    }

    static OutboundException.CredentialUnavailable permanent(String message) {
        return new OutboundException.CredentialUnavailable(message, FailureCategory.PERMANENT, null);
    }
}
