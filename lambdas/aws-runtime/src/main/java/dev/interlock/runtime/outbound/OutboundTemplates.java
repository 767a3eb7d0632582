package dev.interlock.runtime.outbound;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.runtime.Lazy;
import dev.interlock.model.secret.CredentialReference;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.TemplateValues;
import dev.interlock.runtime.aws.AwsClients;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns the templates of a pipeline document into one outbound request at call time, inside the function that sends
 * it ({@link ArgumentTemplate}): execution values everywhere, credentials only in headers and bodies and only when the
 * deployment may read them and send them to the request's host ({@link OutboundPolicy}, checked again here whatever
 * registration said, and once more by {@link GuardedHttp} at the connection). Resolved values exist only in the request
 * being sent: failure messages about it are scrubbed of them before anyone can log or store them.
 */
public final class OutboundTemplates {

    /** Values shorter than this are not scrubbed from messages: replacing every "a" would garble them. */
    static final int MIN_SCRUBBED_LENGTH = 4;

    static final String SCRUBBED = "***";

    private final OutboundPolicy policy;
    private final CredentialResolver credentials;

    public OutboundTemplates(OutboundPolicy policy, CredentialResolver credentials) {
        this.policy = policy;
        this.credentials = credentials;
    }

    /**
     * The templates of a function: the policy and variables of its environment, secrets and parameters read through its
     * lazy AWS clients (created only when a reference is resolved).
     *
     * @throws IllegalStateException when a policy variable is malformed (naming it)
     */
    public static OutboundTemplates create(Environment environment, AwsClients aws) {
        OutboundPolicy policy;
        try {
            policy = OutboundPolicy.fromEnvironment(v -> environment.find(v).orElse(null));
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage(), e);
        }
        Lazy<CredentialResolver.Store> store = Lazy.of(() -> new AwsCredentialStore(aws));
        CredentialResolver.Store lazyStore = new CredentialResolver.Store() {
            @Override
            public String secretString(String name) throws OutboundException.CredentialUnavailable {
                return store.get().secretString(name);
            }

            @Override
            public String parameter(String name) throws OutboundException.CredentialUnavailable {
                return store.get().parameter(name);
            }
        };
        Duration ttl = Duration.ofSeconds(Math.max(0, environment.getInt(EnvVar.INTERLOCK_SECRET_CACHE_SECONDS)));
        return new OutboundTemplates(
                policy,
                new CredentialResolver(
                        InterlockVariables.from(environment), lazyStore, ttl, Clock.systemUTC(), aws.offline()));
    }

    /** The deployment's policy. */
    public OutboundPolicy policy() {
        return policy;
    }

    /**
     * While priming: reads a secret and a parameter through the real clients, for each store this deployment may read
     * — answered inside the process, nothing cached — so the first real read after a SnapStart restore finds the
     * clients built and their classes loaded.
     *
     * @throws IllegalStateException when not priming (a real read of a made-up name would only fail)
     */
    public void rehearseCredentialReads() throws OutboundException {
        if (!credentials.priming()) {
            throw new IllegalStateException("credential reads are rehearsed only while priming");
        }
        if (policy.secretsPrefix().isPresent()) {
            credentials.resolve(new CredentialReference.SecretsManagerSecret("interlock-priming", "key"));
        }
        if (policy.parameterPrefix().isPresent()) {
            credentials.resolve(new CredentialReference.SsmParameter("/interlock-priming"));
        }
    }

    /** A fresh rendering of one request (or of a trigger's and a poll's requests) for one execution. */
    public Rendering rendering(TemplateValues values) {
        return new Rendering(values);
    }

    /**
     * The templates of the requests of one execution, as rendered: remembers which credentials went where and their
     * values, to restrict where the requests may go and to scrub messages. Not shared between threads.
     */
    public final class Rendering {
        private final TemplateValues values;
        private final Set<String> secretValues = new LinkedHashSet<>();
        private final Set<CredentialReference> sent = new LinkedHashSet<>();

        private Rendering(TemplateValues values) {
            this.values = values;
        }

        /**
         * A template that may hold only execution values (a URL, a path segment).
         *
         * @param what the field, for the message
         */
        public String plain(String template, String what) throws OutboundException.Refused {
            try {
                return ArgumentTemplate.expand(template, values);
            } catch (ArgumentTemplate.TemplateException e) {
                throw new OutboundException.Refused(what + ": " + e.getMessage());
            }
        }

        /**
         * A header value or body that goes to {@code target}: execution values and the credentials the policy lets go
         * there, resolved now.
         */
        public String text(String template, URI target, String what) throws OutboundException {
            String host = target.getHost() == null ? "" : target.getHost().toLowerCase(Locale.ROOT);
            try {
                return ArgumentTemplate.render(template, values, reference -> credential(reference, host));
            } catch (ArgumentTemplate.TemplateException e) {
                throw new OutboundException.Refused(what + ": " + e.getMessage());
            }
        }

        /** Header values rendered for {@code target} (names are taken literally; null values dropped). */
        public Map<String, String> headers(Map<String, String> templates, URI target) throws OutboundException {
            Map<String, String> headers = new LinkedHashMap<>();
            if (templates != null) {
                for (Map.Entry<String, String> h : templates.entrySet()) {
                    if (h.getKey() != null && h.getValue() != null) {
                        headers.put(h.getKey(), text(h.getValue(), target, "header '" + h.getKey() + "'"));
                    }
                }
            }
            return headers;
        }

        /** Where the requests may go for the credentials rendered so far (every one of them must be allowed there). */
        public HostRestriction hosts() {
            List<CredentialReference> carried = List.copyOf(sent);
            if (carried.isEmpty()) {
                return HostRestriction.NONE;
            }
            return host -> {
                for (CredentialReference reference : carried) {
                    Optional<String> refusal = policy.forbiddenHost(reference, host);
                    if (refusal.isPresent()) {
                        return refusal;
                    }
                }
                return Optional.empty();
            };
        }

        /** A message with every rendered credential value of at least {@value #MIN_SCRUBBED_LENGTH} characters masked. */
        public String scrub(String message) {
            if (message == null || secretValues.isEmpty()) {
                return message;
            }
            String out = message;
            // Longest first, so a value that contains another is masked whole.
            List<String> longestFirst = new ArrayList<>(secretValues);
            longestFirst.sort(Comparator.comparingInt(String::length).reversed());
            for (String value : longestFirst) {
                out = out.replace(value, SCRUBBED);
            }
            return out;
        }

        private String credential(CredentialReference reference, String host) throws OutboundException {
            Optional<String> unreadable = policy.unreadable(reference);
            if (unreadable.isPresent()) {
                throw new OutboundException.CredentialUnavailable(
                        "${" + reference.written() + "}: " + unreadable.get(), FailureCategory.PERMANENT, null);
            }
            Optional<String> forbidden = policy.forbiddenHost(reference, host);
            if (forbidden.isPresent()) {
                throw new OutboundException.Refused(forbidden.get());
            }
            String value = credentials.resolve(reference);
            sent.add(reference);
            if (value.length() >= MIN_SCRUBBED_LENGTH) {
                secretValues.add(value);
            }
            return value;
        }
    }
}
