package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.infra.DeploymentOptions.ApiAuth;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.model.runtime.TableDefinition;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awscdk.assertions.Match;

/**
 * A deployment that uses every context option: job permissions appear exactly for the configured jobs, API-key mode,
 * job-state rules, an alarm topic, no deletion protection — and cdk-nag still finds nothing unsuppressed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfiguredStackTest {

    private static final String LINEAGE_BUS = "arn:aws:events:eu-west-1:123456789012:event-bus/lineage";
    private static final String ALARM_TOPIC = "arn:aws:sns:eu-west-1:123456789012:ops-alarms";
    private static final String EXECUTION_ROLE = "arn:aws:iam::123456789012:role/emr-serverless-job";
    private static final String GOLD_BUILD = "arn:aws:states:eu-west-1:123456789012:stateMachine:gold-build";
    private static final String COMPACT = "arn:aws:lambda:eu-west-1:123456789012:function:compact-partitions";
    private static final String ROW_COUNT = "arn:aws:lambda:eu-west-1:123456789012:function:row-count-check:live";
    private static final String SECRETS_KEY =
            "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab";
    private static final String SECRET_HOSTS = "INTERLOCK_AIRFLOW_*=airflow.example.com;"
            + "secret:interlock/airflow*=airflow.example.com;ssm:/interlock/dbx/*=adb-123.azuredatabricks.net";

    private SynthesizedStack synth;

    @BeforeAll
    void synthesize() {
        synth = SynthesizedStack.synthesize(Map.ofEntries(
                Map.entry("stackName", "InterlockStaging"),
                Map.entry("apiAuth", "api-key"),
                Map.entry("apiThrottleRateLimit", "20"),
                Map.entry("apiThrottleBurstLimit", 40),
                Map.entry("apiMaxRequestBodyKb", "64"),
                Map.entry("jobStateRules", "true"),
                Map.entry("deletionProtection", false),
                Map.entry("logRetentionDays", "90"),
                Map.entry("watchdogRateMinutes", "10"),
                Map.entry("alarmTopicArn", ALARM_TOPIC),
                Map.entry("evaluatorBaseUrl", "https://evaluators.example.com/v1/"),
                Map.entry("glueJobNames", "nightly-orders, daily-customers"),
                Map.entry("emrClusterIds", List.of("j-2AXXXXXXGAPLF")),
                Map.entry("emrServerlessApplicationIds", "00fabc123def"),
                Map.entry("emrServerlessExecutionRoleArns", EXECUTION_ROLE),
                Map.entry("stateMachineArns", GOLD_BUILD),
                Map.entry("triggerFunctionArns", COMPACT),
                Map.entry("evaluatorFunctionArns", ROW_COUNT),
                Map.entry("secretsPrefix", "interlock/"),
                Map.entry("ssmParameterPrefix", "/interlock/"),
                Map.entry("secretHosts", SECRET_HOSTS),
                Map.entry("secretsKmsKeyArns", SECRETS_KEY),
                Map.entry("secretCacheSeconds", "120"),
                Map.entry("openLineageUrl", "https://marquez.example.com"),
                Map.entry("openLineageNamespace", "staging"),
                Map.entry("openLineageEventBus", LINEAGE_BUS)));
    }

    /**
     * See {@link StatefulLogicalIds}. The stream mapping's id carries the stack name (CDK names it after the table's
     * path), so this deployment's differs from the default one's; the API key exists only in API-key mode.
     */
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
                        "AWS::ApiGateway::ApiKey",
                        List.of("RegistrationApiApiKey9FE4B096"),
                        "AWS::Lambda::EventSourceMapping",
                        List.of("StreamRouterLiveAliasDynamoDBEventSourceInterlockStagingTableEEDEAE108C605C1E")));
    }

    @Test
    void contextOptionsAreReadInOnePlace() {
        DeploymentOptions o = synth.options();
        assertThat(o.stackName()).isEqualTo("InterlockStaging");
        assertThat(synth.stack().getStackName()).isEqualTo("InterlockStaging");
        assertThat(o.apiAuth()).isEqualTo(ApiAuth.API_KEY);
        assertThat(o.jobs().glueJobNames()).containsExactly("nightly-orders", "daily-customers");
        assertThat(o.jobs().emrClusterIds()).containsExactly("j-2AXXXXXXGAPLF");
    }

    @Test
    void cdkNagAwsSolutionsReportsNoUnsuppressedErrorOrWarning() {
        assertThat(SynthesizedStack.describe(synth.errors())).isEmpty();
        assertThat(SynthesizedStack.describe(synth.warnings())).isEmpty();
        assertThat(DefaultStackTest.suppressions(synth))
                .allSatisfy(s -> assertThat(String.valueOf(s.get("reason"))).hasSizeGreaterThanOrEqualTo(10));
    }

    @Test
    void triggerMayStartAndReadExactlyTheConfiguredJobs() {
        InterlockFunction t = InterlockFunction.TRIGGER;
        assertThat(Json.strings(synth.statement(t, "TriggerGlueJobs"), "Action"))
                .containsExactly("glue:StartJobRun", "glue:GetJobRun", "glue:GetJobRuns");
        assertThat(Json.write(synth.statement(t, "TriggerGlueJobs").get("Resource")))
                .contains(":job/nightly-orders\"")
                .contains(":job/daily-customers\"")
                .doesNotContain("*");
        assertThat(Json.strings(synth.statement(t, "TriggerEmrSteps"), "Action"))
                .containsExactly(
                        "elasticmapreduce:AddJobFlowSteps",
                        "elasticmapreduce:DescribeStep",
                        "elasticmapreduce:ListSteps");
        assertThat(Json.write(synth.statement(t, "TriggerEmrSteps").get("Resource")))
                .contains(":cluster/j-2AXXXXXXGAPLF\"")
                .doesNotContain("*");
        assertThat(Json.strings(synth.statement(t, "TriggerEmrServerlessJobs"), "Action"))
                .containsExactly("emr-serverless:StartJobRun");
        assertThat(Json.write(synth.statement(t, "TriggerEmrServerlessJobs").get("Resource")))
                .contains(":/applications/00fabc123def\"")
                .doesNotContain("*");
        assertThat(Json.write(synth.statement(t, "ReadEmrServerlessJobRuns").get("Resource")))
                .contains(":/applications/00fabc123def/jobruns/*\"");
        assertThat(synth.statement(t, "TriggerStateMachines").get("Resource")).isEqualTo(GOLD_BUILD);
        assertThat(synth.statement(t, "ReadStateMachineExecutions").get("Resource"))
                .isEqualTo("arn:aws:states:eu-west-1:123456789012:execution:gold-build:*");
        assertThat(synth.statement(t, "TriggerLambdaFunctions").get("Resource")).isEqualTo(COMPACT);
        assertThat(Json.strings(synth.statement(t, "TriggerLambdaFunctions"), "Action"))
                .containsExactly("lambda:InvokeFunction");
    }

    @Test
    void passRoleIsLimitedToTheConfiguredExecutionRolesAndToEmrServerless() {
        Map<String, Object> passRole = synth.statement(InterlockFunction.TRIGGER, "PassEmrServerlessExecutionRoles");
        assertThat(Json.strings(passRole, "Action")).containsExactly("iam:PassRole");
        assertThat(passRole.get("Resource")).isEqualTo(EXECUTION_ROLE);
        assertThat(passRole.get("Condition"))
                .isEqualTo(Map.of("StringEquals", Map.of("iam:PassedToService", "emr-serverless.amazonaws.com")));
        for (InterlockFunction f : InterlockFunction.values()) {
            if (f != InterlockFunction.TRIGGER) {
                assertThat(synth.actionsOf(f)).doesNotContain("iam:PassRole");
            }
        }
    }

    @Test
    void runCheckerMayOnlyReadAndStopTheConfiguredJobsRuns() {
        InterlockFunction rc = InterlockFunction.RUN_CHECKER;
        assertThat(synth.actionsOf(rc))
                .contains(
                        "glue:GetJobRun",
                        "elasticmapreduce:DescribeStep",
                        "emr-serverless:GetJobRun",
                        "states:DescribeExecution")
                // A job past its pipeline's maximum duration is stopped before a retry may start it again.
                .contains(
                        "glue:BatchStopJobRun",
                        "elasticmapreduce:CancelSteps",
                        "emr-serverless:CancelJobRun",
                        "states:StopExecution")
                .doesNotContain(
                        "glue:StartJobRun",
                        "elasticmapreduce:AddJobFlowSteps",
                        "emr-serverless:StartJobRun",
                        "states:StartExecution",
                        "lambda:InvokeFunction",
                        "iam:PassRole");
        assertThat(Json.write(synth.statement(rc, "PollGlueJobRuns").get("Resource")))
                .contains(":job/nightly-orders\"")
                .contains(":job/daily-customers\"");
        assertThat(synth.statement(rc, "PollStateMachineExecutions").get("Resource"))
                .isEqualTo("arn:aws:states:eu-west-1:123456789012:execution:gold-build:*");
        // The driver-log check (FALSE_SUCCESS): one action on Glue's error log group alone, and for no other function.
        assertThat(synth.statement(rc, "ReadGlueDriverErrorLogs").get("Action")).isEqualTo("logs:FilterLogEvents");
        assertThat(Json.write(synth.statement(rc, "ReadGlueDriverErrorLogs").get("Resource")))
                .contains(":logs:")
                .contains("{\"Ref\":\"AWS::AccountId\"}", ":log-group:/aws-glue/jobs/error:*\"");
        for (InterlockFunction other : InterlockFunction.values()) {
            if (other != rc) {
                assertThat(synth.actionsOf(other)).as(other.name()).doesNotContain("logs:FilterLogEvents");
            }
        }
    }

    @Test
    void orchestratorMayOnlyReadTheConfiguredCallbackJobsRunsForItsWatchdog() {
        InterlockFunction o = InterlockFunction.ORCHESTRATOR;
        assertThat(synth.actionsOf(o))
                .contains(
                        "glue:GetJobRun",
                        "elasticmapreduce:DescribeStep",
                        "emr-serverless:GetJobRun",
                        "states:DescribeExecution")
                .doesNotContain(
                        "glue:StartJobRun",
                        "glue:BatchStopJobRun",
                        "elasticmapreduce:AddJobFlowSteps",
                        "elasticmapreduce:CancelSteps",
                        "emr-serverless:StartJobRun",
                        "emr-serverless:CancelJobRun",
                        "states:StartExecution",
                        "states:StopExecution",
                        "iam:PassRole");
        // Its one lambda:InvokeFunction is its post-run checks' (the lambda: evaluators), never a job's.
        assertThat(Json.write(synth.statementsOf(o))).doesNotContain(COMPACT);
        assertThat(Json.write(synth.statement(o, "CheckGlueJobRuns").get("Resource")))
                .isEqualTo(Json.write(synth.statement(InterlockFunction.RUN_CHECKER, "PollGlueJobRuns")
                        .get("Resource")));
        assertThat(synth.statement(o, "CheckStateMachineExecutions").get("Resource"))
                .isEqualTo("arn:aws:states:eu-west-1:123456789012:execution:gold-build:*");
        assertThat(Json.write(synth.statement(o, "CheckEmrSteps").get("Resource")))
                .isEqualTo(Json.write(synth.statement(InterlockFunction.RUN_CHECKER, "PollEmrSteps")
                        .get("Resource")));
        assertThat(Json.write(synth.statement(o, "CheckEmrServerlessJobRuns").get("Resource")))
                .isEqualTo(Json.write(synth.statement(InterlockFunction.RUN_CHECKER, "PollEmrServerlessJobRuns")
                        .get("Resource")));
    }

    @Test
    void evaluatorMayInvokeOnlyTheConfiguredLambdaEvaluators() {
        Map<String, Object> invoke = synth.statement(InterlockFunction.EVALUATOR, "InvokeLambdaEvaluators");
        assertThat(Json.strings(invoke, "Action")).containsExactly("lambda:InvokeFunction");
        assertThat(invoke.get("Resource")).isEqualTo(ROW_COUNT);
        assertThat(Json.at(
                        synth.function(InterlockFunction.EVALUATOR),
                        "Properties",
                        "Environment",
                        "Variables",
                        "EVALUATOR_BASE_URL"))
                .isEqualTo("https://evaluators.example.com/v1/");
    }

    /**
     * Post-run checks run in the orchestrator with the evaluator's code (docs/post-run-checks.md): its role and
     * environment carry exactly what the evaluator's do for calling evaluators — the {@code lambda:} evaluators' invoke,
     * the secret and parameter reads of header templates, the base URL of relative evaluator paths — no more.
     */
    @Test
    void theOrchestratorsPostRunChecksMayCallEvaluatorsExactlyAsTheEvaluatorMay() {
        for (String sid : List.of(
                "InvokeLambdaEvaluators", "ReadPipelineSecrets", "ReadPipelineParameters", "DecryptPipelineSecrets")) {
            assertThat(Json.write(synth.statement(InterlockFunction.ORCHESTRATOR, sid)))
                    .as(sid)
                    .isEqualTo(Json.write(synth.statement(InterlockFunction.EVALUATOR, sid)));
        }
        assertThat(synth.statement(InterlockFunction.ORCHESTRATOR, "InvokeLambdaEvaluators")
                        .get("Resource"))
                .isEqualTo(ROW_COUNT);
        Map<String, Object> orchestrator =
                Json.map(synth.function(InterlockFunction.ORCHESTRATOR), "Properties", "Environment", "Variables");
        Map<String, Object> evaluator =
                Json.map(synth.function(InterlockFunction.EVALUATOR), "Properties", "Environment", "Variables");
        for (String variable : List.of(
                "EVALUATOR_BASE_URL",
                "INTERLOCK_SECRET_HOSTS",
                "INTERLOCK_SECRETS_PREFIX",
                "INTERLOCK_SSM_PARAMETER_PREFIX",
                "INTERLOCK_SECRET_CACHE_SECONDS")) {
            assertThat(orchestrator).as(variable).containsEntry(variable, evaluator.get(variable));
        }
        assertThat(orchestrator).containsEntry("EVALUATOR_BASE_URL", "https://evaluators.example.com/v1/");
        // Only the job grants it had, its callbacks and holder checks besides: lambda:InvokeFunction is the
        // evaluators'.
        assertThat(synth.actionsOf(InterlockFunction.ORCHESTRATOR))
                .filteredOn(a -> a.startsWith("lambda:"))
                .containsExactly("lambda:InvokeFunction");
    }

    @Test
    void theFunctionsThatSendRequestsMayReadExactlyTheSecretsAndParametersUnderThePrefixesAndNothingMore() {
        for (InterlockFunction f : SecretPermissions.READERS) {
            Map<String, Object> secrets = synth.statement(f, "ReadPipelineSecrets");
            assertThat(Json.strings(secrets, "Action")).containsExactly("secretsmanager:GetSecretValue");
            assertThat(Json.write(secrets.get("Resource")))
                    .isEqualTo(Json.write(Map.of(
                            "Fn::Join",
                            List.of(
                                    "",
                                    List.of(
                                            "arn:",
                                            Map.of("Ref", "AWS::Partition"),
                                            ":secretsmanager:",
                                            Map.of("Ref", "AWS::Region"),
                                            ":",
                                            Map.of("Ref", "AWS::AccountId"),
                                            ":secret:interlock/*")))));
            Map<String, Object> parameters = synth.statement(f, "ReadPipelineParameters");
            assertThat(Json.strings(parameters, "Action")).containsExactly("ssm:GetParameter");
            assertThat(Json.write(parameters.get("Resource")))
                    .isEqualTo(Json.write(Map.of(
                            "Fn::Join",
                            List.of(
                                    "",
                                    List.of(
                                            "arn:",
                                            Map.of("Ref", "AWS::Partition"),
                                            ":ssm:",
                                            Map.of("Ref", "AWS::Region"),
                                            ":",
                                            Map.of("Ref", "AWS::AccountId"),
                                            ":parameter/interlock/*")))));
            Map<String, Object> decrypt = synth.statement(f, "DecryptPipelineSecrets");
            assertThat(Json.strings(decrypt, "Action")).containsExactly("kms:Decrypt");
            assertThat(decrypt.get("Resource")).isEqualTo(SECRETS_KEY);
            assertThat(Json.write(decrypt.get("Condition")))
                    .isEqualTo(Json.write(Map.of(
                            "StringEquals",
                            Map.of(
                                    "kms:ViaService",
                                    List.of(
                                            Map.of(
                                                    "Fn::Join",
                                                    List.of(
                                                            "",
                                                            List.of(
                                                                    "secretsmanager.",
                                                                    Map.of("Ref", "AWS::Region"),
                                                                    ".amazonaws.com"))),
                                            Map.of(
                                                    "Fn::Join",
                                                    List.of(
                                                            "",
                                                            List.of(
                                                                    "ssm.",
                                                                    Map.of("Ref", "AWS::Region"),
                                                                    ".amazonaws.com"))))))));
            assertThat(synth.actionsOf(f).stream()
                            .filter(a ->
                                    a.startsWith("secretsmanager:") || a.startsWith("ssm:") || a.startsWith("kms:")))
                    .containsExactlyInAnyOrder("secretsmanager:GetSecretValue", "ssm:GetParameter", "kms:Decrypt");
        }
        for (InterlockFunction f : InterlockFunction.values()) {
            if (!SecretPermissions.READERS.contains(f)) {
                assertThat(synth.actionsOf(f))
                        .as(f.moduleName())
                        .noneMatch(
                                a -> a.startsWith("secretsmanager:") || a.startsWith("ssm:") || a.startsWith("kms:"));
            }
        }
    }

    /** OpenLineage out (docs/openlineage.md): the router gets the receiver and the run changes; no grant is added. */
    @Test
    void withAnOpenLineageReceiverTheStreamRouterGetsItAndTheRunChanges() {
        Map<String, Object> router =
                Json.map(synth.function(InterlockFunction.STREAM_ROUTER), "Properties", "Environment", "Variables");
        assertThat(router)
                .containsEntry("OPENLINEAGE_URL", "https://marquez.example.com")
                .containsEntry("OPENLINEAGE_NAMESPACE", "staging");
        Map<String, Map<String, Object>> mappings = synth.resourcesOfType("AWS::Lambda::EventSourceMapping");
        assertThat(mappings).hasSize(1);
        assertThat(Json.map(mappings.values().iterator().next(), "Properties").get("FilterCriteria"))
                .isEqualTo(Map.of(
                        "Filters",
                        List.of(
                                Map.of("Pattern", TableDefinition.INTERLOCK.markerStreamFilterPattern()),
                                Map.of("Pattern", TableDefinition.INTERLOCK.runStreamFilterPattern()))));
    }

    /** OpenLineage on a bus as well: the router gets the bus and may put events on exactly it; nothing else may. */
    @Test
    void withAnOpenLineageBusOnlyTheStreamRouterMayPutEventsAndOnlyOnThatBus() {
        Map<String, Object> router =
                Json.map(synth.function(InterlockFunction.STREAM_ROUTER), "Properties", "Environment", "Variables");
        assertThat(router).containsEntry("OPENLINEAGE_EVENT_BUS", LINEAGE_BUS);
        Map<String, Object> put = synth.statement(InterlockFunction.STREAM_ROUTER, "PutOpenLineageRunEvents");
        assertThat(put.get("Action")).isEqualTo("events:PutEvents");
        assertThat(put.get("Resource")).isEqualTo(LINEAGE_BUS);
        for (InterlockFunction f : InterlockFunction.values()) {
            if (f != InterlockFunction.STREAM_ROUTER) {
                assertThat(synth.actionsOf(f)).as(f.moduleName()).doesNotContain("events:PutEvents");
                assertThat(Json.map(synth.function(f), "Properties", "Environment", "Variables"))
                        .as(f.moduleName())
                        .doesNotContainKey("OPENLINEAGE_EVENT_BUS");
            }
        }
    }

    @Test
    void theApiAndTheFunctionsThatSendRequestsKnowThePolicyAndOnlyThose() {
        for (InterlockFunction f : InterlockFunction.values()) {
            Map<String, Object> variables = Json.map(synth.function(f), "Properties", "Environment", "Variables");
            boolean checks = f == InterlockFunction.API || SecretPermissions.READERS.contains(f);
            if (checks) {
                assertThat(variables)
                        .as(f.moduleName())
                        .containsEntry("INTERLOCK_SECRET_HOSTS", SECRET_HOSTS)
                        .containsEntry("INTERLOCK_SECRETS_PREFIX", "interlock/")
                        .containsEntry("INTERLOCK_SSM_PARAMETER_PREFIX", "/interlock/");
            } else {
                assertThat(variables)
                        .as(f.moduleName())
                        .doesNotContainKeys(
                                "INTERLOCK_SECRET_HOSTS", "INTERLOCK_SECRETS_PREFIX", "INTERLOCK_SSM_PARAMETER_PREFIX");
            }
            if (SecretPermissions.READERS.contains(f)) {
                assertThat(variables).containsEntry("INTERLOCK_SECRET_CACHE_SECONDS", "120");
            } else {
                assertThat(variables).doesNotContainKey("INTERLOCK_SECRET_CACHE_SECONDS");
            }
        }
        // Registration needs to know where a relative evaluator's headers go.
        assertThat(Json.at(
                        synth.function(InterlockFunction.API),
                        "Properties",
                        "Environment",
                        "Variables",
                        "EVALUATOR_BASE_URL"))
                .isEqualTo("https://evaluators.example.com/v1/");
    }

    @Test
    void wildcardSuppressionsBeyondResourceStarNameOnlyTheRunIdsOfTheJobReadersTheSecretReadersAndTheApisExecutions() {
        java.util.Set<String> regexHolders = new java.util.TreeSet<>();
        java.util.Set<String> regexes = new java.util.TreeSet<>();
        synth.resources().forEach((id, resource) -> {
            for (Object s : Json.list(resource, "Metadata", "cdk_nag", "rules_to_suppress")) {
                for (Object appliesTo : Json.list(s, "applies_to")) {
                    if (appliesTo instanceof Map<?, ?> regex) {
                        regexHolders.add(
                                id.startsWith("TriggerRole")
                                        ? "TriggerRole"
                                        : id.startsWith("RunCheckerRole")
                                                ? "RunCheckerRole"
                                                : id.startsWith("EvaluatorRole")
                                                        ? "EvaluatorRole"
                                                        : id.startsWith("OrchestratorRole")
                                                                ? "OrchestratorRole"
                                                                : id.startsWith("OrchestratorHolderChecks")
                                                                        ? "OrchestratorHolderChecks"
                                                                        : id.startsWith("ApiRole") ? "ApiRole" : id);
                        regexes.add(String.valueOf(regex.get("regex")));
                    }
                }
            }
        });
        // The orchestrator's watchdog reads callback jobs' runs (the run ids only), never secrets; the API asks about
        // and stops the executions of Interlock's own machine (the operator's unlock).
        assertThat(regexHolders)
                .containsExactly(
                        "ApiRole",
                        "EvaluatorRole",
                        "OrchestratorHolderChecks",
                        "OrchestratorRole",
                        "RunCheckerRole",
                        "TriggerRole");
        assertThat(regexes)
                .containsExactlyInAnyOrder(
                        InterlockFunctions.API_EXECUTIONS,
                        "/^Resource::arn:<AWS::Partition>:emr-serverless:<AWS::Region>:<AWS::AccountId>:"
                                + "\\/applications\\/[0-9a-z]+\\/jobruns\\/\\*$/g",
                        "/^Resource::arn:aws[a-z-]*:states:[a-z0-9-]+:\\d{12}:execution:[A-Za-z0-9_-]+:\\*$/g",
                        "/^Resource::arn:<AWS::Partition>:secretsmanager:<AWS::Region>:<AWS::AccountId>:secret:"
                                + "[A-Za-z0-9\\/_+=.@-]+\\*$/g",
                        "/^Resource::arn:<AWS::Partition>:ssm:<AWS::Region>:<AWS::AccountId>:parameter\\/[A-Za-z0-9_.\\/-]*\\*$/g");
    }

    @Test
    void jobStateRulesSendTerminalEventsOfConfiguredJobsToTheOrchestrator() {
        Map<String, Map<String, Object>> rules = synth.resourcesOfType("AWS::Events::Rule");
        assertThat(rules)
                .as("four job-state rules, the watchdog and the execution-end rule")
                .hasSize(6);
        List<String> dlqs = synth.resourcesOfType("AWS::SQS::Queue").keySet().stream()
                .filter(id -> id.startsWith("EventRuleDeadLetterQueue"))
                .toList();
        assertThat(dlqs).hasSize(1);
        DefaultStackTest.assertEveryTargetDeadLettersTo(synth, rules, dlqs.getFirst());
        String orchestratorAlias = synth.aliasId(InterlockFunction.ORCHESTRATOR);
        assertPattern(
                "aws.glue",
                "Glue Job State Change",
                Map.of(
                        "state", List.of("SUCCEEDED", "FAILED", "TIMEOUT", "STOPPED", "ERROR"),
                        "jobName", List.of("nightly-orders", "daily-customers")));
        assertPattern(
                "aws.emr",
                "EMR Step Status Change",
                Map.of(
                        "state", List.of("COMPLETED", "FAILED", "CANCELLED", "INTERRUPTED"),
                        "clusterId", List.of("j-2AXXXXXXGAPLF")));
        assertPattern(
                "aws.emr-serverless",
                "EMR Serverless Job Run State Change",
                Map.of(
                        "state", List.of("SUCCESS", "FAILED", "CANCELLED"),
                        "applicationId", List.of("00fabc123def")));
        assertPattern(
                "aws.states",
                "Step Functions Execution Status Change",
                Map.of(
                        "status", List.of("SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED"),
                        "stateMachineArn", List.of(GOLD_BUILD)));
        for (Map<String, Object> rule : rules.values()) {
            Map<String, Object> target =
                    Json.map(Json.list(rule, "Properties", "Targets").get(0));
            assertThat(target.get("Arn")).isEqualTo(Json.ref(orchestratorAlias));
            if (Json.at(rule, "Properties", "EventPattern") != null
                    && !String.valueOf(Json.at(rule, "Properties", "Description"))
                            .contains("without releasing")) {
                assertThat(String.valueOf(Json.at(target, "InputTransformer", "InputTemplate")))
                        .contains("\"action\":\"" + OrchestratorAction.JOB_STATE_CHANGE.wireName() + "\"")
                        .contains("\"detail\":<detail>");
            }
        }
    }

    @Test
    void theRulesInvokeExactlyTheOrchestratorActionsTheStateMachineDoesNotCall() {
        // Each action's caller is named once (OrchestratorAction): the ASL's Tasks call the STATE_MACHINE ones (the
        // statemachine contract test), this stack's rules every other one, and nothing invents a name.
        Pattern actionField = Pattern.compile("\"action\":\"([^\"]*)\"");
        Set<OrchestratorAction> invoked = EnumSet.noneOf(OrchestratorAction.class);
        for (Map<String, Object> rule :
                synth.resourcesOfType("AWS::Events::Rule").values()) {
            Map<String, Object> target =
                    Json.map(Json.list(rule, "Properties", "Targets").get(0));
            Object input = target.containsKey("Input")
                    ? target.get("Input")
                    : Json.at(target, "InputTransformer", "InputTemplate");
            Matcher action = actionField.matcher(String.valueOf(input));
            assertThat(action.find())
                    .as("target input %s names an action", input)
                    .isTrue();
            invoked.add(OrchestratorAction.find(action.group(1))
                    .orElseThrow(() -> new AssertionError("no orchestrator action " + action.group(1))));
        }
        Set<OrchestratorAction> notTheMachines = EnumSet.allOf(OrchestratorAction.class);
        notTheMachines.removeAll(OrchestratorAction.calledBy(OrchestratorAction.Caller.STATE_MACHINE));
        assertThat(invoked).isEqualTo(notTheMachines);
    }

    @Test
    void watchdogRateFollowsContext() {
        synth.template().hasResourceProperties("AWS::Events::Rule", Map.of("ScheduleExpression", "rate(10 minutes)"));
    }

    @Test
    void apiKeyModeRequiresAKeyOnEveryMethodBoundToAThrottledUsagePlan() {
        for (Map<String, Object> method :
                synth.resourcesOfType("AWS::ApiGateway::Method").values()) {
            assertThat(Json.at(method, "Properties", "AuthorizationType")).isEqualTo("NONE");
            assertThat(Json.at(method, "Properties", "ApiKeyRequired")).isEqualTo(true);
        }
        assertThat(synth.resourcesOfType("AWS::ApiGateway::ApiKey")).hasSize(1);
        synth.template()
                .hasResourceProperties(
                        "AWS::ApiGateway::UsagePlan",
                        Match.objectLike(Map.of(
                                "Throttle", Map.of("RateLimit", 20, "BurstLimit", 40),
                                "ApiStages", List.of(Match.objectLike(Map.of("Stage", Match.anyValue()))))));
        synth.template().hasResourceProperties("AWS::ApiGateway::UsagePlanKey", Map.of("KeyType", "API_KEY"));
        assertThat(Json.map(synth.templateJson(), "Outputs").keySet())
                .containsExactlyInAnyOrder(
                        "ApiUrl",
                        "TableName",
                        "StateMachineArn",
                        "AlertTopicArn",
                        "StreamDeadLetterQueueUrl",
                        "EventRuleDeadLetterQueueUrl",
                        "InterlockVersion",
                        "ApiKeyId");
    }

    @Test
    void bodyLimitAndLogRetentionFollowContext() {
        synth.template()
                .hasResourceProperties(
                        "AWS::WAFv2::WebACL",
                        Match.objectLike(Map.of(
                                "Rules",
                                List.of(Match.objectLike(Map.of(
                                        "Statement",
                                        Map.of(
                                                "RegexMatchStatement",
                                                Match.objectLike(Map.of(
                                                        "RegexString",
                                                        ContentLengthPattern.greaterThan(65_536))))))))));
        for (Map<String, Object> logGroup :
                synth.resourcesOfType("AWS::Logs::LogGroup").values()) {
            assertThat(Json.at(logGroup, "Properties", "RetentionInDays")).isEqualTo(90);
        }
        synth.template()
                .hasResourceProperties(
                        "AWS::StepFunctions::StateMachine",
                        Match.objectLike(Map.of("LoggingConfiguration", Match.objectLike(Map.of("Level", "ALL")))));
        synth.template()
                .hasResourceProperties(
                        "AWS::Logs::LogGroup",
                        Map.of(
                                "LogGroupName",
                                "/aws/vendedlogs/states/InterlockStaging-pipeline",
                                "RetentionInDays",
                                90));
    }

    @Test
    void everyAlarmNotifiesTheConfiguredTopicOnAlarmAndRecovery() {
        Map<String, Map<String, Object>> alarms = synth.resourcesOfType("AWS::CloudWatch::Alarm");
        assertThat(alarms).hasSize(15);
        for (Map<String, Object> alarm : alarms.values()) {
            assertThat(Json.list(alarm, "Properties", "AlarmActions")).containsExactly(ALARM_TOPIC);
            assertThat(Json.list(alarm, "Properties", "OKActions")).containsExactly(ALARM_TOPIC);
        }
    }

    @Test
    void withoutDeletionProtectionTheTableIsUnprotectedAndDeletedWithTheStack() {
        synth.template()
                .hasResource(
                        "AWS::DynamoDB::Table",
                        Match.objectLike(Map.of(
                                "DeletionPolicy",
                                "Delete",
                                "Properties",
                                Match.objectLike(Map.of("DeletionProtectionEnabled", false)))));
    }

    private void assertPattern(String source, String detailType, Map<String, ?> detail) {
        synth.template()
                .hasResourceProperties(
                        "AWS::Events::Rule",
                        Match.objectLike(Map.of(
                                "EventPattern",
                                Map.of(
                                        "source", List.of(source),
                                        "detail-type", List.of(detailType),
                                        "detail", detail))));
    }

    /** AWS's own linter finds nothing in the template with every option set beyond the warnings .cfnlintrc.yaml accepts. */
    @Test
    void cfnLintFindsNothingInTheTemplate() {
        assertThat(CfnLint.findings(CfnLint.templateOf(synth.stack())))
                .as("cfn-lint %s", CfnLint.version())
                .isEmpty();
    }
}
