package dev.interlock.infra;

import dev.interlock.infra.DeploymentOptions.SecretAccess;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * What the functions that send requests (those that evaluate traits — the evaluator and the orchestrator's post-run
 * checks — and the trigger and run-checker) may read to resolve {@code ${secret:…}} and
 * {@code ${ssm:…}} references at call time: {@code secretsmanager:GetSecretValue} on the secrets under the configured
 * name prefix, {@code ssm:GetParameter} on the parameters under the configured path, and {@code kms:Decrypt} through
 * those two services on the configured customer managed keys. Nothing for a store without a prefix; nothing at all
 * for the other functions (the API only checks names against the prefixes).
 */
final class SecretPermissions {

    /** The functions that resolve credentials (OutboundTemplates in lambdas/aws-runtime). */
    static final Set<InterlockFunction> READERS =
            InterlockFunction.traitEvaluatorsAnd(InterlockFunction.TRIGGER, InterlockFunction.RUN_CHECKER);

    private final SecretAccess access;

    SecretPermissions(SecretAccess access) {
        this.access = access;
    }

    /** The statements of one function's role. */
    List<PolicyStatement> of(InterlockFunction function) {
        List<PolicyStatement> statements = new ArrayList<>();
        if (!READERS.contains(function)) {
            return statements;
        }
        access.secretsPrefix()
                .ifPresent(prefix -> statements.add(
                        allow("ReadPipelineSecrets", "secretsmanager:GetSecretValue", secretArnPattern(prefix))));
        access.ssmParameterPrefix()
                .ifPresent(prefix -> statements.add(
                        allow("ReadPipelineParameters", "ssm:GetParameter", parameterArnPattern(prefix))));
        if (!access.kmsKeyArns().isEmpty() && access.readsAny()) {
            List<String> services = new ArrayList<>();
            access.secretsPrefix().ifPresent(p -> services.add("secretsmanager." + Aws.REGION + ".amazonaws.com"));
            access.ssmParameterPrefix().ifPresent(p -> services.add("ssm." + Aws.REGION + ".amazonaws.com"));
            statements.add(PolicyStatement.Builder.create()
                    .sid("DecryptPipelineSecrets")
                    .effect(Effect.ALLOW)
                    .actions(List.of("kms:Decrypt"))
                    .resources(access.kmsKeyArns())
                    .conditions(Map.of("StringEquals", Map.of("kms:ViaService", services)))
                    .build());
        }
        return statements;
    }

    /** Secret ARNs end in a random six-character suffix, so the name prefix is followed by a wildcard. */
    static String secretArnPattern(String prefix) {
        return "arn:" + Aws.PARTITION + ":secretsmanager:" + Aws.REGION + ":" + Aws.ACCOUNT_ID + ":secret:" + prefix
                + "*";
    }

    /** A parameter's ARN is its name without the leading slash after {@code parameter/}. */
    static String parameterArnPattern(String prefix) {
        return "arn:" + Aws.PARTITION + ":ssm:" + Aws.REGION + ":" + Aws.ACCOUNT_ID + ":parameter/"
                + prefix.replaceFirst("^/", "") + "*";
    }

    private static PolicyStatement allow(String sid, String action, String resource) {
        return PolicyStatement.Builder.create()
                .sid(sid)
                .effect(Effect.ALLOW)
                .actions(List.of(action))
                .resources(List.of(resource))
                .build();
    }
}
