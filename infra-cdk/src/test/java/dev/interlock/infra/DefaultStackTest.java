package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.ExecutionEndRule;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.InterlockVersion;
import dev.interlock.model.runtime.TableDefinition;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awscdk.assertions.Match;

/** The stack as {@code cdk deploy} builds it without any context: every item of infra-cdk/README.md, least privilege, cdk-nag. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DefaultStackTest {

    private SynthesizedStack synth;

    @BeforeAll
    void synthesize() {
        synth = SynthesizedStack.synthesize(Map.of());
    }

    // ------------------------------------------------------------------------------------------ cdk-nag, warnings

    @Test
    void cdkNagAwsSolutionsReportsNoUnsuppressedErrorOrWarning() {
        assertThat(SynthesizedStack.describe(synth.errors())).isEmpty();
        assertThat(SynthesizedStack.describe(synth.warnings())).isEmpty();
    }

    @Test
    void everySuppressionNamesAnAwsSolutionsRuleAndGivesASpecificReason() {
        List<Map<String, Object>> suppressions = suppressions(synth);
        assertThat(suppressions).isNotEmpty();
        assertThat(suppressions).allSatisfy(s -> {
            assertThat(String.valueOf(s.get("id"))).startsWith("AwsSolutions-");
            assertThat(String.valueOf(s.get("reason"))).hasSizeGreaterThanOrEqualTo(10);
        });
        Set<String> ids =
                suppressions.stream().map(s -> String.valueOf(s.get("id"))).collect(Collectors.toSet());
        assertThat(ids)
                .containsExactlyInAnyOrder(
                        "AwsSolutions-IAM5", "AwsSolutions-SQS3", "AwsSolutions-IAM4", "AwsSolutions-COG4");
    }

    @Test
    void wildcardSuppressionsApplyOnlyToResourceStarAndTheApisOwnExecutions() {
        List<Map<String, Object>> iam5 = suppressions(synth).stream()
                .filter(s -> "AwsSolutions-IAM5".equals(s.get("id")))
                .toList();
        List<Object> resourceStar = List.of("Resource::*");
        // The operator's unlock: executions of this stack's machine, by name (the lock owner).
        List<Object> apiExecutions = List.of("Resource::*", Map.of("regex", InterlockFunctions.API_EXECUTIONS));
        // The watchdog's holder check: DescribeExecution on the same executions, in the orchestrator's own Policy.
        List<Object> holderChecks = List.of(Map.of("regex", InterlockFunctions.API_EXECUTIONS));
        assertThat(iam5)
                .isNotEmpty()
                .allSatisfy(s -> assertThat(List.<Object>copyOf(Json.list(s, "applies_to")))
                        .isIn(resourceStar, apiExecutions, holderChecks));
        Map<String, Object> apiRole = synth.resources().get(synth.roleId(InterlockFunction.API));
        assertThat(Json.write(Json.at(apiRole, "Metadata"))).contains("PipelineStateMachine[0-9A-F]{8}");
    }

    // ------------------------------------------------------------------------------------------ logical ids

    /** See {@link StatefulLogicalIds}: these ids are what existing deployments hold. */
    @Test
    void statefulResourcesKeepTheirLogicalIds() {
        assertThat(StatefulLogicalIds.of(synth))
                .isEqualTo(Map.of(
                        "AWS::DynamoDB::Table",
                        List.of("TableCD117FA1"),
                        "AWS::SQS::Queue",
                        List.of("EventRuleDeadLetterQueue9ECFBABC", "StreamDeadLetterQueueDA607735"),
                        "AWS::SNS::Topic",
                        List.of("AlertTopic2720D535"),
                        "AWS::Logs::LogGroup",
                        List.of(
                                "ApiAccessLogsE9DF007D",
                                "ApiLogs3D05D88B",
                                "EvaluatorLogsA69B46B6",
                                "OrchestratorLogsDA257AF9",
                                "RunCheckerLogs890B9926",
                                "StateMachineLogs3CB16D3C",
                                "StreamRouterLogsC5DA98BD",
                                "TriggerLogs463D9B05"),
                        "AWS::StepFunctions::StateMachine",
                        List.of("PipelineStateMachine88B77A5B"),
                        "AWS::ApiGateway::RestApi",
                        List.of("RegistrationApi996C8F66"),
                        "AWS::ApiGateway::Stage",
                        List.of("RegistrationApiDeploymentStagev148CCE5C1"),
                        "AWS::Lambda::EventSourceMapping",
                        List.of("StreamRouterLiveAliasDynamoDBEventSourceInterlockTableCB14B9B5923F15E0")));
    }

    // ------------------------------------------------------------------------------------------ table

    @Test
    void tableComesFromTheSharedDefinition() {
        TableDefinition def = TableDefinition.INTERLOCK;
        synth.template()
                .hasResourceProperties(
                        "AWS::DynamoDB::Table",
                        Map.of(
                                "KeySchema",
                                        List.of(
                                                Map.of("AttributeName", def.partitionKey(), "KeyType", "HASH"),
                                                Map.of("AttributeName", def.sortKey(), "KeyType", "RANGE")),
                                "AttributeDefinitions",
                                        Match.arrayWith(List.of(
                                                Map.of("AttributeName", "PK", "AttributeType", "S"),
                                                Map.of("AttributeName", "SK", "AttributeType", "S"),
                                                Map.of("AttributeName", "GSI1PK", "AttributeType", "S"),
                                                Map.of("AttributeName", "GSI1SK", "AttributeType", "S"))),
                                "GlobalSecondaryIndexes",
                                        List.of(Map.of(
                                                "IndexName", "GSI1",
                                                "KeySchema",
                                                        List.of(
                                                                Map.of("AttributeName", "GSI1PK", "KeyType", "HASH"),
                                                                Map.of("AttributeName", "GSI1SK", "KeyType", "RANGE")),
                                                "Projection", Map.of("ProjectionType", "ALL"))),
                                "TimeToLiveSpecification", Map.of("AttributeName", "ttl", "Enabled", true),
                                "StreamSpecification", Map.of("StreamViewType", "NEW_AND_OLD_IMAGES")));
    }

    @Test
    void tableIsOnDemandEncryptedRecoverableAndProtectedByDefault() {
        synth.template()
                .hasResource(
                        "AWS::DynamoDB::Table",
                        Map.of(
                                "DeletionPolicy", "Retain",
                                "UpdateReplacePolicy", "Retain",
                                "Properties",
                                        Match.objectLike(Map.of(
                                                "BillingMode",
                                                "PAY_PER_REQUEST",
                                                "PointInTimeRecoverySpecification",
                                                Map.of("PointInTimeRecoveryEnabled", true),
                                                // SSEEnabled without a key = KMS with the AWS managed key (not the
                                                // AWS-owned default).
                                                "SSESpecification",
                                                Map.of("SSEEnabled", true),
                                                "DeletionProtectionEnabled",
                                                true))));
    }

    // ------------------------------------------------------------------------------------------ functions

    @Test
    void thereAreExactlySixFunctionsEachBehindOneLiveAliasOnItsPublishedVersion() {
        assertThat(synth.resourcesOfType("AWS::Lambda::Function")).hasSize(6);
        assertThat(synth.resourcesOfType("AWS::Lambda::Version")).hasSize(6);
        assertThat(synth.resourcesOfType("AWS::Lambda::Alias")).hasSize(6);
        for (InterlockFunction f : InterlockFunction.values()) {
            Map<String, Object> alias = synth.resources().get(synth.aliasId(f));
            assertThat(Json.at(alias, "Properties", "Name")).isEqualTo("live");
            String versionId = String.valueOf(Json.list(alias, "Properties", "FunctionVersion", "Fn::GetAtt")
                    .get(0));
            assertThat(Json.at(synth.resources().get(versionId), "Properties", "FunctionName"))
                    .isEqualTo(Json.ref(synth.functionId(f)));
        }
    }

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void functionIsJava25Arm64SnapStartTracedAndSizedByItsProfile(InterlockFunction f) {
        FunctionProfile profile = FunctionProfile.of(f);
        Map<String, Object> props = Json.map(synth.function(f), "Properties");
        assertThat(props.get("Runtime")).isEqualTo("java25");
        assertThat(props.get("Architectures")).isEqualTo(List.of("arm64"));
        assertThat(props.get("Handler")).isEqualTo(f.handler());
        assertThat(props.get("SnapStart")).isEqualTo(Map.of("ApplyOn", "PublishedVersions"));
        assertThat(props.get("TracingConfig")).isEqualTo(Map.of("Mode", "Active"));
        assertThat(props.get("MemorySize")).isEqualTo(profile.memoryMb());
        assertThat(props.get("Timeout")).isEqualTo(profile.timeoutSeconds());
        assertThat(String.valueOf(Json.at(props, "Code", "S3Key"))).endsWith(".jar");
    }

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void functionLogsToItsOwnLogGroupWithRetention(InterlockFunction f) {
        Object logGroupRef = Json.at(synth.function(f), "Properties", "LoggingConfig", "LogGroup");
        String logGroupId = String.valueOf(Json.at(logGroupRef, "Ref"));
        assertThat(Json.at(synth.resources().get(logGroupId), "Properties", "RetentionInDays"))
                .isEqualTo(30);
        Map<String, Object> logStatement = synth.statementsOf(f).stream()
                .filter(s -> Json.strings(s, "Action").contains("logs:PutLogEvents"))
                .findFirst()
                .orElseThrow();
        assertThat(Json.strings(logStatement, "Action"))
                .containsExactlyInAnyOrder("logs:CreateLogStream", "logs:PutLogEvents");
        assertThat(logStatement.get("Resource")).isEqualTo(Map.of("Fn::GetAtt", List.of(logGroupId, "Arn")));
    }

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void functionGetsExactlyTheEnvironmentItReadsLessTheLocalOnlySwitches(InterlockFunction f) {
        Set<String> expected = new TreeSet<>();
        for (EnvVar v : EnvVar.usedBy(f)) {
            if (v != EnvVar.INTERLOCK_ALLOW_PRIVATE_URLS && !v.name().startsWith("INTERLOCK_ENDPOINT_")) {
                expected.add(v.name());
            }
        }
        Map<String, Object> variables = Json.map(synth.function(f), "Properties", "Environment", "Variables");
        assertThat(new TreeSet<>(variables.keySet())).isEqualTo(expected);
    }

    @Test
    void environmentValuesPointAtThisStacksResourcesAndTheDefaults() {
        String tableId = onlyId("AWS::DynamoDB::Table");
        String topicId = onlyId("AWS::SNS::Topic");
        String machineId = onlyId("AWS::StepFunctions::StateMachine");
        Map<String, Object> router =
                Json.map(synth.function(InterlockFunction.STREAM_ROUTER), "Properties", "Environment", "Variables");
        assertThat(router)
                .containsEntry("TABLE_NAME", Json.ref(tableId))
                .containsEntry("STATE_MACHINE_ARN", Json.ref(machineId))
                .containsEntry("STALE_MARKER_DAYS", EnvVar.STALE_MARKER_DAYS.defaultValue());
        Map<String, Object> orchestrator =
                Json.map(synth.function(InterlockFunction.ORCHESTRATOR), "Properties", "Environment", "Variables");
        assertThat(orchestrator)
                .containsEntry("ALERT_TOPIC_ARN", Json.ref(topicId))
                .containsEntry("RUN_LOG_TTL_DAYS", EnvVar.RUN_LOG_TTL_DAYS.defaultValue())
                .containsEntry("RETENTION_DAYS", EnvVar.RETENTION_DAYS.defaultValue())
                .containsEntry("MAX_RERUNS_PER_DAY", EnvVar.MAX_RERUNS_PER_DAY.defaultValue());
        Map<String, Object> evaluator =
                Json.map(synth.function(InterlockFunction.EVALUATOR), "Properties", "Environment", "Variables");
        assertThat(evaluator).containsEntry("EVALUATOR_BASE_URL", "");
    }

    @Test
    void orchestratorExecutionTimeoutIsTheMachinesTimeoutSecondsReadFromTheAsl() {
        int timeout = synth.artifacts().executionTimeoutSeconds();
        assertThat(Json.at(
                        synth.function(InterlockFunction.ORCHESTRATOR),
                        "Properties",
                        "Environment",
                        "Variables",
                        "EXECUTION_TIMEOUT_SECONDS"))
                .isEqualTo(Integer.toString(timeout));
        assertThat(definitionString()).contains("\"TimeoutSeconds\": " + timeout);
    }

    // ------------------------------------------------------------------------------------------ stream mapping

    @Test
    void streamMappingFeedsOnlyMarkerInsertsToTheRouterAliasWithBoundedRetriesAndADlq() {
        Map<String, Map<String, Object>> mappings = synth.resourcesOfType("AWS::Lambda::EventSourceMapping");
        assertThat(mappings).hasSize(1);
        Map<String, Object> props = Json.map(mappings.values().iterator().next(), "Properties");
        assertThat(props.get("FilterCriteria"))
                .isEqualTo(Map.of(
                        "Filters", List.of(Map.of("Pattern", TableDefinition.INTERLOCK.markerStreamFilterPattern()))));
        assertThat(props.get("EventSourceArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(onlyId("AWS::DynamoDB::Table"), "StreamArn")));
        assertThat(props.get("BatchSize")).isEqualTo(10);
        assertThat(props.get("BisectBatchOnFunctionError")).isEqualTo(true);
        assertThat(props.get("MaximumRetryAttempts")).isEqualTo(5);
        assertThat(props.get("MaximumRecordAgeInSeconds")).isEqualTo(21_600);
        assertThat(props.get("FunctionResponseTypes")).isEqualTo(List.of("ReportBatchItemFailures"));
        assertThat(props.get("StartingPosition")).isEqualTo("TRIM_HORIZON");
        assertThat(Json.at(props, "DestinationConfig", "OnFailure", "Destination"))
                .isEqualTo(Map.of(
                        "Fn::GetAtt", List.of(onlyIdStartingWith("AWS::SQS::Queue", "StreamDeadLetterQueue"), "Arn")));
        assertThat(Json.write(props.get("FunctionName")))
                .contains(synth.aliasId(InterlockFunction.STREAM_ROUTER))
                .contains(":live");
    }

    @Test
    void deadLetterQueuesAreEncryptedAndRefusePlainTransport() {
        Map<String, Map<String, Object>> queues = synth.resourcesOfType("AWS::SQS::Queue");
        assertThat(queues).hasSize(2);
        for (Map.Entry<String, Map<String, Object>> queue : queues.entrySet()) {
            assertThat(Json.map(queue.getValue(), "Properties"))
                    .as(queue.getKey())
                    .containsEntry("SqsManagedSseEnabled", true)
                    .containsEntry("MessageRetentionPeriod", 1_209_600);
            assertQueuePolicyHas(
                    queue.getKey(),
                    Map.of("Effect", "Deny", "Condition", Map.of("Bool", Map.of("aws:SecureTransport", "false"))));
        }
    }

    /**
     * No event is lost silently: every EventBridge rule target (the watchdog tick, the execution-end rule; the job-state
     * rules in ConfiguredStackTest) retries, then puts what it could not deliver in the rule DLQ, whose depth alarms.
     */
    @Test
    void everyRuleTargetHasARetryPolicyAndTheRuleDeadLetterQueueWhoseDepthAlarms() {
        String dlq = onlyIdStartingWith("AWS::SQS::Queue", "EventRuleDeadLetterQueue");
        Map<String, Map<String, Object>> rules = synth.resourcesOfType("AWS::Events::Rule");
        assertThat(rules).hasSize(2);
        assertEveryTargetDeadLettersTo(synth, rules, dlq);
        synth.template()
                .hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Match.objectLike(Map.of(
                                "MetricName",
                                "ApproximateNumberOfMessagesVisible",
                                "Threshold",
                                1,
                                "Dimensions",
                                List.of(Map.of(
                                        "Name",
                                        "QueueName",
                                        "Value",
                                        Map.of("Fn::GetAtt", List.of(dlq, "QueueName")))))));
        assertQueuePolicyHas(
                dlq, Map.of("Action", "sqs:SendMessage", "Principal", Map.of("Service", "events.amazonaws.com")));
    }

    /** The policy of queue {@code queueId} has a statement like {@code statement}. */
    private void assertQueuePolicyHas(String queueId, Map<String, Object> statement) {
        synth.template()
                .hasResourceProperties(
                        "AWS::SQS::QueuePolicy",
                        Map.of(
                                "Queues",
                                List.of(Json.ref(queueId)),
                                "PolicyDocument",
                                Map.of("Statement", Match.arrayWith(List.of(Match.objectLike(statement))))));
    }

    /** Each target of {@code rules} has a retry policy and dead-letters to {@code dlq}. */
    static void assertEveryTargetDeadLettersTo(
            SynthesizedStack synth, Map<String, Map<String, Object>> rules, String dlq) {
        for (Map.Entry<String, Map<String, Object>> rule : rules.entrySet()) {
            List<Object> targets = Json.list(rule.getValue(), "Properties", "Targets");
            assertThat(targets).as(rule.getKey()).isNotEmpty();
            for (Object target : targets) {
                @SuppressWarnings("unchecked")
                Map<String, Object> t = (Map<String, Object>) target;
                assertThat(Json.at(t, "DeadLetterConfig", "Arn"))
                        .as(rule.getKey())
                        .isEqualTo(Map.of("Fn::GetAtt", List.of(dlq, "Arn")));
                assertThat(Json.at(t, "RetryPolicy", "MaximumRetryAttempts"))
                        .as(rule.getKey())
                        .isNotNull();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ workflow

    @Test
    void stateMachineIsStandardTracedLoggedAndInline() {
        String logGroupId = synth.resourcesOfType("AWS::Logs::LogGroup").entrySet().stream()
                .filter(e -> String.valueOf(Json.at(e.getValue(), "Properties", "LogGroupName"))
                        .equals("/aws/vendedlogs/states/Interlock-pipeline"))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
        synth.template()
                .hasResourceProperties(
                        "AWS::StepFunctions::StateMachine",
                        Map.of(
                                "StateMachineType", "STANDARD",
                                "TracingConfiguration", Map.of("Enabled", true),
                                "LoggingConfiguration",
                                        Map.of(
                                                "Level",
                                                "ALL",
                                                "IncludeExecutionData",
                                                false,
                                                "Destinations",
                                                List.of(Map.of(
                                                        "CloudWatchLogsLogGroup",
                                                        Map.of(
                                                                "LogGroupArn",
                                                                Map.of("Fn::GetAtt", List.of(logGroupId, "Arn"))))))));
        assertThat(definitionString()).isEqualTo(readAsl());
    }

    @Test
    void definitionSubstitutionsFillEveryPlaceholderWithTheLiveAliasesAndTheTopic() {
        Map<String, Object> substitutions = Json.map(
                synth.resources().get(onlyId("AWS::StepFunctions::StateMachine")),
                "Properties",
                "DefinitionSubstitutions");
        assertThat(substitutions.keySet()).containsExactlyInAnyOrderElementsOf(BuildArtifacts.ASL_PLACEHOLDERS);
        assertThat(substitutions)
                .containsEntry("OrchestratorFunctionArn", Json.ref(synth.aliasId(InterlockFunction.ORCHESTRATOR)))
                .containsEntry("EvaluatorFunctionArn", Json.ref(synth.aliasId(InterlockFunction.EVALUATOR)))
                .containsEntry("TriggerFunctionArn", Json.ref(synth.aliasId(InterlockFunction.TRIGGER)))
                .containsEntry("RunCheckerFunctionArn", Json.ref(synth.aliasId(InterlockFunction.RUN_CHECKER)))
                .containsEntry("AlertTopicArn", Json.ref(onlyId("AWS::SNS::Topic")));
    }

    @Test
    void stateMachineRoleInvokesOnlyTheFourWorkflowAliasesAndPublishesOnlyToTheTopic() {
        Map<String, Object> machine = synth.resources().get(onlyId("AWS::StepFunctions::StateMachine"));
        String roleId = String.valueOf(
                Json.list(machine, "Properties", "RoleArn", "Fn::GetAtt").get(0));
        List<Map<String, Object>> statements = synth.statementsOfRole(roleId);
        List<Object> invoked = statements.stream()
                .filter(s -> Json.strings(s, "Action").contains("lambda:InvokeFunction"))
                .map(s -> s.get("Resource"))
                .toList();
        assertThat(invoked)
                .containsExactlyInAnyOrder(
                        Json.ref(synth.aliasId(InterlockFunction.ORCHESTRATOR)),
                                Json.ref(synth.aliasId(InterlockFunction.EVALUATOR)),
                        Json.ref(synth.aliasId(InterlockFunction.TRIGGER)),
                                Json.ref(synth.aliasId(InterlockFunction.RUN_CHECKER)));
        assertThat(statements)
                .filteredOn(s -> Json.strings(s, "Action").contains("sns:Publish"))
                .extracting(s -> s.get("Resource"))
                .containsExactly(Json.ref(onlyId("AWS::SNS::Topic")));
        Set<String> otherActions = statements.stream()
                .flatMap(s -> Json.strings(s, "Action").stream())
                .filter(a -> !a.equals("lambda:InvokeFunction") && !a.equals("sns:Publish"))
                .collect(Collectors.toSet());
        assertThat(otherActions).allSatisfy(a -> assertThat(a).matches("(logs|xray):[A-Za-z]+"));
    }

    @Test
    void alertTopicIsEncryptedAndEnforcesTls() {
        synth.template().hasResourceProperties("AWS::SNS::Topic", Map.of("KmsMasterKeyId", Match.anyValue()));
        assertThat(Json.write(
                        Json.at(synth.resources().get(onlyId("AWS::SNS::Topic")), "Properties", "KmsMasterKeyId")))
                .contains("alias/aws/sns");
        synth.template()
                .hasResourceProperties(
                        "AWS::SNS::TopicPolicy",
                        Map.of(
                                "PolicyDocument",
                                Map.of(
                                        "Statement",
                                        Match.arrayWith(List.of(Match.objectLike(Map.of(
                                                "Effect",
                                                "Deny",
                                                "Condition",
                                                Map.of("Bool", Map.of("aws:SecureTransport", "false")))))))));
    }

    @Test
    void watchdogRuleInvokesTheOrchestratorAliasEveryFiveMinutes() {
        Map<String, Map<String, Object>> rules = synth.resourcesOfType("AWS::Events::Rule");
        assertThat(rules).as("the watchdog and the execution-end rule").hasSize(2);
        Map<String, Object> props = rules.values().stream()
                .map(r -> Json.map(r, "Properties"))
                .filter(p -> p.containsKey("ScheduleExpression"))
                .findFirst()
                .orElseThrow();
        assertThat(props.get("ScheduleExpression")).isEqualTo("rate(5 minutes)");
        Map<String, Object> target = Json.map(Json.list(props, "Targets").get(0));
        assertThat(target.get("Arn")).isEqualTo(Json.ref(synth.aliasId(InterlockFunction.ORCHESTRATOR)));
        assertThat(target.get("Input")).isEqualTo("{\"action\":\"" + OrchestratorAction.WATCHDOG.wireName() + "\"}");
        synth.template()
                .hasResourceProperties(
                        "AWS::Lambda::Permission",
                        Map.of(
                                "Action", "lambda:InvokeFunction",
                                "Principal", "events.amazonaws.com",
                                "FunctionName", Json.ref(synth.aliasId(InterlockFunction.ORCHESTRATOR))));
    }

    @Test
    void executionsOfTheStateMachineThatEndWithoutReleasingTheirLockGoToTheOrchestrator() {
        Map<String, Object> rule =
                synth.resources().get(onlyIdStartingWith("AWS::Events::Rule", ExecutionEndRule.RULE_ID));
        Map<String, Object> props = Json.map(rule, "Properties");
        assertThat(Json.at(props, "EventPattern", "source")).isEqualTo(List.of("aws.states"));
        assertThat(Json.at(props, "EventPattern", "detail-type"))
                .isEqualTo(List.of("Step Functions Execution Status Change"));
        assertThat(Json.at(props, "EventPattern", "detail", "status"))
                .isEqualTo(List.of("ABORTED", "TIMED_OUT", "FAILED"));
        assertThat(Json.at(props, "EventPattern", "detail", "stateMachineArn"))
                .as("only Interlock's own executions")
                .isEqualTo(List.of(Json.ref(onlyId("AWS::StepFunctions::StateMachine"))));
        Map<String, Object> target = Json.map(Json.list(props, "Targets").get(0));
        assertThat(target.get("Arn")).isEqualTo(Json.ref(synth.aliasId(InterlockFunction.ORCHESTRATOR)));
        assertThat(String.valueOf(Json.at(target, "InputTransformer", "InputTemplate")))
                .contains("\"action\":\"" + OrchestratorAction.EXECUTION_ENDED.wireName() + "\"")
                .contains("\"detail\":<detail>");
    }

    // ------------------------------------------------------------------------------------------ API

    /**
     * docs/api.md's routes and the validation of archetypes and calendars ({@code interlock validate}); the gateway takes
     * them from the API's OpenAPI document, which must name exactly these.
     */
    private static final Set<String> SPEC_ROUTES = Set.of(
            "PUT /pipelines/{id}",
            "GET /pipelines/{id}",
            "DELETE /pipelines/{id}",
            "GET /pipelines",
            "POST /pipelines/{id}/validate",
            "PUT /archetypes/{name}",
            "GET /archetypes/{name}",
            "GET /archetypes",
            "POST /archetypes/{name}/validate",
            "POST /calendars/{name}/validate",
            "PUT /calendars/{name}",
            "GET /calendars/{name}",
            "POST /pipelines/{id}/evaluations",
            "POST /pipelines/{id}/reruns",
            "GET /pipelines/{id}/reruns",
            "GET /pipelines/{id}/runs",
            "GET /runs/{runId}",
            "GET /pipelines/{id}/runlogs",
            "GET /pipelines/{id}/events",
            "GET /pipelines/{id}/traits",
            "PUT /sensors/{name}",
            "PUT /sensors/{name}/partitions/{partition}",
            "GET /health",
            "GET /pipelines/{id}/status",
            "GET /status",
            // What the evaluators see of a sensor, and deleting a calendar nothing uses.
            "GET /sensors/{name}",
            "GET /sensors/{name}/partitions/{partition}",
            "DELETE /calendars/{name}",
            // The web UI's read of what happened in a day, so it works for a deployed stack too.
            "GET /pipelines/{id}/timeline",
            // Operators: who holds a day's lock, and releasing one whose holder died.
            "GET /pipelines/{id}/locks/{scheduleId}/{date}",
            "DELETE /pipelines/{id}/locks/{scheduleId}/{date}",
            // On-call: the alerts sent, read from the table with the deployed API's auth, and the mutes of alerts.
            "GET /alerts",
            "GET /mutes",
            "PUT /mutes/{scope}/{target}",
            "DELETE /mutes/{scope}/{target}",
            // Operators: pausing a pipeline (its source is in maintenance) and resuming it, forward-only.
            "POST /pipelines/{id}/pause",
            "POST /pipelines/{id}/resume",
            "GET /pauses",
            // Operators: forcing one pipeline day ready, with a reason.
            "POST /pipelines/{id}/days/{date}/force-ready",
            // Operators: backfilling a range of days, its progress, and cancelling it.
            "POST /pipelines/{id}/backfills",
            "GET /pipelines/{id}/backfills",
            "GET /backfills",
            "GET /backfills/{backfillId}",
            "POST /backfills/{backfillId}/cancel",
            // Other tools' OpenLineage run events (dbt-ol, Spark, Airflow), for builtin:lineage-complete.
            "POST /lineage");

    @Test
    void theApiContractNamesExactlyTheSpecRoutes() {
        Set<String> routes = synth.artifacts().apiContract().operations().stream()
                .map(o -> o.method() + " " + o.path())
                .collect(Collectors.toSet());
        assertThat(routes).isEqualTo(SPEC_ROUTES);
    }

    @Test
    void everyContractOperationIsAnIamAuthorisedValidatedProxyMethodOnTheApiAlias() {
        Map<String, Map<String, Object>> methods = synth.resourcesOfType("AWS::ApiGateway::Method");
        List<ApiContract.Operation> operations = synth.artifacts().apiContract().operations();
        assertThat(methods).hasSize(operations.size());
        String validatorId = onlyId("AWS::ApiGateway::RequestValidator");
        for (ApiContract.Operation operation : operations) {
            Map<String, Object> props = methods.values().stream()
                    .map(m -> Json.map(m, "Properties"))
                    .filter(p -> operation.operationId().equals(p.get("OperationName")))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("no method for " + operation));
            assertThat(props.get("HttpMethod")).isEqualTo(operation.method());
            assertThat(props.get("AuthorizationType")).isEqualTo("AWS_IAM");
            assertThat(props.get("ApiKeyRequired")).isEqualTo(false);
            assertThat(props.get("RequestValidatorId")).isEqualTo(Json.ref(validatorId));
            assertThat(props.get("RequestParameters")).isEqualTo(operation.requestParameters());
            assertThat(Json.at(props, "Integration", "Type")).isEqualTo("AWS_PROXY");
            assertThat(Json.write(Json.at(props, "Integration", "Uri"))).contains(synth.aliasId(InterlockFunction.API));
        }
    }

    @Test
    void pathParametersAreRequiredAndPagingParametersOptional() {
        Map<String, Object> listRuns = synth.resourcesOfType("AWS::ApiGateway::Method").values().stream()
                .map(m -> Json.map(m, "Properties"))
                .filter(p -> "listRuns".equals(p.get("OperationName")))
                .findFirst()
                .orElseThrow();
        assertThat(listRuns.get("RequestParameters"))
                .isEqualTo(Map.of(
                        "method.request.path.id", true,
                        "method.request.querystring.limit", false,
                        "method.request.querystring.cursor", false));
        synth.template()
                .hasResourceProperties(
                        "AWS::ApiGateway::RequestValidator",
                        Map.of("ValidateRequestParameters", true, "ValidateRequestBody", true));
    }

    @Test
    void stageThrottlesLogsAccessAndErrorsAndTraces() {
        String accessLogId = synth.resourcesOfType("AWS::Logs::LogGroup").keySet().stream()
                .filter(id -> id.startsWith("ApiAccessLogs"))
                .findFirst()
                .orElseThrow();
        synth.template()
                .hasResourceProperties(
                        "AWS::ApiGateway::Stage",
                        Match.objectLike(Map.of(
                                "StageName",
                                "v1",
                                "TracingEnabled",
                                true,
                                "AccessLogSetting",
                                Match.objectLike(
                                        Map.of("DestinationArn", Map.of("Fn::GetAtt", List.of(accessLogId, "Arn")))),
                                "MethodSettings",
                                List.of(Map.of(
                                        "HttpMethod",
                                        "*",
                                        "ResourcePath",
                                        "/*",
                                        "DataTraceEnabled",
                                        false,
                                        "LoggingLevel",
                                        "ERROR",
                                        "MetricsEnabled",
                                        true,
                                        "ThrottlingRateLimit",
                                        50,
                                        "ThrottlingBurstLimit",
                                        100)))));
        assertThat(synth.resourcesOfType("AWS::ApiGateway::ApiKey")).isEmpty();
        assertThat(synth.resourcesOfType("AWS::ApiGateway::UsagePlan")).isEmpty();
    }

    @Test
    void webAclRefusesDeclaredBodiesOver256KibibytesOnTheStage() {
        synth.template()
                .hasResourceProperties(
                        "AWS::WAFv2::WebACL",
                        Match.objectLike(Map.of(
                                "Scope", "REGIONAL",
                                "DefaultAction", Map.of("Allow", Map.of()),
                                "Rules",
                                        List.of(Match.objectLike(Map.of(
                                                "Action",
                                                        Map.of(
                                                                "Block",
                                                                Map.of("CustomResponse", Map.of("ResponseCode", 413))),
                                                "Statement",
                                                        Map.of(
                                                                "RegexMatchStatement",
                                                                Map.of(
                                                                        "FieldToMatch",
                                                                                Map.of(
                                                                                        "SingleHeader",
                                                                                        Map.of(
                                                                                                "Name",
                                                                                                "content-length")),
                                                                        "RegexString",
                                                                                ContentLengthPattern.greaterThan(
                                                                                        262_144),
                                                                        "TextTransformations",
                                                                                List.of(Map.of(
                                                                                        "Priority",
                                                                                        0,
                                                                                        "Type",
                                                                                        "NONE"))))))))));
        Map<String, Object> association = Json.map(
                synth.resourcesOfType("AWS::WAFv2::WebACLAssociation")
                        .values()
                        .iterator()
                        .next(),
                "Properties");
        assertThat(association.get("WebACLArn"))
                .isEqualTo(Map.of("Fn::GetAtt", List.of(onlyId("AWS::WAFv2::WebACL"), "Arn")));
        assertThat(Json.write(association.get("ResourceArn")))
                .contains("/stages/")
                .contains(onlyId("AWS::ApiGateway::Stage"));
    }

    @Test
    void apiGatewayMayInvokeOnlyTheApiAliasAndOnlyFromThisApi() {
        Map<String, Map<String, Object>> permissions = synth.template()
                .findResources(
                        "AWS::Lambda::Permission",
                        Map.of("Properties", Map.of("Principal", "apigateway.amazonaws.com")));
        assertThat(permissions).hasSize(1);
        Map<String, Object> props = Json.map(permissions.values().iterator().next(), "Properties");
        assertThat(props.get("FunctionName")).isEqualTo(Json.ref(synth.aliasId(InterlockFunction.API)));
        assertThat(Json.write(props.get("SourceArn"))).contains(onlyId("AWS::ApiGateway::RestApi"));
    }

    // ------------------------------------------------------------------------------------------ alarms, outputs

    @Test
    void alarmsCoverFunctionErrorsExecutionsDlqIteratorAgeAndApiErrorsWithoutActionsByDefault() {
        Map<String, Map<String, Object>> alarms = synth.resourcesOfType("AWS::CloudWatch::Alarm");
        List<String> metrics = new ArrayList<>();
        for (Map<String, Object> alarm : alarms.values()) {
            Map<String, Object> props = Json.map(alarm, "Properties");
            metrics.add(props.get("Namespace") + "/" + props.get("MetricName"));
            assertThat(props).doesNotContainKey("AlarmActions");
            assertThat(props.get("TreatMissingData")).isEqualTo("notBreaching");
        }
        assertThat(metrics)
                .containsExactlyInAnyOrder(
                        "AWS/Lambda/Errors",
                        "AWS/Lambda/Errors",
                        "AWS/Lambda/Errors",
                        "AWS/Lambda/Errors",
                        "AWS/Lambda/Errors",
                        "AWS/Lambda/Errors",
                        "AWS/States/ExecutionsFailed",
                        "AWS/States/ExecutionsTimedOut",
                        "AWS/SQS/ApproximateNumberOfMessagesVisible",
                        "AWS/SQS/ApproximateNumberOfMessagesVisible",
                        "AWS/Lambda/IteratorAge",
                        "AWS/ApiGateway/5XXError",
                        "Interlock/SlaMissed",
                        "Interlock/Alerts",
                        "Interlock/RunsFailed");
        for (InterlockFunction f : InterlockFunction.values()) {
            synth.template()
                    .hasResourceProperties(
                            "AWS::CloudWatch::Alarm",
                            Match.objectLike(Map.of(
                                    "MetricName",
                                    "Errors",
                                    "Dimensions",
                                    Match.arrayWith(List.of(
                                            Map.of("Name", "FunctionName", "Value", Json.ref(synth.functionId(f))))))));
        }
        synth.template()
                .hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Match.objectLike(
                                Map.of("MetricName", "IteratorAge", "Statistic", "Maximum", "Threshold", 600_000)));
    }

    @Test
    void outputsNameTheApiUrlTableStateMachineAndTopic() {
        Map<String, Object> outputs = Json.map(synth.templateJson(), "Outputs");
        assertThat(outputs.keySet())
                .containsExactlyInAnyOrder(
                        "ApiUrl",
                        "TableName",
                        "StateMachineArn",
                        "AlertTopicArn",
                        "StreamDeadLetterQueueUrl",
                        "EventRuleDeadLetterQueueUrl",
                        "InterlockVersion");
        assertThat(Json.at(outputs, "TableName", "Value")).isEqualTo(Json.ref(onlyId("AWS::DynamoDB::Table")));
        // The build's version (interlock --version of the same build), not a string kept beside the pom.
        assertThat(Json.at(outputs, "InterlockVersion", "Value"))
                .isEqualTo(InterlockVersion.current())
                .asString()
                .doesNotContain("${");
        assertThat(Json.at(outputs, "StateMachineArn", "Value"))
                .isEqualTo(Json.ref(onlyId("AWS::StepFunctions::StateMachine")));
        assertThat(Json.at(outputs, "AlertTopicArn", "Value")).isEqualTo(Json.ref(onlyId("AWS::SNS::Topic")));
        assertThat(Json.write(Json.at(outputs, "ApiUrl", "Value")))
                .contains(onlyId("AWS::ApiGateway::RestApi"))
                .contains(onlyId("AWS::ApiGateway::Stage"))
                .startsWith("{\"Fn::Join\":[\"\",[\"https://\"");
    }

    // ------------------------------------------------------------------------------------------ least privilege

    @Test
    void noPolicyAnywhereGrantsAWildcardAction() {
        for (Map<String, Object> policy :
                synth.resourcesOfType("AWS::IAM::Policy").values()) {
            for (Object statement : Json.list(policy, "Properties", "PolicyDocument", "Statement")) {
                assertThat(Json.strings(statement, "Action"))
                        .allSatisfy(a -> assertThat(a).doesNotContain("*"));
                assertThat(Json.map(statement)).doesNotContainKey("NotAction");
            }
        }
    }

    @Test
    void functionRolesHaveNoManagedPoliciesAndOnlyTheirOwnTrust() {
        for (InterlockFunction f : InterlockFunction.values()) {
            Map<String, Object> role = synth.resources().get(synth.roleId(f));
            assertThat(Json.map(role, "Properties")).doesNotContainKey("ManagedPolicyArns");
            assertThat(Json.write(Json.at(role, "Properties", "AssumeRolePolicyDocument")))
                    .contains("lambda.amazonaws.com");
        }
    }

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void tableAndIndexActionsAreExactlyTheProfilesOnTheTableAndGsi1(InterlockFunction f) {
        FunctionProfile profile = FunctionProfile.of(f);
        String tableId = onlyId("AWS::DynamoDB::Table");
        List<Map<String, Object>> onTable = synth.statementsOf(f).stream()
                .filter(s -> Map.of("Fn::GetAtt", List.of(tableId, "Arn")).equals(s.get("Resource")))
                .toList();
        List<Map<String, Object>> onIndex = synth.statementsOf(f).stream()
                .filter(s -> Json.write(s.get("Resource")).contains("/index/"))
                .toList();
        assertThat(onTable.stream()
                        .flatMap(s -> Json.strings(s, "Action").stream())
                        .toList())
                .containsExactlyInAnyOrderElementsOf(profile.tableActions());
        assertThat(onIndex.stream()
                        .flatMap(s -> Json.strings(s, "Action").stream())
                        .toList())
                .containsExactlyInAnyOrderElementsOf(profile.indexActions());
        onIndex.forEach(s -> assertThat(Json.write(s.get("Resource")))
                .contains("/index/GSI1\"")
                .doesNotContain("*"));
        assertThat(synth.actionsOf(f)).doesNotContain("dynamodb:Scan");
    }

    /**
     * The reviewed grant matrix, spelled out here rather than read back from {@link FunctionProfile}: the actions the
     * DynamoDB Provider issues for what each function's code calls (a transition is a run-state update plus puts in one
     * transaction; an alert claim is given back with a delete; a requested rerun's transaction updates the day's rerun
     * budget; a fenced write checks the lock item). {@code IamConformanceIT} (integration-tests) checks the same grants against every request the functions
     * make in the tests.
     */
    @Test
    void tableGrantsAreTheReviewedMatrixAndNothingScansAndOnlyTheOrchestratorBatchWrites() {
        Map<InterlockFunction, Set<String>> table = Map.of(
                InterlockFunction.STREAM_ROUTER, Set.of("GetItem", "PutItem"),
                InterlockFunction.ORCHESTRATOR,
                        Set.of(
                                "GetItem",
                                "BatchGetItem",
                                "Query",
                                "PutItem",
                                "UpdateItem",
                                "DeleteItem",
                                "BatchWriteItem",
                                "ConditionCheckItem"),
                InterlockFunction.EVALUATOR, Set.of("GetItem"),
                InterlockFunction.TRIGGER,
                        Set.of("GetItem", "PutItem", "UpdateItem", "DeleteItem", "ConditionCheckItem"),
                InterlockFunction.RUN_CHECKER, Set.of("GetItem", "PutItem", "UpdateItem"),
                InterlockFunction.API,
                        Set.of("GetItem", "BatchGetItem", "Query", "PutItem", "UpdateItem", "DeleteItem"));
        Set<InterlockFunction> gsi1Readers = EnumSet.of(InterlockFunction.ORCHESTRATOR, InterlockFunction.API);
        for (InterlockFunction f : InterlockFunction.values()) {
            Set<String> expected =
                    table.get(f).stream().map(a -> "dynamodb:" + a).collect(Collectors.toSet());
            assertThat(new TreeSet<>(FunctionProfile.of(f).tableActions()))
                    .as(f.name())
                    .isEqualTo(new TreeSet<>(expected));
            assertThat(FunctionProfile.of(f).indexActions())
                    .as(f.name())
                    .isEqualTo(gsi1Readers.contains(f) ? List.of("dynamodb:Query") : List.of());
            // Only the API (the users of an archetype or calendar it re-validates) and the orchestrator (a pipeline
            // with its archetype, resolvePipeline) read in batches.
            if (f != InterlockFunction.API && f != InterlockFunction.ORCHESTRATOR) {
                assertThat(synth.actionsOf(f)).as(f.name()).doesNotContain("dynamodb:BatchGetItem");
            }
            // Only the orchestrator writes in batches: an evaluation round's results and events in one request.
            if (f != InterlockFunction.ORCHESTRATOR) {
                assertThat(synth.actionsOf(f)).as(f.name()).doesNotContain("dynamodb:BatchWriteItem");
            }
            // Only the lock's fenced writers check an item they do not write (the lock, in the same transaction).
            if (f != InterlockFunction.ORCHESTRATOR && f != InterlockFunction.TRIGGER) {
                assertThat(synth.actionsOf(f)).as(f.name()).doesNotContain("dynamodb:ConditionCheckItem");
            }
            assertThat(synth.actionsOf(f))
                    .as(f.name())
                    .doesNotContain(
                            "dynamodb:Scan", "dynamodb:PartiQLSelect", "dynamodb:DeleteTable", "dynamodb:UpdateTable");
        }
    }

    @Test
    void onlyTheStreamRouterReadsTheStreamAndStartsExecutions() {
        String tableId = onlyId("AWS::DynamoDB::Table");
        for (InterlockFunction f : InterlockFunction.values()) {
            List<String> actions = synth.actionsOf(f);
            if (f == InterlockFunction.STREAM_ROUTER) {
                assertThat(actions)
                        .contains(
                                "dynamodb:GetRecords",
                                "dynamodb:GetShardIterator",
                                "dynamodb:DescribeStream",
                                "dynamodb:ListStreams",
                                "states:StartExecution",
                                "sqs:SendMessage");
                Map<String, Object> records = synth.statementsOf(f).stream()
                        .filter(s -> Json.strings(s, "Action").contains("dynamodb:GetRecords"))
                        .findFirst()
                        .orElseThrow();
                assertThat(records.get("Resource")).isEqualTo(Map.of("Fn::GetAtt", List.of(tableId, "StreamArn")));
                Map<String, Object> start = synth.statementsOf(f).stream()
                        .filter(s -> Json.strings(s, "Action").contains("states:StartExecution"))
                        .findFirst()
                        .orElseThrow();
                assertThat(start.get("Resource")).isEqualTo(Json.ref(onlyId("AWS::StepFunctions::StateMachine")));
                // On the table it only reads a pipeline config by key, for a marker that names no date, and appends
                // the event of a marker it starts nothing for.
                assertThat(actions)
                        .noneMatch(a -> a.startsWith("dynamodb:")
                                && !a.contains("Stream")
                                && !a.equals("dynamodb:GetRecords")
                                && !a.equals("dynamodb:GetShardIterator")
                                && !a.equals("dynamodb:GetItem")
                                && !a.equals("dynamodb:PutItem"));
            } else {
                assertThat(actions).doesNotContain("dynamodb:GetRecords", "states:StartExecution");
            }
        }
    }

    @Test
    void onlyTheOrchestratorEndsCallbackWaitsAndOnlyWithSendTaskSuccessAndFailureOnTheMachine() {
        for (InterlockFunction f : InterlockFunction.values()) {
            List<String> callbacks = synth.actionsOf(f).stream()
                    .filter(a -> a.startsWith("states:SendTask"))
                    .toList();
            if (f == InterlockFunction.ORCHESTRATOR) {
                assertThat(callbacks).containsExactlyInAnyOrder("states:SendTaskSuccess", "states:SendTaskFailure");
                Map<String, Object> grant = synth.statementsOf(f).stream()
                        .filter(s -> Json.strings(s, "Action").contains("states:SendTaskSuccess"))
                        .findFirst()
                        .orElseThrow();
                assertThat(grant.get("Resource")).isEqualTo(Json.ref(onlyId("AWS::StepFunctions::StateMachine")));
            } else {
                assertThat(callbacks).as(f.name()).isEmpty();
            }
        }
    }

    @Test
    void onlyTheOrchestratorAndTheTriggerPublishAlertsAndOnlyToTheTopic() {
        Set<InterlockFunction> publishers = EnumSet.noneOf(InterlockFunction.class);
        for (InterlockFunction f : InterlockFunction.values()) {
            if (synth.actionsOf(f).contains("sns:Publish")) {
                assertThat(synth.statement(f, "PublishAlerts").get("Resource"))
                        .isEqualTo(Json.ref(onlyId("AWS::SNS::Topic")));
                publishers.add(f);
            }
        }
        assertThat(publishers).containsExactlyInAnyOrder(InterlockFunction.ORCHESTRATOR, InterlockFunction.TRIGGER);
    }

    @Test
    void onlyTheApiAsksAboutAndStopsTheMachinesExecutionsForTheOperatorsUnlock() {
        List<String> stateActions = synth.actionsOf(InterlockFunction.API).stream()
                .filter(a -> a.startsWith("states:"))
                .toList();
        assertThat(stateActions).containsExactlyInAnyOrder("states:DescribeExecution", "states:StopExecution");
        Map<String, Object> grant = synth.statementsOf(InterlockFunction.API).stream()
                .filter(s -> Json.strings(s, "Action").contains("states:StopExecution"))
                .findFirst()
                .orElseThrow();
        assertThat(Json.write(grant.get("Resource")))
                .as("the executions of this state machine only")
                .contains(":execution:", onlyId("AWS::StepFunctions::StateMachine"));
        assertThat(synth.function(InterlockFunction.API).toString()).contains("STATE_MACHINE_ARN");
    }

    @Test
    void theOrchestratorDescribesOnlyThisMachinesExecutionsForTheWatchdogsHolderCheck() {
        Map<String, Object> grant = synth.statementsOf(InterlockFunction.ORCHESTRATOR).stream()
                .filter(s -> Json.strings(s, "Action").contains("states:DescribeExecution"))
                .findFirst()
                .orElseThrow();
        assertThat(Json.strings(grant, "Action")).containsExactly("states:DescribeExecution");
        assertThat(Json.write(grant.get("Resource")))
                .as("the executions of this state machine only")
                .contains(":execution:", onlyId("AWS::StepFunctions::StateMachine"));
        assertThat(synth.function(InterlockFunction.ORCHESTRATOR).toString())
                .as("no STATE_MACHINE_ARN: the machine depends on the orchestrator")
                .doesNotContain("STATE_MACHINE_ARN");
    }

    @Test
    void withoutConfiguredJobsNoFunctionMayStartOrPollAnyJob() {
        for (InterlockFunction f : InterlockFunction.values()) {
            if (f == InterlockFunction.API) {
                continue; // the operator's unlock asks about and stops Interlock's own executions, above
            }
            if (f == InterlockFunction.ORCHESTRATOR) {
                // The watchdog's holder check describes Interlock's own executions, below.
                assertThat(synth.actionsOf(f)).doesNotContain("states:StopExecution");
                assertThat(synth.actionsOf(f).stream().filter(a -> !a.equals("states:DescribeExecution")))
                        .noneMatch(a -> a.startsWith("glue:")
                                || a.startsWith("elasticmapreduce:")
                                || a.startsWith("emr-serverless:")
                                || a.startsWith("iam:")
                                || a.startsWith("lambda:"));
                continue;
            }
            assertThat(synth.actionsOf(f))
                    .noneMatch(a -> a.startsWith("glue:")
                            || a.startsWith("elasticmapreduce:")
                            || a.startsWith("emr-serverless:")
                            || a.startsWith("iam:")
                            || a.startsWith("lambda:")
                            || a.equals("states:DescribeExecution")
                            || a.equals("states:StopExecution"));
        }
        assertThat(synth.actionsOf(InterlockFunction.TRIGGER)).doesNotContain("states:StartExecution");
    }

    @Test
    void withoutSecretOptionsNoFunctionMayReadASecretOrParameterAndNoCredentialMayBeSentAnywhere() {
        for (InterlockFunction f : InterlockFunction.values()) {
            assertThat(synth.actionsOf(f))
                    .as(f.moduleName())
                    .noneMatch(a -> a.startsWith("secretsmanager:") || a.startsWith("ssm:") || a.startsWith("kms:"));
            Map<String, Object> variables = Json.map(synth.function(f), "Properties", "Environment", "Variables");
            if (variables.containsKey("INTERLOCK_SECRET_HOSTS")) {
                assertThat(variables)
                        .containsEntry("INTERLOCK_SECRET_HOSTS", "")
                        .containsEntry("INTERLOCK_SECRETS_PREFIX", "")
                        .containsEntry("INTERLOCK_SSM_PARAMETER_PREFIX", "");
            }
        }
    }

    /** AWS's own linter finds nothing in the default template beyond the warnings .cfnlintrc.yaml accepts. */
    @Test
    void cfnLintFindsNothingInTheTemplate() {
        assertThat(CfnLint.findings(CfnLint.templateOf(synth.stack())))
                .as("cfn-lint %s", CfnLint.version())
                .isEmpty();
    }

    // ------------------------------------------------------------------------------------------ CLI

    /**
     * The pinned CLI ({@code package.json}) reads this assembly offline; the build installs it ({@code npm ci} before
     * the tests). The full {@code npx cdk synth} through Maven is documented in the README.
     */
    @Test
    void pinnedCdkCliAcceptsTheCloudAssemblyOffline() throws Exception {
        Path cli = Path.of("node_modules", ".bin", "cdk");
        assumeTrue(Files.isExecutable(cli), "run npm ci in infra-cdk to install the pinned CDK CLI");
        Path assembly = Path.of(software.amazon.awscdk.Stage.of(synth.stack()).getOutdir());
        Path home = Path.of("target", "cdk-home");
        Files.createDirectories(home);
        ProcessBuilder pb = new ProcessBuilder(List.of(
                        cli.toString(),
                        "synth",
                        "--app",
                        assembly.toString(),
                        "--no-notices",
                        "--no-version-reporting",
                        "--quiet",
                        "Interlock"))
                .redirectErrorStream(true);
        pb.environment().put("CDK_HOME", home.toAbsolutePath().toString());
        pb.environment().put("CDK_DISABLE_VERSION_CHECK", "1");
        Process process = pb.start();
        String output = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        assertThat(output).doesNotContain("Cloud assembly schema version mismatch");
    }

    // ------------------------------------------------------------------------------------------ helpers

    private String onlyId(String type) {
        Map<String, Map<String, Object>> found = synth.resourcesOfType(type);
        assertThat(found).as(type).hasSize(1);
        return found.keySet().iterator().next();
    }

    private String onlyIdStartingWith(String type, String prefix) {
        List<String> found = synth.resourcesOfType(type).keySet().stream()
                .filter(id -> id.startsWith(prefix))
                .toList();
        assertThat(found).as(type + " " + prefix + "*").hasSize(1);
        return found.getFirst();
    }

    private String definitionString() {
        return String.valueOf(Json.at(
                synth.resources().get(onlyId("AWS::StepFunctions::StateMachine")), "Properties", "DefinitionString"));
    }

    private String readAsl() {
        try {
            return java.nio.file.Files.readString(synth.artifacts().stateMachineDefinition());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Every cdk-nag suppression in the template's resource metadata. */
    static List<Map<String, Object>> suppressions(SynthesizedStack synth) {
        List<Map<String, Object>> all = new ArrayList<>();
        for (Map<String, Object> resource : synth.resources().values()) {
            for (Object s : Json.list(resource, "Metadata", "cdk_nag", "rules_to_suppress")) {
                all.add(Json.map(s));
            }
        }
        return all;
    }
}
