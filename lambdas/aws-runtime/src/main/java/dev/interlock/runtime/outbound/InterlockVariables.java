package dev.interlock.runtime.outbound;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.secret.CredentialReference;
import java.util.Map;
import java.util.TreeMap;

/**
 * The {@code INTERLOCK_*} variables of a function's environment that {@code ${INTERLOCK_NAME}} references may read.
 * Only that prefix is ever kept, so a pipeline document can never pull AWS credentials or other settings of the process
 * into an outbound request (the functions' own {@code INTERLOCK_*} settings are refused by the
 * {@link dev.interlock.model.secret.OutboundPolicy} before a value is looked up).
 */
public final class InterlockVariables {

    /** The only names a reference may read. */
    public static final String PREFIX = CredentialReference.ENVIRONMENT_PREFIX;

    private final Map<String, String> values;

    /** From any map of variables; names without the prefix are dropped here, before anything can read them. */
    public InterlockVariables(Map<String, String> variables) {
        Map<String, String> own = new TreeMap<>();
        variables.forEach((k, v) -> {
            if (k.startsWith(PREFIX) && v != null) {
                own.put(k, v);
            }
        });
        this.values = Map.copyOf(own);
    }

    /** The {@code INTERLOCK_*} variables of a function's environment. */
    public static InterlockVariables from(Environment environment) {
        return new InterlockVariables(environment.startingWith(PREFIX));
    }

    /**
     * A variable's value.
     *
     * @throws OutboundException.CredentialUnavailable (PERMANENT) when it is not set: sending the literal reference,
     *                                                 or an empty credential, would only fail later and less clearly
     */
    public String value(String name) throws OutboundException.CredentialUnavailable {
        String value = name.startsWith(PREFIX) ? values.get(name) : null;
        if (value == null) {
            throw new OutboundException.CredentialUnavailable(
                    "variable " + name + " is referenced but not set", FailureCategory.PERMANENT, null);
        }
        return value;
    }
}
