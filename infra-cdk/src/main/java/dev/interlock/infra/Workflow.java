package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.pascal;
import static dev.interlock.infra.StackConventions.retention;

import dev.interlock.model.runtime.InterlockFunction;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachineType;
import software.constructs.Construct;

/**
 * The pipeline state machine from the ASL file, its role (invoke the four workflow aliases, publish alerts, nothing
 * else) and its log group. The ASL's placeholders are filled with the aliases and the alert topic.
 */
final class Workflow {

    private final StateMachine stateMachine;

    Workflow(
            Construct scope,
            DeploymentOptions options,
            BuildArtifacts artifacts,
            InterlockFunctions functions,
            AlertTopic alerts) {
        Role role = Role.Builder.create(scope, "StateMachineRole")
                .assumedBy(new ServicePrincipal("states.amazonaws.com"))
                .description("Interlock state machine: invokes the four workflow aliases and publishes alerts")
                .build();
        Map<String, String> substitutions = new LinkedHashMap<>();
        for (InterlockFunction f : InterlockFunctions.WORKFLOW_FUNCTIONS) {
            Alias alias = functions.alias(f);
            substitutions.put(pascal(f) + "FunctionArn", alias.getFunctionArn());
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .sid("Invoke" + pascal(f))
                    .effect(Effect.ALLOW)
                    .actions(List.of("lambda:InvokeFunction"))
                    .resources(List.of(alias.getFunctionArn()))
                    .build());
        }
        substitutions.put("AlertTopicArn", alerts.topic().getTopicArn());
        role.addToPrincipalPolicy(alerts.publishStatement());
        NagSuppressions.addResourceSuppressions(
                role,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason(
                                "Step Functions log delivery (logs:*LogDelivery, DescribeLogGroups, resource policies) and "
                                        + "X-Ray tracing (PutTraceSegments, GetSampling*) accept only Resource *")
                        .appliesTo(List.of("Resource::*"))
                        .build()),
                true);

        LogGroup logGroup = LogGroup.Builder.create(scope, "StateMachineLogs")
                // The vended-logs prefix keeps CloudWatch Logs' account-wide resource policy under its size limit.
                .logGroupName("/aws/vendedlogs/states/" + options.stackName() + "-pipeline")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        this.stateMachine = StateMachine.Builder.create(scope, "PipelineStateMachine")
                .stateMachineType(StateMachineType.STANDARD)
                // Inline, not an S3 asset: the template then shows the definition and tests can read it. The
                // machine's TimeoutSeconds is part of the definition itself.
                .definitionBody(DefinitionBody.fromString(artifacts.stateMachineAsl()))
                .definitionSubstitutions(substitutions)
                .role(role)
                .tracingEnabled(true)
                // Execution data stays out of the logs: trigger headers (credentials for authenticated polls) pass
                // through the state, and execution history already keeps it under Step Functions access control.
                .logs(LogOptions.builder()
                        .destination(logGroup)
                        .level(LogLevel.ALL)
                        .includeExecutionData(false)
                        .build())
                .build();
    }

    StateMachine stateMachine() {
        return stateMachine;
    }
}
