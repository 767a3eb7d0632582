package dev.interlock.infra;

import dev.interlock.infra.DeploymentOptions.JobTargets;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.ArrayList;
import java.util.List;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * What a function that evaluates traits may call beyond HTTP — the one rule for the evaluator (readiness traits) and
 * the orchestrator (post-run checks, docs/post-run-checks.md), which run the same evaluator code
 * ({@link InterlockFunction#evaluatesTraits()}): {@code lambda:InvokeFunction} on exactly the configured {@code lambda:}
 * evaluators, and the credential reads of {@link SecretPermissions} for their header templates. Their environment
 * ({@code EVALUATOR_BASE_URL}, the credential settings) follows the same fact through {@code EnvVar}. Any other
 * function gets nothing here.
 */
final class TraitEvaluatorAccess {

    private final JobTargets jobs;
    private final SecretPermissions secrets;

    TraitEvaluatorAccess(JobTargets jobs, SecretPermissions secrets) {
        this.jobs = jobs;
        this.secrets = secrets;
    }

    /** The statements of one function's role for calling evaluators: none unless it evaluates traits. */
    List<PolicyStatement> of(InterlockFunction function) {
        if (!function.evaluatesTraits()) {
            return List.of();
        }
        List<PolicyStatement> statements = new ArrayList<>();
        if (!jobs.evaluatorFunctionArns().isEmpty()) {
            statements.add(PolicyStatement.Builder.create()
                    .sid("InvokeLambdaEvaluators")
                    .effect(Effect.ALLOW)
                    .actions(List.of("lambda:InvokeFunction"))
                    .resources(jobs.evaluatorFunctionArns())
                    .build());
        }
        statements.addAll(secrets.of(function));
        return statements;
    }
}
