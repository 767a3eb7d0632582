package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.pascal;
import static dev.interlock.infra.StackConventions.retention;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.trigger.GlueTrigger;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import io.github.cdklabs.cdknag.RegexAppliesTo;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Arn;
import software.amazon.awscdk.ArnComponents;
import software.amazon.awscdk.ArnFormat;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.Policy;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.lambda.Tracing;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.constructs.Construct;

/**
 * The six functions, each with its own role, log group and {@code live} alias, and the grants of the matrix: the
 * role of a function may do exactly what its {@link FunctionProfile}, {@link JobPermissions} and
 * {@link SecretPermissions} say, nothing else.
 *
 * <p>The workflow invokes four of the functions and the stream router starts the workflow, so the functions come in
 * two steps: {@link #addWorkflowFunctions()} before the state machine, {@link #addEntryFunctions} after it.
 */
final class InterlockFunctions {

    /**
     * The executions of this stack's state machine, as cdk-nag renders the API's grant and the orchestrator's holder
     * check (the machine's name is the last part of its ARN): the one wildcard is the execution name.
     */
    static final String API_EXECUTIONS =
            "/^Resource::arn:<AWS::Partition>:states:<AWS::Region>:<AWS::AccountId>:execution:\\{\"Fn::Select\":"
                    + "\\[6,\\{\"Fn::Split\":\\[\":\",\\{\"Ref\":\"PipelineStateMachine[0-9A-F]{8}\"\\}\\]\\}\\]\\}:"
                    + "\\*$/g";

    /** The four functions the state machine invokes, in the order of the ASL placeholders. */
    static final List<InterlockFunction> WORKFLOW_FUNCTIONS = List.of(
            InterlockFunction.ORCHESTRATOR,
            InterlockFunction.EVALUATOR,
            InterlockFunction.TRIGGER,
            InterlockFunction.RUN_CHECKER);

    private final Construct scope;
    private final DeploymentOptions options;
    private final BuildArtifacts artifacts;
    private final InterlockTable table;
    private final AlertTopic alerts;
    private final int executionTimeoutSeconds;
    private final Map<InterlockFunction, Role> roles = new EnumMap<>(InterlockFunction.class);
    private final Map<InterlockFunction, Alias> aliases = new EnumMap<>(InterlockFunction.class);

    InterlockFunctions(
            Construct scope,
            DeploymentOptions options,
            BuildArtifacts artifacts,
            InterlockTable table,
            AlertTopic alerts) {
        this.scope = scope;
        this.options = options;
        this.artifacts = artifacts;
        this.table = table;
        this.alerts = alerts;
        this.executionTimeoutSeconds = artifacts.executionTimeoutSeconds();
        for (InterlockFunction f : InterlockFunction.values()) {
            roles.put(
                    f,
                    Role.Builder.create(scope, pascal(f) + "Role")
                            .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                            .description("Interlock " + f.moduleName()
                                    + " function: only the actions listed in FunctionProfile")
                            .build());
        }
    }

    /** The functions the state machine invokes. */
    void addWorkflowFunctions() {
        for (InterlockFunction f : WORKFLOW_FUNCTIONS) {
            add(f, null);
        }
    }

    /** The functions that start work from outside the workflow: the stream router (it starts {@code machine}) and the API. */
    void addEntryFunctions(StateMachine machine) {
        add(InterlockFunction.STREAM_ROUTER, machine);
        add(InterlockFunction.API, machine);
        // The operator's unlock asks whether the lock's holder still runs and, when forced, stops it first: exactly
        // these two actions on this machine's executions.
        machine.grantExecution(roles.get(InterlockFunction.API), "states:DescribeExecution", "states:StopExecution");
    }

    Alias alias(InterlockFunction f) {
        return Objects.requireNonNull(aliases.get(f), () -> f.moduleName() + " is not added yet");
    }

    /** The table, alert, job and secret grants of every function, from the grant matrix. */
    /**
     * The orchestrator ends the machine's callback waits (awaitJobCompletion, jobStateChange): exactly SendTaskSuccess
     * and SendTaskFailure on this state machine. A Policy of its own, not the role's default policy: the functions
     * depend on their role's default policy and the machine on the functions, so a grant there would be a cycle.
     */
    void grantJobCallbacks(StateMachine stateMachine) {
        Policy.Builder.create(scope, "OrchestratorJobCallbacks")
                .roles(List.of(roles.get(InterlockFunction.ORCHESTRATOR)))
                .statements(List.of(PolicyStatement.Builder.create()
                        .effect(Effect.ALLOW)
                        .actions(List.of("states:SendTaskSuccess", "states:SendTaskFailure"))
                        .resources(List.of(stateMachine.getStateMachineArn()))
                        .build()))
                .build();
    }

    /**
     * The watchdog's holder check asks whether the execution that holds a lock still runs: exactly DescribeExecution on
     * this machine's executions (its ARN comes from the machine's {@code $$.Execution.Id}, not from an environment
     * variable, so the function does not depend on the machine). A Policy of its own, for the reason given above.
     */
    void grantHolderChecks(StateMachine stateMachine) {
        String executions = Stack.of(scope)
                        .formatArn(ArnComponents.builder()
                                .service("states")
                                .resource("execution")
                                .resourceName(
                                        Arn.split(stateMachine.getStateMachineArn(), ArnFormat.COLON_RESOURCE_NAME)
                                                .getResourceName())
                                .arnFormat(ArnFormat.COLON_RESOURCE_NAME)
                                .build())
                + ":*";
        Policy policy = Policy.Builder.create(scope, "OrchestratorHolderChecks")
                .roles(List.of(roles.get(InterlockFunction.ORCHESTRATOR)))
                .statements(List.of(PolicyStatement.Builder.create()
                        .effect(Effect.ALLOW)
                        .actions(List.of("states:DescribeExecution"))
                        .resources(List.of(executions))
                        .build()))
                .build();
        NagSuppressions.addResourceSuppressions(
                policy,
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason("the watchdog's holder check describes executions of Interlock's own state machine, "
                                + "whose names (the lock owners) are minted by each start; only the name is left open")
                        .appliesTo(List.of(
                                RegexAppliesTo.builder().regex(API_EXECUTIONS).build()))
                        .build()));
    }

    void grantProfiles() {
        for (InterlockFunction f : InterlockFunction.values()) {
            table.grant(roles.get(f), FunctionProfile.of(f));
        }
        // A function may be given ALERT_TOPIC_ARN because EnvVar lists it as read, and still not publish: the grant
        // follows the code, not the variable.
        for (InterlockFunction f : InterlockFunction.values()) {
            if (FunctionProfile.of(f).publishesAlerts()) {
                roles.get(f).addToPrincipalPolicy(alerts.publishStatement());
            }
        }
        JobPermissions jobs = new JobPermissions(options.jobs());
        jobs.trigger().forEach(roles.get(InterlockFunction.TRIGGER)::addToPrincipalPolicy);
        jobs.runChecker().forEach(roles.get(InterlockFunction.RUN_CHECKER)::addToPrincipalPolicy);
        jobs.orchestrator().forEach(roles.get(InterlockFunction.ORCHESTRATOR)::addToPrincipalPolicy);
        // OpenLineage run events on a bus: PutEvents on exactly that bus, for the one function that puts them.
        options.openLineageEventBus()
                .ifPresent(bus -> roles.get(InterlockFunction.STREAM_ROUTER)
                        .addToPrincipalPolicy(PolicyStatement.Builder.create()
                                .sid("PutOpenLineageRunEvents")
                                .effect(Effect.ALLOW)
                                .actions(List.of("events:PutEvents"))
                                .resources(List.of(eventBusArn(bus)))
                                .build()));
        SecretPermissions secrets = new SecretPermissions(options.secrets());
        TraitEvaluatorAccess evaluators = new TraitEvaluatorAccess(options.jobs(), secrets);
        for (InterlockFunction f : InterlockFunction.values()) {
            // The evaluator and the orchestrator (post-run checks) by one rule; the trigger and run-checker's reads.
            (f.evaluatesTraits() ? evaluators.of(f) : secrets.of(f)).forEach(roles.get(f)::addToPrincipalPolicy);
        }
    }

    /** A bus named in context: its ARN as given, or the ARN of the bus of that name in the stack's account and region. */
    private static String eventBusArn(String nameOrArn) {
        return nameOrArn.startsWith("arn:")
                ? nameOrArn
                : "arn:" + Aws.PARTITION + ":events:" + Aws.REGION + ":" + Aws.ACCOUNT_ID + ":event-bus/" + nameOrArn;
    }

    private void add(InterlockFunction f, StateMachine machine) {
        FunctionProfile profile = FunctionProfile.of(f);
        Role role = roles.get(f);
        LogGroup logGroup = LogGroup.Builder.create(scope, pascal(f) + "Logs")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        Function fn = Function.Builder.create(scope, pascal(f) + "Function")
                .description(profile.why())
                .runtime(Runtime.JAVA_25)
                .architecture(Architecture.ARM_64)
                .handler(f.handler())
                .code(Code.fromAsset(artifacts.deployableJar(f).toString()))
                .memorySize(profile.memoryMb())
                .timeout(Duration.seconds(profile.timeoutSeconds()))
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .tracing(Tracing.ACTIVE)
                .role(role)
                .logGroup(logGroup)
                .environment(environment(f, machine))
                .build();
        // With its own role the function gets no AWSLambdaBasicExecutionRole: it may write to its log group only.
        logGroup.grantWrite(role);
        Annotations.of(fn)
                .acknowledgeWarning(
                        "@aws-cdk/aws-lambda:snapStartRequirePublish",
                        "Every caller invokes the live alias on the function's current published version, below.");
        aliases.put(
                f,
                Alias.Builder.create(scope, pascal(f) + "LiveAlias")
                        .aliasName(InterlockStack.LIVE_ALIAS)
                        .version(fn.getCurrentVersion())
                        .build());
    }

    /**
     * The function's environment: exactly {@link FunctionProfile#environmentOf} — what it reads, with the values of
     * this deployment. A variable without an AWS value here is a programming error and fails synthesis.
     *
     * @param machine the state machine, for the one function (the stream router) created after it; else null
     */
    private Map<String, String> environment(InterlockFunction f, StateMachine machine) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : FunctionProfile.environmentOf(f)) {
            String value = switch (v) {
                case TABLE_NAME -> table.table().getTableName();
                case STATE_MACHINE_ARN ->
                    Objects.requireNonNull(
                                    machine,
                                    f.moduleName()
                                            + " reads STATE_MACHINE_ARN and must be created after the state machine")
                            .getStateMachineArn();
                case ALERT_TOPIC_ARN -> alerts.topic().getTopicArn();
                case EVALUATOR_BASE_URL -> options.evaluatorBaseUrl();
                case STALE_MARKER_DAYS -> Integer.toString(options.staleMarkerDays());
                case OPENLINEAGE_URL -> options.openLineageUrl();
                case OPENLINEAGE_NAMESPACE -> options.openLineageNamespace();
                case OPENLINEAGE_EVENT_BUS -> options.openLineageEventBus().orElse("");
                case EXECUTION_TIMEOUT_SECONDS -> Integer.toString(executionTimeoutSeconds);
                case RUN_LOG_TTL_DAYS -> Integer.toString(options.runLogTtlDays());
                case RETENTION_DAYS -> Integer.toString(options.retentionDays());
                case MAX_RERUNS_PER_DAY -> Integer.toString(options.maxRerunsPerDay());
                case INTERLOCK_SECRET_HOSTS -> options.secrets().secretHosts();
                case INTERLOCK_SECRETS_PREFIX ->
                    options.secrets().secretsPrefix().orElse("");
                case INTERLOCK_SSM_PARAMETER_PREFIX ->
                    options.secrets().ssmParameterPrefix().orElse("");
                case INTERLOCK_SECRET_CACHE_SECONDS ->
                    Integer.toString(options.secrets().cacheSeconds());
                default -> throw new IllegalStateException("No AWS value for " + v + " used by " + f.moduleName());
            };
            env.put(v.name(), value);
        }
        return env;
    }

    /**
     * The wildcards AWS leaves no way around, per role. Called once every grant is in place (the stack's last step):
     * a suppression applies only to the policy documents that exist when it is added.
     */
    void suppressUnavoidableWildcards() {
        for (InterlockFunction f : InterlockFunction.values()) {
            suppressUnavoidableWildcards(f);
        }
    }

    private void suppressUnavoidableWildcards(InterlockFunction f) {
        List<Object> wildcardResources = new ArrayList<>(List.of("Resource::*"));
        String reason = "X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no resource-level "
                + "permissions, so Lambda's tracing grant must name Resource *";
        if (f == InterlockFunction.STREAM_ROUTER) {
            reason += "; dynamodb:ListStreams, which the event-source mapping needs, is likewise account-wide";
        }
        // The orchestrator's watchdog reads the runs of callback jobs (JobPermissions.orchestrator).
        boolean pollsJobs = f == InterlockFunction.TRIGGER
                || f == InterlockFunction.RUN_CHECKER
                || f == InterlockFunction.ORCHESTRATOR;
        // Run ids and execution names are minted by the start call, so they cannot be named in advance.
        if (pollsJobs && !options.jobs().emrServerlessApplicationIds().isEmpty()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:emr-serverless:<AWS::Region>:<AWS::AccountId>:"
                            + "\\/applications\\/[0-9a-z]+\\/jobruns\\/\\*$/g")
                    .build());
            reason += "; EMR Serverless job runs are scoped to the configured applications, only the run id "
                    + "(minted by StartJobRun) is left open";
        }
        if (pollsJobs && !options.jobs().stateMachineArns().isEmpty()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:aws[a-z-]*:states:[a-z0-9-]+:\\d{12}:execution:[A-Za-z0-9_-]+:\\*$/g")
                    .build());
            reason += "; Step Functions executions are scoped to the configured state machines, only the "
                    + "execution name (minted by StartExecution) is left open";
        }
        if (f == InterlockFunction.RUN_CHECKER && !options.jobs().glueJobNames().isEmpty()) {
            wildcardResources.add("Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:"
                    + GlueTrigger.ERROR_LOG_GROUP + ":*");
            reason += "; the Glue driver-log check (FALSE_SUCCESS) reads one log group, /aws-glue/jobs/error, whose "
                    + "streams are named by job run ids minted by StartJobRun (log-group:NAME:* is how IAM names a "
                    + "group's events)";
        }
        if (f == InterlockFunction.API) {
            wildcardResources.add(RegexAppliesTo.builder().regex(API_EXECUTIONS).build());
            reason += "; the operator's unlock asks about and stops executions of Interlock's own state machine, "
                    + "whose names (the lock owners) are minted by each start";
        }
        boolean readsSecrets = SecretPermissions.READERS.contains(f);
        if (readsSecrets && options.secrets().secretsPrefix().isPresent()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:"
                            + "[A-Za-z0-9\\/_+=.@-]+\\*$/g")
                    .build());
            reason += "; Secrets Manager secrets are scoped to the configured name prefix, the wildcard covers the "
                    + "names under it and the random suffix AWS appends to every secret ARN";
        }
        if (readsSecrets && options.secrets().ssmParameterPrefix().isPresent()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter\\/"
                            + "[A-Za-z0-9_.\\/-]*\\*$/g")
                    .build());
            reason += "; SSM parameters are scoped to the configured path, the wildcard covers the names under it";
        }
        NagSuppressions.addResourceSuppressions(
                roles.get(f),
                List.of(NagPackSuppression.builder()
                        .id("AwsSolutions-IAM5")
                        .reason(reason)
                        .appliesTo(wildcardResources)
                        .build()),
                true);
    }
}
