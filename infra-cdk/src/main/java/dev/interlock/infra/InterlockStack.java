package dev.interlock.infra;

import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.InterlockVersion;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.services.lambda.Alias;
import software.constructs.Construct;

/**
 * The whole Interlock suite in one stack, composed of one part per concern: the table, the alert topic, the six
 * functions with the grants of the matrix, the 47-state workflow, the stream routing, the watchdog schedule, the
 * job-state rules, the registration API and the alarms. Every cdk-nag suppression sits next to the resource
 * it concerns, with its reason.
 *
 * <p>Each part adds its resources to this stack's own scope rather than nesting them under a construct of its own:
 * CloudFormation logical ids, and the ids CDK derives from construct paths (the stream's event-source mapping, the
 * invoke permissions of rules and the API), follow the construct path, so a nesting level would rename every
 * resource, and the next {@code cdk deploy} of an existing stack would replace them: a new, empty table, a new API
 * URL, a stream mapping re-reading the stream from its start. {@code StatefulLogicalIdsTest} pins those ids.
 */
public final class InterlockStack extends Stack {

    /** Alias every caller uses, so SnapStart snapshots (taken per published version) serve every invocation. */
    public static final String LIVE_ALIAS = "live";
    /** The registration API's one stage. */
    public static final String API_STAGE = "v1";

    public InterlockStack(
            Construct scope, String id, StackProps props, DeploymentOptions options, BuildArtifacts artifacts) {
        super(scope, id, props);
        artifacts.requireDeployableJars();
        // CloudFormation's dashboard takes no tags (cfn-lint E3002).
        Tags.of(this)
                .add(
                        "application",
                        "interlock",
                        software.amazon.awscdk.TagProps.builder()
                                .excludeResourceTypes(java.util.List.of("AWS::CloudWatch::Dashboard"))
                                .build());

        InterlockTable table = new InterlockTable(this, options);
        AlertTopic alerts = new AlertTopic(this);
        InterlockFunctions functions = new InterlockFunctions(this, options, artifacts, table, alerts);
        functions.addWorkflowFunctions();
        Workflow workflow = new Workflow(this, options, artifacts, functions, alerts);
        functions.addEntryFunctions(workflow.stateMachine());
        functions.grantProfiles();
        functions.grantJobCallbacks(workflow.stateMachine());
        functions.grantHolderChecks(workflow.stateMachine());
        StreamRouting streamRouting = new StreamRouting(
                this,
                table,
                functions.alias(InterlockFunction.STREAM_ROUTER),
                workflow.stateMachine(),
                options.emitsLineage());
        Alias orchestrator = functions.alias(InterlockFunction.ORCHESTRATOR);
        RuleDeadLetterQueue ruleDeadLetters = new RuleDeadLetterQueue(this);
        new WatchdogSchedule(this, options, orchestrator, ruleDeadLetters.queue());
        new ExecutionEndLockRelease(this, workflow.stateMachine(), orchestrator, ruleDeadLetters.queue());
        if (options.jobStateRules()) {
            new JobStateRules(this, options.jobs(), orchestrator, ruleDeadLetters.queue());
        }
        RegistrationApi api =
                new RegistrationApi(this, options, artifacts.apiContract(), functions.alias(InterlockFunction.API));
        new Alarms(
                this,
                options,
                functions,
                workflow.stateMachine(),
                streamRouting.deadLetterQueue(),
                ruleDeadLetters.queue(),
                api.restApi());
        new MetricsDashboard(this, functions, workflow.stateMachine());

        CfnOutput.Builder.create(this, "InterlockVersion")
                .description(
                        "The Interlock version this stack was deployed from (interlock --version of the same build)")
                .value(InterlockVersion.current())
                .build();
        CfnOutput.Builder.create(this, "ApiUrl")
                .description("Registration API endpoint (--endpoint of the CLI)")
                .value(api.restApi().getUrl())
                .build();
        CfnOutput.Builder.create(this, "TableName")
                .description("Interlock DynamoDB table")
                .value(table.table().getTableName())
                .build();
        CfnOutput.Builder.create(this, "StateMachineArn")
                .description("Pipeline state machine")
                .value(workflow.stateMachine().getStateMachineArn())
                .build();
        CfnOutput.Builder.create(this, "AlertTopicArn")
                .description("Subscribe here to receive alerts")
                .value(alerts.topic().getTopicArn())
                .build();
        CfnOutput.Builder.create(this, "StreamDeadLetterQueueUrl")
                .description("Stream batches that exhausted their retries")
                .value(streamRouting.deadLetterQueue().getQueueUrl())
                .build();
        CfnOutput.Builder.create(this, "EventRuleDeadLetterQueueUrl")
                .description("Events the watchdog schedule, execution-end and job-state rules could not deliver")
                .value(ruleDeadLetters.queue().getQueueUrl())
                .build();

        // Last: a suppression applies only to the policy documents that exist when it is added.
        functions.suppressUnavoidableWildcards();
    }
}
