package dev.interlock.model.secret;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A credential a pipeline document names but never contains: an {@code INTERLOCK_*} environment variable of the
 * functions, a Secrets Manager secret (optionally one JSON key of it) or an SSM parameter. The function that sends the
 * request resolves it at call time; the document, the table and the execution history only ever hold the reference.
 */
public sealed interface CredentialReference {

    /** The only environment variables a pipeline may name. */
    String ENVIRONMENT_PREFIX = "INTERLOCK_";
    /** {@code ${secret:<name>}} / {@code ${secret:<name>#<json key>}}. */
    String SECRET_PREFIX = "secret:";
    /** {@code ${ssm:<parameter name>}}. */
    String SSM_PREFIX = "ssm:";

    /** Secrets Manager's name alphabet (1–512 characters). */
    Pattern SECRET_NAME = Pattern.compile("[A-Za-z0-9/_+=.@-]{1,512}");
    /** SSM Parameter Store's name alphabet; a hierarchical name starts with {@code /}. */
    Pattern PARAMETER_NAME = Pattern.compile("[A-Za-z0-9_./-]{1,1011}");

    Pattern VARIABLE_NAME = Pattern.compile("INTERLOCK_[A-Za-z0-9_]+");

    /** The reference as written between {@code ${} and {@code }}. */
    String written();

    /**
     * What an {@code INTERLOCK_SECRET_HOSTS} pattern is matched against: {@code INTERLOCK_AIRFLOW_TOKEN},
     * {@code secret:airflow/prod}, {@code ssm:/interlock/airflow/token} (a secret's JSON key is not part of it).
     */
    String selector();

    /** {@code ${INTERLOCK_NAME}}: a variable of the function's environment. */
    record EnvironmentVariable(String name) implements CredentialReference {
        @Override
        public String written() {
            return name;
        }

        @Override
        public String selector() {
            return name;
        }
    }

    /** {@code ${secret:name}} (the whole secret string) or {@code ${secret:name#key}} (one key of its JSON object). */
    record SecretsManagerSecret(String name, String key) implements CredentialReference {
        @Override
        public String written() {
            return SECRET_PREFIX + name + (key == null ? "" : "#" + key);
        }

        @Override
        public String selector() {
            return SECRET_PREFIX + name;
        }
    }

    /** {@code ${ssm:/path/name}}: a parameter's value, decrypted when it is a SecureString. */
    record SsmParameter(String name) implements CredentialReference {
        @Override
        public String written() {
            return SSM_PREFIX + name;
        }

        @Override
        public String selector() {
            return SSM_PREFIX + name;
        }
    }

    /**
     * The reference written inside {@code ${…}}, if it is one.
     *
     * @return empty when {@code inner} does not start like a credential reference (it is some other placeholder)
     * @throws IllegalArgumentException when it starts like one but is malformed (the message says how)
     */
    static Optional<CredentialReference> parse(String inner) {
        if (inner.startsWith(ENVIRONMENT_PREFIX)) {
            if (!VARIABLE_NAME.matcher(inner).matches()) {
                throw new IllegalArgumentException("'" + inner
                        + "' is not an environment variable name (INTERLOCK_ followed by A-Z, a-z, 0-9, _)");
            }
            return Optional.of(new EnvironmentVariable(inner));
        }
        if (inner.startsWith(SECRET_PREFIX)) {
            String rest = inner.substring(SECRET_PREFIX.length());
            int hash = rest.indexOf('#');
            String name = hash < 0 ? rest : rest.substring(0, hash);
            String key = hash < 0 ? null : rest.substring(hash + 1);
            if (!SECRET_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException(
                        "'" + name + "' is not a Secrets Manager secret name (1-512 of A-Z a-z 0-9 / _ + = . @ -); "
                                + "write ${secret:<name>} or ${secret:<name>#<json key>}");
            }
            if (key != null && (key.isEmpty() || key.indexOf('#') >= 0)) {
                throw new IllegalArgumentException(
                        "'" + rest + "' names no JSON key after '#'; write ${secret:<name>#<json key>}");
            }
            return Optional.of(new SecretsManagerSecret(name, key));
        }
        if (inner.startsWith(SSM_PREFIX)) {
            String name = inner.substring(SSM_PREFIX.length());
            if (!PARAMETER_NAME.matcher(name).matches()) {
                throw new IllegalArgumentException("'" + name + "' is not an SSM parameter name (A-Z a-z 0-9 _ . - /)");
            }
            if (name.indexOf('/') >= 0 && !name.startsWith("/")) {
                throw new IllegalArgumentException(
                        "SSM parameter '" + name + "' has a path, so it must start with '/'");
            }
            return Optional.of(new SsmParameter(name));
        }
        return Optional.empty();
    }
}
