package dev.interlock.infra;

import dev.interlock.model.trigger.JobStateRule;
import java.util.List;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * Terminal job state changes of the configured jobs → orchestrator ({@link dev.interlock.model.contract.OrchestratorAction#JOB_STATE_CHANGE}). A service
 * with no configured jobs gets no rule: Interlock cannot start its jobs (no trigger permission), so none of its events
 * concern us.
 */
final class JobStateRules {

    JobStateRules(Construct scope, DeploymentOptions.JobTargets jobs, Alias orchestrator, IQueue deadLetters) {
        rule(scope, JobStateRule.GLUE, jobs.glueJobNames(), orchestrator, deadLetters);
        rule(scope, JobStateRule.EMR_STEP, jobs.emrClusterIds(), orchestrator, deadLetters);
        rule(scope, JobStateRule.EMR_SERVERLESS, jobs.emrServerlessApplicationIds(), orchestrator, deadLetters);
        rule(scope, JobStateRule.STEP_FUNCTIONS, jobs.stateMachineArns(), orchestrator, deadLetters);
    }

    /** One job-state rule, scoped to the configured jobs of its type; none when no job of that type is configured. */
    private static void rule(
            Construct scope, JobStateRule rule, List<String> resources, Alias orchestrator, IQueue deadLetters) {
        if (resources.isEmpty()) {
            return;
        }
        Rule.Builder.create(scope, rule.ruleId())
                .description("Interlock: terminal " + rule.detailType() + " events of configured jobs → orchestrator")
                .eventPattern(EventPattern.builder()
                        .source(List.of(rule.source()))
                        .detailType(List.of(rule.detailType()))
                        .detail(rule.detailPattern(resources))
                        .build())
                .targets(List.of(OrchestratorEventTarget.of(orchestrator, JobStateRule.TARGET, deadLetters)))
                .build();
    }
}
