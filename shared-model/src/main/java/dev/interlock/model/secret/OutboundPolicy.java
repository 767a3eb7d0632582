package dev.interlock.model.secret;

import dev.interlock.model.runtime.EnvVar;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a deployment lets pipeline documents send where: which Secrets Manager secrets and SSM parameters they may
 * name (a name prefix each, {@code *} for any, none when unset), which hosts each credential may go to
 * ({@link SecretHosts}), and the base URL relative evaluator paths are called at. The API checks pipelines against it
 * at registration; the evaluator, trigger and run-checker check every request against it again at call time.
 *
 * @param secretsPrefix      {@code INTERLOCK_SECRETS_PREFIX}; empty when no secret may be named
 * @param parameterPrefix    {@code INTERLOCK_SSM_PARAMETER_PREFIX}; empty when no parameter may be named
 * @param hosts              {@code INTERLOCK_SECRET_HOSTS}
 * @param evaluatorBaseUrl   {@code EVALUATOR_BASE_URL}; empty when relative evaluator paths are not configured
 */
public record OutboundPolicy(
        Optional<String> secretsPrefix,
        Optional<String> parameterPrefix,
        SecretHosts hosts,
        Optional<URI> evaluatorBaseUrl) {

    /** A prefix that lets every name through (the local runtime, whose secrets file is the whole store). */
    public static final String ANY_NAME = "*";

    /** No secret, no parameter, no credential to any host: what a deployment that configured nothing allows. */
    public static final OutboundPolicy NONE =
            new OutboundPolicy(Optional.empty(), Optional.empty(), SecretHosts.NONE, Optional.empty());

    /**
     * The policy of a function's environment values.
     *
     * @param value reads one variable; null or blank when unset
     * @throws IllegalArgumentException naming each variable whose value is malformed
     */
    public static OutboundPolicy fromEnvironment(java.util.function.Function<EnvVar, String> value) {
        List<String> problems = new ArrayList<>();
        SecretHosts hosts = SecretHosts.NONE;
        try {
            hosts = SecretHosts.parse(value.apply(EnvVar.INTERLOCK_SECRET_HOSTS));
        } catch (IllegalArgumentException e) {
            problems.add(EnvVar.INTERLOCK_SECRET_HOSTS.name() + ": " + e.getMessage());
        }
        Optional<String> secrets = prefix(
                value.apply(EnvVar.INTERLOCK_SECRETS_PREFIX),
                CredentialReference.SECRET_NAME,
                EnvVar.INTERLOCK_SECRETS_PREFIX,
                problems);
        Optional<String> parameters = prefix(
                value.apply(EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX),
                CredentialReference.PARAMETER_NAME,
                EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX,
                problems);
        Optional<URI> base = Optional.empty();
        String rawBase = value.apply(EnvVar.EVALUATOR_BASE_URL);
        if (rawBase != null && !rawBase.isBlank()) {
            try {
                base = Optional.of(URI.create(rawBase.trim()));
            } catch (IllegalArgumentException e) {
                problems.add(EnvVar.EVALUATOR_BASE_URL.name() + ": '" + rawBase + "' is not a URL");
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return new OutboundPolicy(secrets, parameters, hosts, base);
    }

    private static Optional<String> prefix(
            String raw, java.util.regex.Pattern alphabet, EnvVar variable, List<String> problems) {
        if (raw == null || raw.isBlank()) {
            return Optional.empty();
        }
        String prefix = raw.trim();
        if (!prefix.equals(ANY_NAME) && !alphabet.matcher(prefix).matches()) {
            problems.add(variable.name() + ": '" + prefix + "' is not a name prefix");
            return Optional.empty();
        }
        return Optional.of(prefix);
    }

    /**
     * Why this deployment may not read {@code reference}, or empty when it may. Says what to configure, never a value.
     */
    public Optional<String> unreadable(CredentialReference reference) {
        return switch (reference) {
            case CredentialReference.EnvironmentVariable v ->
                isSetting(v.name())
                        ? Optional.of(v.name() + " is a setting of the functions, not a credential to send")
                        : Optional.empty();
            case CredentialReference.SecretsManagerSecret s ->
                outside(
                        s.name(),
                        secretsPrefix,
                        "Secrets Manager secret",
                        EnvVar.INTERLOCK_SECRETS_PREFIX,
                        "secretsPrefix");
            case CredentialReference.SsmParameter p ->
                outside(
                        p.name(),
                        parameterPrefix,
                        "SSM parameter",
                        EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX,
                        "ssmParameterPrefix");
        };
    }

    /** Why {@code reference} may not be sent to {@code host}, or empty when it may. */
    public Optional<String> forbiddenHost(CredentialReference reference, String host) {
        if (hosts.allows(reference, host)) {
            return Optional.empty();
        }
        List<String> allowed = hosts.hostsFor(reference);
        return Optional.of("${" + reference.written() + "} may not be sent to host '" + host + "': "
                + EnvVar.INTERLOCK_SECRET_HOSTS.name()
                + (allowed.isEmpty()
                        ? " names no host for " + reference.selector()
                        : " allows it only to " + String.join(", ", allowed)));
    }

    /** Every reason {@code reference} may not go into a request to {@code host}. */
    public List<String> problems(CredentialReference reference, String host) {
        List<String> problems = new ArrayList<>();
        unreadable(reference).ifPresent(problems::add);
        forbiddenHost(reference, host).ifPresent(problems::add);
        return problems;
    }

    /** Whether an {@code INTERLOCK_*} name is one of the functions' own settings ({@link EnvVar}). */
    static boolean isSetting(String name) {
        for (EnvVar v : EnvVar.values()) {
            if (v.name().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static Optional<String> outside(
            String name, Optional<String> prefix, String what, EnvVar variable, String contextKey) {
        if (prefix.isEmpty()) {
            return Optional.of(what + " references are not enabled in this deployment (" + variable.name()
                    + " is not set; the CDK context option " + contextKey + " sets it)");
        }
        String p = prefix.get();
        if (!p.equals(ANY_NAME) && !name.startsWith(p)) {
            return Optional.of(what + " '" + name + "' is outside the names this deployment may read ('" + p + "…', "
                    + variable.name() + ")");
        }
        return Optional.empty();
    }
}
