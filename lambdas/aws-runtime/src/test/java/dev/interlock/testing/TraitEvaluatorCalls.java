package dev.interlock.testing;

import dev.interlock.testing.AwsProtocolStub.Reply;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a function that evaluates traits (the evaluator, and the orchestrator for post-run checks) calls besides the
 * check itself, answered on an {@link AwsProtocolStub}: a {@code lambda:row-count} evaluator that passes with 1,200
 * rows, the Secrets Manager secret {@code interlock/checks} ({@code token}) and the SSM parameter
 * {@code /interlock/checks/tenant} that an HTTP check's header templates name ({@link #AUTHORIZATION},
 * {@link #TENANT}); and the environment that points the function's clients at the stub and lets the credentials go
 * to 127.0.0.1.
 */
public final class TraitEvaluatorCalls {

    /** The Lambda evaluator's invocation, as the stub records it. */
    public static final String ROW_COUNT_INVOCATION = "POST /2015-03-31/functions/row-count/invocations";

    /** The header template that reads the secret, and what it resolves to. */
    public static final String AUTHORIZATION = "Bearer ${secret:interlock/checks#token}";

    /** The secret's value: no table, log or history may hold it. */
    public static final String SECRET_TOKEN = "sm-check-token";

    public static final String AUTHORIZATION_SENT = "Bearer " + SECRET_TOKEN;

    /** The header template that reads the parameter, and what it resolves to. */
    public static final String TENANT = "${ssm:/interlock/checks/tenant}";

    public static final String TENANT_SENT = "ssm-tenant";

    private TraitEvaluatorCalls() {}

    /** Answers the row-count evaluator, the secret and the parameter on {@code stub}. */
    public static AwsProtocolStub answeredBy(AwsProtocolStub stub) {
        return stub.on(
                        ROW_COUNT_INVOCATION,
                        Reply.raw(
                                "{\"status\":\"PASS\",\"value\":{\"rows\":1200}}",
                                Map.of("X-Amz-Executed-Version", "3")))
                .on(
                        "secretsmanager.GetSecretValue",
                        Reply.json("{\"Name\":\"interlock/checks\","
                                + "\"SecretString\":\"{\\\"token\\\":\\\"sm-check-token\\\"}\"}"))
                .on(
                        "AmazonSSM.GetParameter",
                        Reply.json("{\"Parameter\":{\"Name\":\"/interlock/checks/tenant\","
                                + "\"Type\":\"SecureString\",\"Value\":\"ssm-tenant\"}}"));
    }

    /** The function's environment for those calls: the three clients at {@code stub}, the prefixes and the hosts. */
    public static Map<String, String> environment(URI stub) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("INTERLOCK_ALLOW_PRIVATE_URLS", "true");
        env.put("INTERLOCK_ENDPOINT_LAMBDA", stub.toString());
        env.put("INTERLOCK_ENDPOINT_SECRETSMANAGER", stub.toString());
        env.put("INTERLOCK_ENDPOINT_SSM", stub.toString());
        env.put("INTERLOCK_SECRETS_PREFIX", "interlock/");
        env.put("INTERLOCK_SSM_PARAMETER_PREFIX", "/interlock/");
        env.put("INTERLOCK_SECRET_HOSTS", "secret:interlock/*=127.0.0.1;ssm:/interlock/*=127.0.0.1");
        return env;
    }
}
