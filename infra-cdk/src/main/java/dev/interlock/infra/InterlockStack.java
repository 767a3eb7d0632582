package dev.interlock.infra;

import dev.interlock.infra.DeploymentOptions.ApiAuth;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.JobStateRule;
import dev.interlock.model.runtime.TableDefinition;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import io.github.cdklabs.cdknag.RegexAppliesTo;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.Tags;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigateway.ApiKeyOptions;
import software.amazon.awscdk.services.apigateway.IApiKey;
import software.amazon.awscdk.services.apigateway.AuthorizationType;
import software.amazon.awscdk.services.apigateway.EndpointType;
import software.amazon.awscdk.services.apigateway.IResource;
import software.amazon.awscdk.services.apigateway.JsonWithStandardFieldProps;
import software.amazon.awscdk.services.apigateway.LambdaIntegration;
import software.amazon.awscdk.services.apigateway.LambdaIntegrationOptions;
import software.amazon.awscdk.services.apigateway.LogGroupLogDestination;
import software.amazon.awscdk.services.apigateway.MethodLoggingLevel;
import software.amazon.awscdk.services.apigateway.MethodOptions;
import software.amazon.awscdk.services.apigateway.RequestValidator;
import software.amazon.awscdk.services.apigateway.RequestValidatorOptions;
import software.amazon.awscdk.services.apigateway.RestApi;
import software.amazon.awscdk.services.apigateway.StageOptions;
import software.amazon.awscdk.services.apigateway.ThrottleSettings;
import software.amazon.awscdk.services.apigateway.UsagePlan;
import software.amazon.awscdk.services.apigateway.UsagePlanProps;
import software.amazon.awscdk.services.apigateway.UsagePlanPerApiStage;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IMetric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.StreamViewType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.events.EventField;
import software.amazon.awscdk.services.events.EventPattern;
import software.amazon.awscdk.services.events.Match;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
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
import software.amazon.awscdk.services.lambda.StartingPosition;
import software.amazon.awscdk.services.lambda.Tracing;
import software.amazon.awscdk.services.lambda.eventsources.DynamoEventSource;
import software.amazon.awscdk.services.lambda.eventsources.SqsDlq;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.sns.ITopic;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.amazon.awscdk.services.stepfunctions.DefinitionBody;
import software.amazon.awscdk.services.stepfunctions.LogLevel;
import software.amazon.awscdk.services.stepfunctions.LogOptions;
import software.amazon.awscdk.services.stepfunctions.StateMachine;
import software.amazon.awscdk.services.stepfunctions.StateMachineType;
import software.amazon.awscdk.services.wafv2.CfnWebACL;
import software.amazon.awscdk.services.wafv2.CfnWebACLAssociation;
import software.constructs.Construct;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The whole Interlock suite in one stack: the table and its stream, the six functions behind {@code live} aliases,
 * the 47-state workflow, the alert topic, the watchdog schedule, the registration API, alarms and least-privilege
 * roles. Every cdk-nag suppression sits next to the resource it concerns, with its reason.
 */
public final class InterlockStack extends Stack {

    /** Alias every caller uses, so SnapStart snapshots (taken per published version) serve every invocation. */
    public static final String LIVE_ALIAS = "live";
    /** The registration API's one stage. */
    public static final String API_STAGE = "v1";
    /**
     * The orchestrator action that receives job state changes from the optional EventBridge rules; the payload is
     * {@code {source, detailType, time, detail}} of the AWS event.
     */
    public static final String JOB_STATE_CHANGE_ACTION = JobStateRule.TARGET_ACTION;
    /** The four functions the state machine invokes, in the order of the ASL placeholders. */
    public static final List<InterlockFunction> WORKFLOW_FUNCTIONS = List.of(
            InterlockFunction.ORCHESTRATOR, InterlockFunction.EVALUATOR, InterlockFunction.TRIGGER,
            InterlockFunction.RUN_CHECKER);

    private static final TableDefinition TABLE = TableDefinition.INTERLOCK;

    private final DeploymentOptions options;
    private final BuildArtifacts artifacts;
    private final RemovalPolicy statefulRemoval;
    private final Map<InterlockFunction, Alias> aliases =
            new EnumMap<>(InterlockFunction.class);
    private final Map<InterlockFunction, Role> roles = new EnumMap<>(InterlockFunction.class);

    private final Table table;
    private final Topic alertTopic;
    private final Queue streamDeadLetterQueue;
    private final StateMachine stateMachine;
    private final RestApi api;

    public InterlockStack(Construct scope, String id, StackProps props, DeploymentOptions options,
                          BuildArtifacts artifacts) {
        super(scope, id, props);
        this.options = options;
        this.artifacts = artifacts;
        // Deletion protection and retention go together: a protected deployment keeps its data when the stack goes.
        this.statefulRemoval = options.deletionProtection() ? RemovalPolicy.RETAIN : RemovalPolicy.DESTROY;
        artifacts.requireDeployableJars();
        Tags.of(this).add("application", "interlock");

        this.table = table();
        this.alertTopic = alertTopic();
        this.streamDeadLetterQueue = streamDeadLetterQueue();
        int executionTimeoutSeconds = artifacts.executionTimeoutSeconds();

        for (InterlockFunction f : InterlockFunction.values()) {
            roles.put(f, functionRole(f));
        }
        for (InterlockFunction f : WORKFLOW_FUNCTIONS) {
            createFunction(f, environment(f, executionTimeoutSeconds, null));
        }
        this.stateMachine = stateMachine();
        createFunction(InterlockFunction.STREAM_ROUTER,
                environment(InterlockFunction.STREAM_ROUTER, executionTimeoutSeconds, stateMachine));
        createFunction(InterlockFunction.API, environment(InterlockFunction.API, executionTimeoutSeconds, null));

        grantTableAccess();
        grantAlertPublishing();
        grantJobPermissions();
        grantSecretReads();
        streamToRouter();
        stateMachine.grantStartExecution(aliases.get(InterlockFunction.STREAM_ROUTER));
        grantJobCallbacks();
        watchdogSchedule();
        if (options.jobStateRules()) {
            jobStateChangeRules();
        }
        this.api = registrationApi();
        alarms();
        outputs();
        for (InterlockFunction f : InterlockFunction.values()) {
            suppressRoleWildcards(f);
        }
    }

    // ------------------------------------------------------------------------------------------------ storage

    private Table table() {
        Table t = Table.Builder.create(this, "Table")
                .partitionKey(stringKey(TABLE.partitionKey()))
                .sortKey(stringKey(TABLE.sortKey()))
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true).build())
                // KMS with the AWS managed key: encrypted at rest, and stream readers need no key grant.
                .encryption(TableEncryption.AWS_MANAGED)
                .deletionProtection(options.deletionProtection())
                .removalPolicy(statefulRemoval)
                .timeToLiveAttribute(TABLE.ttlAttribute())
                .stream(StreamViewType.valueOf(TABLE.streamView().name()))
                .build();
        for (TableDefinition.GlobalIndex index : TABLE.globalIndexes()) {
            t.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                    .indexName(index.name())
                    .partitionKey(stringKey(index.partitionKey()))
                    .sortKey(stringKey(index.sortKey()))
                    .projectionType(ProjectionType.valueOf(index.projection().name()))
                    .build());
        }
        return t;
    }

    private static Attribute stringKey(String name) {
        return Attribute.builder().name(name).type(AttributeType.STRING).build();
    }

    private Topic alertTopic() {
        return Topic.Builder.create(this, "AlertTopic")
                .displayName("Interlock alerts")
                // The AWS managed SNS key: publishers are this stack's roles in this account, which the key policy
                // already admits through SNS; a customer key would add cost and key-policy upkeep for no reader.
                .masterKey(software.amazon.awscdk.services.kms.Alias.fromAliasName(this, "SnsManagedKey",
                        "alias/aws/sns"))
                .enforceSsl(true)
                .build();
    }

    private Queue streamDeadLetterQueue() {
        Queue queue = Queue.Builder.create(this, "StreamDeadLetterQueue")
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        NagSuppressions.addResourceSuppressions(queue, List.of(suppress("AwsSolutions-SQS3",
                "This queue is itself the dead-letter destination of the stream mapping; it receives batch metadata "
                        + "for operators, nothing consumes and redrives it, so a DLQ of its own would be empty.")));
        return queue;
    }

    // ------------------------------------------------------------------------------------------------ functions

    private Role functionRole(InterlockFunction f) {
        return Role.Builder.create(this, pascal(f) + "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("Interlock " + f.moduleName() + " function: only the actions listed in FunctionProfile")
                .build();
    }

    /**
     * The wildcards AWS leaves no way around, per role. Called once every grant is in place: a suppression applies
     * only to the policy documents that exist when it is added.
     */
    private void suppressRoleWildcards(InterlockFunction f) {
        Role role = roles.get(f);
        List<Object> wildcardResources = new ArrayList<>(List.of("Resource::*"));
        String reason = "X-Ray PutTraceSegments/PutTelemetryRecords (active tracing) support no resource-level "
                + "permissions, so Lambda's tracing grant must name Resource *";
        if (f == InterlockFunction.STREAM_ROUTER) {
            reason += "; dynamodb:ListStreams, which the event-source mapping needs, is likewise account-wide";
        }
        boolean pollsJobs = f == InterlockFunction.TRIGGER || f == InterlockFunction.RUN_CHECKER;
        // Run ids and execution names are minted by the start call, so they cannot be named in advance.
        if (pollsJobs && !options.jobs().emrServerlessApplicationIds().isEmpty()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:emr-serverless:<AWS::Region>:<AWS::AccountId>:"
                            + "\\/applications\\/[0-9a-z]+\\/jobruns\\/\\*$/g").build());
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
        boolean readsSecrets = SecretPermissions.READERS.contains(f);
        if (readsSecrets && options.secrets().secretsPrefix().isPresent()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:"
                            + "[A-Za-z0-9\\/_+=.@-]+\\*$/g").build());
            reason += "; Secrets Manager secrets are scoped to the configured name prefix, the wildcard covers the "
                    + "names under it and the random suffix AWS appends to every secret ARN";
        }
        if (readsSecrets && options.secrets().ssmParameterPrefix().isPresent()) {
            wildcardResources.add(RegexAppliesTo.builder()
                    .regex("/^Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter\\/"
                            + "[A-Za-z0-9_.\\/-]*\\*$/g").build());
            reason += "; SSM parameters are scoped to the configured path, the wildcard covers the names under it";
        }
        NagSuppressions.addResourceSuppressions(role, List.of(NagPackSuppression.builder()
                .id("AwsSolutions-IAM5").reason(reason).appliesTo(wildcardResources).build()), true);
    }

    private void createFunction(InterlockFunction f, Map<String, String> environment) {
        FunctionProfile profile = FunctionProfile.of(f);
        LogGroup logGroup = LogGroup.Builder.create(this, pascal(f) + "Logs")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        Function fn = Function.Builder.create(this, pascal(f) + "Function")
                .description(profile.why())
                .runtime(Runtime.JAVA_25)
                .architecture(Architecture.ARM_64)
                .handler(f.handler())
                .code(Code.fromAsset(artifacts.deployableJar(f).toString()))
                .memorySize(profile.memoryMb())
                .timeout(Duration.seconds(profile.timeoutSeconds()))
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .tracing(Tracing.ACTIVE)
                .role(roles.get(f))
                .logGroup(logGroup)
                .environment(environment)
                .build();
        // With its own role the function gets no AWSLambdaBasicExecutionRole: it may write to its log group only.
        logGroup.grantWrite(roles.get(f));
        Annotations.of(fn).acknowledgeWarning("@aws-cdk/aws-lambda:snapStartRequirePublish",
                "Every caller invokes the live alias on the function's current published version, below.");
        Alias alias = Alias.Builder
                .create(this, pascal(f) + "LiveAlias")
                .aliasName(LIVE_ALIAS)
                .version(fn.getCurrentVersion())
                .build();
        aliases.put(f, alias);
    }

    /**
     * The function's environment: exactly {@link FunctionProfile#environmentOf} — what it reads, with the values of
     * this deployment. A variable without an AWS value here is a programming error and fails synthesis.
     *
     * @param machine the state machine, for the one function (the stream router) created after it; else null
     */
    private Map<String, String> environment(InterlockFunction f, int executionTimeoutSeconds, StateMachine machine) {
        Map<String, String> env = new LinkedHashMap<>();
        for (EnvVar v : FunctionProfile.environmentOf(f)) {
            String value = switch (v) {
                case TABLE_NAME -> table.getTableName();
                case STATE_MACHINE_ARN -> Objects.requireNonNull(machine,
                        f.moduleName() + " reads STATE_MACHINE_ARN and must be created after the state machine")
                        .getStateMachineArn();
                case ALERT_TOPIC_ARN -> alertTopic.getTopicArn();
                case EVALUATOR_BASE_URL -> options.evaluatorBaseUrl();
                case STALE_MARKER_DAYS -> Integer.toString(options.staleMarkerDays());
                case EXECUTION_TIMEOUT_SECONDS -> Integer.toString(executionTimeoutSeconds);
                case RUN_LOG_TTL_DAYS -> Integer.toString(options.runLogTtlDays());
                case RETENTION_DAYS -> Integer.toString(options.retentionDays());
                case MAX_RERUNS_PER_DAY -> Integer.toString(options.maxRerunsPerDay());
                case INTERLOCK_SECRET_HOSTS -> options.secrets().secretHosts();
                case INTERLOCK_SECRETS_PREFIX -> options.secrets().secretsPrefix().orElse("");
                case INTERLOCK_SSM_PARAMETER_PREFIX -> options.secrets().ssmParameterPrefix().orElse("");
                case INTERLOCK_SECRET_CACHE_SECONDS -> Integer.toString(options.secrets().cacheSeconds());
                default -> throw new IllegalStateException("No AWS value for " + v + " used by " + f.moduleName());
            };
            env.put(v.name(), value);
        }
        return env;
    }

    private void grantTableAccess() {
        for (InterlockFunction f : InterlockFunction.values()) {
            FunctionProfile profile = FunctionProfile.of(f);
            Role role = roles.get(f);
            if (!profile.tableActions().isEmpty()) {
                role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid("InterlockTable").effect(Effect.ALLOW)
                        .actions(profile.tableActions())
                        .resources(List.of(table.getTableArn()))
                        .build());
            }
            if (!profile.indexActions().isEmpty()) {
                List<String> indexArns = TABLE.globalIndexes().stream()
                        .map(index -> table.getTableArn() + "/index/" + index.name()).toList();
                role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                        .sid("InterlockIndexes").effect(Effect.ALLOW)
                        .actions(profile.indexActions())
                        .resources(indexArns)
                        .build());
            }
        }
    }

    /**
     * Only functions whose profile says they publish may publish. (A function may be given {@code ALERT_TOPIC_ARN}
     * because {@link EnvVar} lists it as read, and still not publish: the grant follows the code, not the variable.)
     */
    private void grantAlertPublishing() {
        for (InterlockFunction f : InterlockFunction.values()) {
            if (FunctionProfile.of(f).publishesAlerts()) {
                roles.get(f).addToPrincipalPolicy(publishAlerts());
            }
        }
    }

    private PolicyStatement publishAlerts() {
        return PolicyStatement.Builder.create()
                .sid("PublishAlerts").effect(Effect.ALLOW)
                .actions(List.of("sns:Publish"))
                .resources(List.of(alertTopic.getTopicArn()))
                .build();
    }

    private void grantJobPermissions() {
        JobPermissions permissions = new JobPermissions(options.jobs());
        permissions.trigger().forEach(roles.get(InterlockFunction.TRIGGER)::addToPrincipalPolicy);
        permissions.runChecker().forEach(roles.get(InterlockFunction.RUN_CHECKER)::addToPrincipalPolicy);
        permissions.evaluator().forEach(roles.get(InterlockFunction.EVALUATOR)::addToPrincipalPolicy);
    }

    private void grantSecretReads() {
        SecretPermissions permissions = new SecretPermissions(options.secrets());
        for (InterlockFunction f : InterlockFunction.values()) {
            permissions.of(f).forEach(roles.get(f)::addToPrincipalPolicy);
        }
    }

    /**
     * Marker INSERTs → stream router. TRIM_HORIZON is safe because execution names are deterministic per marker
     * (a re-read record meets ExecutionAlreadyExists); bisect + partial batch responses isolate a poison record,
     * bounded retries and a maximum record age stop it blocking the shard, and the DLQ keeps its coordinates.
     */
    private void streamToRouter() {
        aliases.get(InterlockFunction.STREAM_ROUTER).addEventSource(DynamoEventSource.Builder.create(table)
                .startingPosition(StartingPosition.TRIM_HORIZON)
                .filters(List.of(Map.of("pattern", TABLE.markerStreamFilterPattern())))
                .batchSize(10)
                .bisectBatchOnError(true)
                .retryAttempts(5)
                .maxRecordAge(Duration.hours(6))
                .reportBatchItemFailures(true)
                .onFailure(new SqsDlq(streamDeadLetterQueue))
                .build());
    }

    // ------------------------------------------------------------------------------------------------ workflow

    private StateMachine stateMachine() {
        Role role = Role.Builder.create(this, "StateMachineRole")
                .assumedBy(new ServicePrincipal("states.amazonaws.com"))
                .description("Interlock state machine: invokes the four workflow aliases and publishes alerts")
                .build();
        Map<String, String> substitutions = new LinkedHashMap<>();
        for (InterlockFunction f : WORKFLOW_FUNCTIONS) {
            Alias alias = aliases.get(f);
            substitutions.put(pascal(f) + "FunctionArn", alias.getFunctionArn());
            role.addToPrincipalPolicy(PolicyStatement.Builder.create()
                    .sid("Invoke" + pascal(f)).effect(Effect.ALLOW)
                    .actions(List.of("lambda:InvokeFunction"))
                    .resources(List.of(alias.getFunctionArn()))
                    .build());
        }
        substitutions.put("AlertTopicArn", alertTopic.getTopicArn());
        role.addToPrincipalPolicy(publishAlerts());
        NagSuppressions.addResourceSuppressions(role, List.of(NagPackSuppression.builder()
                .id("AwsSolutions-IAM5")
                .reason("Step Functions log delivery (logs:*LogDelivery, DescribeLogGroups, resource policies) and "
                        + "X-Ray tracing (PutTraceSegments, GetSampling*) accept only Resource *")
                .appliesTo(List.of("Resource::*"))
                .build()), true);

        LogGroup logGroup = LogGroup.Builder.create(this, "StateMachineLogs")
                // The vended-logs prefix keeps CloudWatch Logs' account-wide resource policy under its size limit.
                .logGroupName("/aws/vendedlogs/states/" + options.stackName() + "-pipeline")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        return StateMachine.Builder.create(this, "PipelineStateMachine")
                .stateMachineType(StateMachineType.STANDARD)
                // Inline, not an S3 asset: the template then shows the definition and tests can read it. The
                // machine's TimeoutSeconds is part of the definition itself.
                .definitionBody(DefinitionBody.fromString(artifacts.stateMachineAsl()))
                .definitionSubstitutions(substitutions)
                .role(role)
                .tracingEnabled(true)
                // Execution data stays out of the logs: trigger headers (credentials for authenticated polls) pass
                // through the state, and execution history already keeps it under Step Functions access control.
                .logs(LogOptions.builder().destination(logGroup).level(LogLevel.ALL).includeExecutionData(false).build())
                .build();
    }

    private void watchdogSchedule() {
        Rule.Builder.create(this, "WatchdogSchedule")
                .description("Interlock watchdog: absent markers, missed SLAs, stuck runs")
                .schedule(Schedule.rate(Duration.minutes(options.watchdogRateMinutes())))
                .targets(List.of(LambdaFunction.Builder.create(aliases.get(InterlockFunction.ORCHESTRATOR))
                        .event(RuleTargetInput.fromObject(Map.of("action", "watchdog")))
                        // A tick missed is covered by the next one; retrying an old tick only adds load.
                        .retryAttempts(2)
                        .maxEventAge(Duration.minutes(options.watchdogRateMinutes()))
                        .build()))
                .build();
    }

    /**
     * The orchestrator ends the machine's callback waits (awaitJobCompletion, jobStateChange): exactly SendTaskSuccess
     * and SendTaskFailure on this state machine. A Policy of its own, not the role's default policy: the functions
     * depend on their role's default policy and the machine on the functions, so a grant there would be a cycle.
     */
    private void grantJobCallbacks() {
        Policy.Builder.create(this, "OrchestratorJobCallbacks")
                .roles(List.of(roles.get(InterlockFunction.ORCHESTRATOR)))
                .statements(List.of(PolicyStatement.Builder.create()
                        .effect(Effect.ALLOW)
                        .actions(List.of("states:SendTaskSuccess", "states:SendTaskFailure"))
                        .resources(List.of(stateMachine.getStateMachineArn()))
                        .build()))
                .build();
    }

    /**
     * Terminal job state changes of the configured jobs → orchestrator. A service with no configured jobs gets no
     * rule: Interlock cannot start its jobs (no trigger permission), so none of its events concern us.
     */
    private void jobStateChangeRules() {
        DeploymentOptions.JobTargets jobs = options.jobs();
        jobStateRule(JobStateRule.GLUE, jobs.glueJobNames());
        jobStateRule(JobStateRule.EMR_STEP, jobs.emrClusterIds());
        jobStateRule(JobStateRule.EMR_SERVERLESS, jobs.emrServerlessApplicationIds());
        jobStateRule(JobStateRule.STEP_FUNCTIONS, jobs.stateMachineArns());
    }

    /** One job-state rule, scoped to the configured jobs of its type; none when no job of that type is configured. */
    private void jobStateRule(JobStateRule rule, List<String> resources) {
        if (resources.isEmpty()) {
            return;
        }
        Rule.Builder.create(this, rule.ruleId())
                .description("Interlock: terminal " + rule.detailType() + " events of configured jobs → orchestrator")
                .eventPattern(EventPattern.builder()
                        .source(List.of(rule.source()))
                        .detailType(List.of(rule.detailType()))
                        .detail(rule.detailPattern(resources))
                        .build())
                .targets(List.of(LambdaFunction.Builder.create(aliases.get(InterlockFunction.ORCHESTRATOR))
                        .event(RuleTargetInput.fromObject(JobStateRule.targetInput(EventField.getSource(),
                                EventField.getDetailType(), EventField.getTime(), EventField.fromPath("$.detail"))))
                        .retryAttempts(3)
                        .build()))
                .build();
    }

    // ------------------------------------------------------------------------------------------------ API

    private RestApi registrationApi() {
        LogGroup accessLogs = LogGroup.Builder.create(this, "ApiAccessLogs")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        boolean iam = options.apiAuth() == ApiAuth.IAM;
        RestApi restApi = RestApi.Builder.create(this, "RegistrationApi")
                .restApiName(options.stackName() + "-registration")
                .description("Interlock registration API")
                .endpointTypes(List.of(EndpointType.REGIONAL))
                .cloudWatchRole(options.apiGatewayAccountRole())
                .deployOptions(StageOptions.builder()
                        .stageName(API_STAGE)
                        .throttlingRateLimit(options.apiThrottleRateLimit())
                        .throttlingBurstLimit(options.apiThrottleBurstLimit())
                        .accessLogDestination(new LogGroupLogDestination(accessLogs))
                        .accessLogFormat(AccessLogFormat.jsonWithStandardFields(JsonWithStandardFieldProps.builder()
                                .caller(true).httpMethod(true).ip(true).protocol(true).requestTime(true)
                                .resourcePath(true).responseLength(true).status(true).user(true).build()))
                        // ERROR, not INFO: execution logs at INFO would copy registration bodies into CloudWatch.
                        .loggingLevel(MethodLoggingLevel.ERROR)
                        .dataTraceEnabled(false)
                        .metricsEnabled(true)
                        .tracingEnabled(true)
                        .build())
                .build();
        if (options.apiGatewayAccountRole()) {
            NagSuppressions.addResourceSuppressions(restApi, List.of(NagPackSuppression.builder()
                    .id("AwsSolutions-IAM4")
                    .reason("The account-level API Gateway logging role uses AWS's AmazonAPIGatewayPushToCloudWatchLogs, "
                            + "the policy API Gateway documents for execution and access logging")
                    .appliesTo(List.of("Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                            + "AmazonAPIGatewayPushToCloudWatchLogs"))
                    .build()), true);
        }

        // Parameters the contract marks required (every path parameter) are checked before Lambda runs; bodies are
        // JSON or YAML, which no API Gateway model can describe, so the function validates them.
        RequestValidator validator = restApi.addRequestValidator("PathAndBodyValidator",
                RequestValidatorOptions.builder()
                        .requestValidatorName("path-parameters-and-body")
                        .validateRequestParameters(true)
                        .validateRequestBody(true)
                        .build());
        LambdaIntegration integration = new LambdaIntegration(aliases.get(InterlockFunction.API),
                LambdaIntegrationOptions.builder()
                        .proxy(true)
                        // One invoke permission for the whole API instead of one per route (and per test-invoke).
                        .scopePermissionToMethod(false)
                        .build());
        for (ApiContract.Operation operation : artifacts.apiContract().operations()) {
            IResource resource = restApi.getRoot().resourceForPath(operation.path());
            resource.addMethod(operation.method(), integration, MethodOptions.builder()
                    .operationName(operation.operationId())
                    .authorizationType(iam ? AuthorizationType.IAM : AuthorizationType.NONE)
                    .apiKeyRequired(!iam)
                    .requestValidator(validator)
                    .requestParameters(operation.requestParameters())
                    .build());
        }
        List<NagPackSuppression> authSuppressions = new ArrayList<>();
        authSuppressions.add(suppress("AwsSolutions-COG4",
                "Callers are AWS principals and CI jobs (SigV4 via the CLI), not end users with a Cognito pool; "
                        + (iam ? "every method uses IAM authorization." : "this deployment chose API-key mode.")));
        if (!iam) {
            authSuppressions.add(suppress("AwsSolutions-APIG4",
                    "API-key mode was chosen by context (apiAuth=api-key): every method requires an x-api-key bound "
                            + "to a throttled usage plan; the default deployment uses IAM authorization."));
        }
        NagSuppressions.addResourceSuppressions(restApi, authSuppressions, true);

        if (!iam) {
            IApiKey key = restApi.addApiKey("ApiKey", ApiKeyOptions.builder()
                    .description("Interlock registration API key").build());
            UsagePlan plan = restApi.addUsagePlan("UsagePlan", UsagePlanProps
                    .builder()
                    .name(options.stackName() + "-registration")
                    .throttle(ThrottleSettings.builder()
                            .rateLimit(options.apiThrottleRateLimit())
                            .burstLimit(options.apiThrottleBurstLimit())
                            .build())
                    .build());
            plan.addApiKey(key);
            plan.addApiStage(UsagePlanPerApiStage.builder().api(restApi).stage(restApi.getDeploymentStage()).build());
            CfnOutput.Builder.create(this, "ApiKeyId")
                    .description("Id of the API key; read its value with: aws apigateway get-api-key --include-value "
                            + "--api-key <id>")
                    .value(key.getKeyId())
                    .build();
        }
        // RestApi adds an "Endpoint" output of its own; ApiUrl (below) is the one the README and the CLI name.
        restApi.getNode().tryRemoveChild("Endpoint");
        bodySizeGuard(restApi);
        return restApi;
    }

    /**
     * API Gateway REST APIs accept bodies up to 10 MB and offer no smaller limit of their own. A WAF web ACL on the
     * stage refuses requests whose declared Content-Length exceeds the limit, before Lambda runs: WAF inspects at
     * most 64 KB of a body, so the rule reads the header (as a number, see {@link ContentLengthPattern}) rather than
     * the body. A request that lies about its length still meets the API function's own 256 KiB check.
     */
    private void bodySizeGuard(RestApi restApi) {
        long limitBytes = options.apiMaxRequestBodyKb() * 1024L;
        CfnWebACL acl = CfnWebACL.Builder.create(this, "ApiWebAcl")
                .scope("REGIONAL")
                .description("Interlock registration API: refuses request bodies over " + options.apiMaxRequestBodyKb()
                        + " KiB")
                .defaultAction(CfnWebACL.DefaultActionProperty.builder()
                        .allow(CfnWebACL.AllowActionProperty.builder().build()).build())
                .rules(List.of(CfnWebACL.RuleProperty.builder()
                        .name("RequestBodyTooLarge")
                        .priority(0)
                        .action(CfnWebACL.RuleActionProperty.builder()
                                .block(CfnWebACL.BlockActionProperty.builder()
                                        .customResponse(CfnWebACL.CustomResponseProperty.builder()
                                                .responseCode(413).build())
                                        .build())
                                .build())
                        .statement(CfnWebACL.StatementProperty.builder()
                                .regexMatchStatement(CfnWebACL.RegexMatchStatementProperty.builder()
                                        .fieldToMatch(CfnWebACL.FieldToMatchProperty.builder()
                                                .singleHeader(Map.of("Name", "content-length"))
                                                .build())
                                        .regexString(ContentLengthPattern.greaterThan(limitBytes))
                                        .textTransformations(List.of(CfnWebACL.TextTransformationProperty.builder()
                                                .priority(0).type("NONE").build()))
                                        .build())
                                .build())
                        .visibilityConfig(visibility("request-body-too-large"))
                        .build()))
                .visibilityConfig(visibility(options.stackName() + "-registration-api"))
                .build();
        CfnWebACLAssociation.Builder.create(this, "ApiWebAclAssociation")
                .resourceArn(restApi.getDeploymentStage().getStageArn())
                .webAclArn(acl.getAttrArn())
                .build();
    }

    private static CfnWebACL.VisibilityConfigProperty visibility(String metricName) {
        return CfnWebACL.VisibilityConfigProperty.builder()
                .cloudWatchMetricsEnabled(true).sampledRequestsEnabled(true).metricName(metricName).build();
    }

    // ------------------------------------------------------------------------------------------------ alarms

    private void alarms() {
        Optional<ITopic> alarmTopic = options.alarmTopicArn().map(arn -> Topic.fromTopicArn(this, "AlarmTopic", arn));
        MetricOptions fiveMinuteSum = MetricOptions.builder().period(Duration.minutes(5)).statistic("Sum").build();
        for (InterlockFunction f : InterlockFunction.values()) {
            alarm(pascal(f) + "ErrorsAlarm", "Interlock " + f.moduleName() + ": invocations failed",
                    aliases.get(f).metricErrors(fiveMinuteSum), 1, alarmTopic);
        }
        alarm("ExecutionsFailedAlarm", "Interlock state machine: executions failed (business or infrastructure)",
                stateMachine.metricFailed(fiveMinuteSum), 1, alarmTopic);
        alarm("ExecutionsTimedOutAlarm", "Interlock state machine: executions hit TimeoutSeconds",
                stateMachine.metricTimedOut(fiveMinuteSum), 1, alarmTopic);
        alarm("StreamDeadLetterQueueAlarm", "Interlock: marker batches gave up and went to the stream DLQ",
                streamDeadLetterQueue.metricApproximateNumberOfMessagesVisible(MetricOptions.builder()
                        .period(Duration.minutes(5)).statistic("Maximum").build()), 1, alarmTopic);
        // Stream records live 24 h; a router more than 10 minutes behind is delaying every pipeline start.
        alarm("StreamIteratorAgeAlarm", "Interlock stream router: oldest unprocessed marker is over 10 minutes old",
                aliases.get(InterlockFunction.STREAM_ROUTER).metric("IteratorAge", MetricOptions.builder()
                        .period(Duration.minutes(5)).statistic("Maximum").build()), 600_000, alarmTopic);
        alarm("ApiServerErrorsAlarm", "Interlock registration API: 5xx responses (no input may cause one)",
                api.metricServerError(fiveMinuteSum), 1, alarmTopic);
    }

    private void alarm(String id, String description, IMetric metric, double threshold, Optional<ITopic> topic) {
        Alarm alarm = Alarm.Builder.create(this, id)
                .alarmDescription(description)
                .metric(metric)
                .threshold(threshold)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        topic.ifPresent(t -> {
            alarm.addAlarmAction(new SnsAction(t));
            alarm.addOkAction(new SnsAction(t));
        });
    }

    private void outputs() {
        CfnOutput.Builder.create(this, "ApiUrl").description("Registration API endpoint (--endpoint of the CLI)")
                .value(api.getUrl()).build();
        CfnOutput.Builder.create(this, "TableName").description("Interlock DynamoDB table")
                .value(table.getTableName()).build();
        CfnOutput.Builder.create(this, "StateMachineArn").description("Pipeline state machine")
                .value(stateMachine.getStateMachineArn()).build();
        CfnOutput.Builder.create(this, "AlertTopicArn").description("Subscribe here to receive alerts")
                .value(alertTopic.getTopicArn()).build();
        CfnOutput.Builder.create(this, "StreamDeadLetterQueueUrl")
                .description("Stream batches that exhausted their retries").value(streamDeadLetterQueue.getQueueUrl())
                .build();
    }

    // ------------------------------------------------------------------------------------------------ helpers

    private static NagPackSuppression suppress(String id, String reason) {
        return NagPackSuppression.builder().id(id).reason(reason).build();
    }

    /** {@code run-checker} → {@code RunChecker}: construct ids and the ASL placeholder stems. */
    static String pascal(InterlockFunction f) {
        return pascalOf(f.moduleName());
    }

    private static String pascalOf(String name) {
        StringBuilder out = new StringBuilder();
        for (String part : name.toLowerCase(Locale.ROOT).split("[-_]")) {
            out.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return out.toString();
    }

    static RetentionDays retention(int days) {
        return switch (days) {
            case 1 -> RetentionDays.ONE_DAY;
            case 3 -> RetentionDays.THREE_DAYS;
            case 5 -> RetentionDays.FIVE_DAYS;
            case 7 -> RetentionDays.ONE_WEEK;
            case 14 -> RetentionDays.TWO_WEEKS;
            case 30 -> RetentionDays.ONE_MONTH;
            case 60 -> RetentionDays.TWO_MONTHS;
            case 90 -> RetentionDays.THREE_MONTHS;
            case 120 -> RetentionDays.FOUR_MONTHS;
            case 150 -> RetentionDays.FIVE_MONTHS;
            case 180 -> RetentionDays.SIX_MONTHS;
            case 365 -> RetentionDays.ONE_YEAR;
            case 400 -> RetentionDays.THIRTEEN_MONTHS;
            case 545 -> RetentionDays.EIGHTEEN_MONTHS;
            case 731 -> RetentionDays.TWO_YEARS;
            case 1096 -> RetentionDays.THREE_YEARS;
            case 1827 -> RetentionDays.FIVE_YEARS;
            case 2192 -> RetentionDays.SIX_YEARS;
            case 2557 -> RetentionDays.SEVEN_YEARS;
            case 2922 -> RetentionDays.EIGHT_YEARS;
            case 3288 -> RetentionDays.NINE_YEARS;
            case 3653 -> RetentionDays.TEN_YEARS;
            default -> throw new IllegalArgumentException("CloudWatch Logs has no retention of " + days + " days");
        };
    }
}
