package dev.interlock.testing;

import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.OutboundTemplates;
import java.util.Map;

/** {@link OutboundTemplates} as a function builds them, over a given environment (no AWS client is created unless used). */
public final class TestTemplates {

    private TestTemplates() {}

    /** A deployment that configured no credential: execution values only. */
    public static OutboundTemplates none() {
        return of(Map.of());
    }

    /** The templates of a function with this environment ({@code INTERLOCK_*} variables, policy, endpoints). */
    public static OutboundTemplates of(Map<String, String> environment) {
        Environment env = Environment.of(environment);
        return OutboundTemplates.create(env, new AwsClients(env));
    }
}
