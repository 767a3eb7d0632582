package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.infra.conformance.IamConformanceCheck;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The deployer's IAM ({@code infra-cdk/iam/}, shown in docs/operations.md) covers what {@code cdk deploy} creates: every
 * resource type of the synthesized templates (defaults, and every option set) must be in {@link #NEEDED}, and every
 * action {@link #NEEDED} lists for it must be allowed by the CloudFormation execution policy — so a new resource type
 * fails here until the policy grants what CloudFormation needs to create, update and delete it. The other way round,
 * the policy grants nothing that no resource type needs.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DeployerPolicyTest {

    /**
     * What CloudFormation, acting as the bootstrap's execution role, calls to create, update, tag and delete each
     * resource type of the stack (the resource types' handler permissions, narrowed to the properties this stack sets).
     * The one home of that knowledge; the policy file is checked against it. ({@code cdk synth} also adds an
     * {@code AWS::CDK::Metadata} resource, which needs no permission and which the tests' templates do not have.)
     */
    static final Map<String, List<String>> NEEDED = Map.ofEntries(
            Map.entry(
                    "AWS::DynamoDB::Table",
                    List.of(
                            "dynamodb:CreateTable",
                            "dynamodb:UpdateTable",
                            "dynamodb:DeleteTable",
                            "dynamodb:DescribeTable",
                            "dynamodb:DescribeTimeToLive",
                            "dynamodb:UpdateTimeToLive",
                            "dynamodb:DescribeContinuousBackups",
                            "dynamodb:UpdateContinuousBackups",
                            "dynamodb:DescribeContributorInsights",
                            "dynamodb:DescribeKinesisStreamingDestination",
                            "dynamodb:ListTagsOfResource",
                            "dynamodb:TagResource",
                            "dynamodb:UntagResource",
                            "dynamodb:GetResourcePolicy",
                            // server-side encryption with the AWS managed key
                            "kms:DescribeKey",
                            "kms:CreateGrant",
                            "kms:ListAliases")),
            Map.entry(
                    "AWS::IAM::Role",
                    List.of(
                            "iam:CreateRole",
                            "iam:DeleteRole",
                            "iam:GetRole",
                            "iam:UpdateRole",
                            "iam:UpdateAssumeRolePolicy",
                            "iam:TagRole",
                            "iam:UntagRole",
                            "iam:AttachRolePolicy",
                            "iam:DetachRolePolicy",
                            "iam:ListAttachedRolePolicies",
                            "iam:ListRolePolicies",
                            "iam:DeleteRolePolicy")),
            Map.entry("AWS::IAM::Policy", List.of("iam:PutRolePolicy", "iam:GetRolePolicy", "iam:DeleteRolePolicy")),
            Map.entry(
                    "AWS::Lambda::Function",
                    List.of(
                            "lambda:CreateFunction",
                            "lambda:DeleteFunction",
                            "lambda:GetFunction",
                            "lambda:GetFunctionConfiguration",
                            "lambda:UpdateFunctionCode",
                            "lambda:UpdateFunctionConfiguration",
                            "lambda:GetRuntimeManagementConfig",
                            "lambda:ListTags",
                            "lambda:TagResource",
                            "lambda:UntagResource",
                            "iam:PassRole",
                            // the code, uploaded by cdk deploy to the bootstrap's asset bucket
                            "s3:GetObject")),
            Map.entry(
                    "AWS::Lambda::Version",
                    List.of(
                            "lambda:PublishVersion",
                            "lambda:GetFunctionConfiguration",
                            "lambda:ListVersionsByFunction",
                            "lambda:DeleteFunction")),
            Map.entry(
                    "AWS::Lambda::Alias",
                    List.of("lambda:CreateAlias", "lambda:GetAlias", "lambda:UpdateAlias", "lambda:DeleteAlias")),
            Map.entry(
                    "AWS::Lambda::Permission",
                    List.of("lambda:AddPermission", "lambda:RemovePermission", "lambda:GetPolicy")),
            Map.entry(
                    "AWS::Lambda::EventSourceMapping",
                    List.of(
                            "lambda:CreateEventSourceMapping",
                            "lambda:GetEventSourceMapping",
                            "lambda:UpdateEventSourceMapping",
                            "lambda:DeleteEventSourceMapping",
                            "lambda:ListEventSourceMappings")),
            Map.entry(
                    "AWS::Logs::LogGroup",
                    List.of(
                            "logs:CreateLogGroup",
                            "logs:DeleteLogGroup",
                            "logs:DescribeLogGroups",
                            "logs:PutRetentionPolicy",
                            "logs:DeleteRetentionPolicy",
                            "logs:TagResource",
                            "logs:UntagResource",
                            "logs:ListTagsForResource",
                            "logs:TagLogGroup",
                            "logs:UntagLogGroup",
                            "logs:ListTagsLogGroup")),
            Map.entry(
                    "AWS::StepFunctions::StateMachine",
                    List.of(
                            "states:CreateStateMachine",
                            "states:UpdateStateMachine",
                            "states:DeleteStateMachine",
                            "states:DescribeStateMachine",
                            "states:ListTagsForResource",
                            "states:TagResource",
                            "states:UntagResource",
                            "iam:PassRole",
                            // its logging configuration (a vended log delivery)
                            "logs:CreateLogDelivery",
                            "logs:GetLogDelivery",
                            "logs:UpdateLogDelivery",
                            "logs:DeleteLogDelivery",
                            "logs:ListLogDeliveries",
                            "logs:PutResourcePolicy",
                            "logs:DescribeResourcePolicies",
                            "logs:DescribeLogGroups")),
            Map.entry(
                    "AWS::SNS::Topic",
                    List.of(
                            "sns:CreateTopic",
                            "sns:DeleteTopic",
                            "sns:GetTopicAttributes",
                            "sns:SetTopicAttributes",
                            "sns:ListTagsForResource",
                            "sns:TagResource",
                            "sns:UntagResource",
                            "kms:DescribeKey")),
            Map.entry("AWS::SNS::TopicPolicy", List.of("sns:SetTopicAttributes", "sns:GetTopicAttributes")),
            Map.entry(
                    "AWS::SQS::Queue",
                    List.of(
                            "sqs:CreateQueue",
                            "sqs:DeleteQueue",
                            "sqs:GetQueueAttributes",
                            "sqs:SetQueueAttributes",
                            "sqs:GetQueueUrl",
                            "sqs:ListQueueTags",
                            "sqs:TagQueue",
                            "sqs:UntagQueue")),
            Map.entry("AWS::SQS::QueuePolicy", List.of("sqs:SetQueueAttributes", "sqs:GetQueueAttributes")),
            Map.entry(
                    "AWS::Events::Rule",
                    List.of(
                            "events:PutRule",
                            "events:DeleteRule",
                            "events:DescribeRule",
                            "events:EnableRule",
                            "events:DisableRule",
                            "events:PutTargets",
                            "events:RemoveTargets",
                            "events:ListTargetsByRule",
                            "events:ListTagsForResource",
                            "events:TagResource",
                            "events:UntagResource")),
            Map.entry(
                    "AWS::CloudWatch::Alarm",
                    List.of(
                            "cloudwatch:PutMetricAlarm",
                            "cloudwatch:DeleteAlarms",
                            "cloudwatch:DescribeAlarms",
                            "cloudwatch:ListTagsForResource",
                            "cloudwatch:TagResource",
                            "cloudwatch:UntagResource")),
            Map.entry(
                    "AWS::CloudWatch::Dashboard",
                    List.of("cloudwatch:PutDashboard", "cloudwatch:GetDashboard", "cloudwatch:DeleteDashboards")),
            // API Gateway's control plane authorises by HTTP verb on the resource path.
            Map.entry("AWS::ApiGateway::RestApi", apiGateway()),
            Map.entry("AWS::ApiGateway::Resource", apiGateway()),
            Map.entry("AWS::ApiGateway::Method", apiGateway()),
            Map.entry("AWS::ApiGateway::RequestValidator", apiGateway()),
            Map.entry("AWS::ApiGateway::Deployment", apiGateway()),
            Map.entry("AWS::ApiGateway::Stage", apiGateway()),
            Map.entry("AWS::ApiGateway::ApiKey", apiGateway()),
            Map.entry("AWS::ApiGateway::UsagePlan", apiGateway()),
            Map.entry("AWS::ApiGateway::UsagePlanKey", apiGateway()),
            Map.entry(
                    "AWS::ApiGateway::Account",
                    List.of("apigateway:GET", "apigateway:PATCH", "iam:PassRole", "iam:GetRole")),
            Map.entry(
                    "AWS::WAFv2::WebACL",
                    List.of(
                            "wafv2:CreateWebACL",
                            "wafv2:UpdateWebACL",
                            "wafv2:DeleteWebACL",
                            "wafv2:GetWebACL",
                            "wafv2:ListTagsForResource",
                            "wafv2:TagResource",
                            "wafv2:UntagResource")),
            Map.entry(
                    "AWS::WAFv2::WebACLAssociation",
                    List.of(
                            "wafv2:AssociateWebACL",
                            "wafv2:DisassociateWebACL",
                            "wafv2:GetWebACLForResource",
                            "wafv2:GetWebACL",
                            "apigateway:SetWebACL",
                            "apigateway:GET")));

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final Path IAM =
            BuildArtifacts.findRepositoryRoot(Path.of("")).resolve("infra-cdk/iam");

    private List<SynthesizedStack> stacks;

    @BeforeAll
    void synthesize() {
        stacks = List.of(
                SynthesizedStack.synthesize(Map.of()),
                SynthesizedStack.synthesize(Map.of(
                        "apiAuth", "api-key",
                        "deletionProtection", false,
                        "alarmTopicArn", "arn:aws:sns:eu-west-1:123456789012:ops-alarms",
                        "glueJobNames", "nightly-orders",
                        "emrServerlessApplicationIds", "00fabc123def",
                        "emrServerlessExecutionRoleArns", "arn:aws:iam::123456789012:role/emr-serverless-job",
                        "stateMachineArns", "arn:aws:states:eu-west-1:123456789012:stateMachine:gold-build",
                        "secretsPrefix", "interlock/")));
    }

    @Test
    void everyResourceTypeTheStackCreatesHasItsActionsListed() {
        Set<String> unknown = new TreeSet<>(resourceTypes());
        unknown.removeAll(NEEDED.keySet());
        assertThat(unknown)
                .as("resource types in the template that DeployerPolicyTest.NEEDED does not know: list what "
                        + "CloudFormation needs to create, update and delete them, and grant it in "
                        + "infra-cdk/iam/cloudformation-execution-policy.json")
                .isEmpty();
    }

    /** And no type the stack no longer has keeps its actions in the policy. */
    @Test
    void everyListedResourceTypeIsOneTheStackCreates() {
        assertThat(new TreeSet<>(NEEDED.keySet())).isEqualTo(resourceTypes());
    }

    @Test
    void theExecutionPolicyAllowsEveryActionTheStacksResourceTypesNeed() throws IOException {
        List<Statement> policy = statements(IAM.resolve("cloudformation-execution-policy.json"));
        Map<String, List<String>> missing = new TreeMap<>();
        for (String type : resourceTypes()) {
            for (String action : NEEDED.getOrDefault(type, List.of())) {
                if (policy.stream().noneMatch(s -> s.allows(action))) {
                    missing.computeIfAbsent(type, t -> new ArrayList<>()).add(action);
                }
            }
        }
        assertThat(missing).as("actions the execution policy does not allow").isEmpty();
    }

    @Test
    void theExecutionPolicyGrantsNothingNoResourceTypeNeeds() throws IOException {
        Set<String> needed = new TreeSet<>();
        NEEDED.values().forEach(needed::addAll);
        List<String> unused = new ArrayList<>();
        for (Statement statement : statements(IAM.resolve("cloudformation-execution-policy.json"))) {
            assertThat(statement.effect()).isEqualTo("Allow");
            for (String pattern : statement.actions()) {
                if (needed.stream().noneMatch(action -> matches(pattern, action))) {
                    unused.add(statement.sid() + ": " + pattern);
                }
            }
        }
        assertThat(unused).isEmpty();
    }

    /** The execution policy may create and pass only roles whose names start like this stack's: CloudFormation names them. */
    @Test
    void iamActionsAreScopedToTheStacksOwnRoles() throws IOException {
        for (Statement statement : statements(IAM.resolve("cloudformation-execution-policy.json"))) {
            if (statement.actions().stream().anyMatch(a -> a.startsWith("iam:"))) {
                assertThat(statement.resources()).containsExactly("arn:aws:iam::*:role/Interlock*");
            }
        }
        for (SynthesizedStack synth : stacks) {
            assertThat(synth.options().stackName()).startsWith("Interlock");
            synth.resourcesOfType("AWS::IAM::Role")
                    .forEach((id, role) -> assertThat(Json.at(role, "Properties", "RoleName"))
                            .as("%s: an explicit RoleName would escape the policy's role/Interlock* scope", id)
                            .isNull());
        }
    }

    /** The deployer's own policy is shown in docs/operations.md: the block there is this file. */
    @Test
    void operationsDocShowsTheDeployerPolicyAsItIs() throws IOException {
        Path doc = BuildArtifacts.findRepositoryRoot(Path.of("")).resolve("docs/operations.md");
        Matcher block = Pattern.compile("<!-- deployer-policy\\.json -->\\s*```json\\n(.*?)```", Pattern.DOTALL)
                .matcher(Files.readString(doc));
        assertThat(block.find())
                .as("docs/operations.md shows infra-cdk/iam/deployer-policy.json")
                .isTrue();
        assertThat(MAPPER.readTree(block.group(1)))
                .isEqualTo(MAPPER.readTree(IAM.resolve("deployer-policy.json").toFile()));
    }

    @Test
    void actionPatternsMatchAsIamMatchesThem() {
        assertThat(matches("dynamodb:Describe*", "dynamodb:DescribeTimeToLive")).isTrue();
        assertThat(matches("dynamodb:describetable", "dynamodb:DescribeTable")).isTrue();
        assertThat(matches("dynamodb:Describe*", "dynamodb:DeleteTable")).isFalse();
        assertThat(matches("lambda:Get?olicy", "lambda:GetPolicy")).isTrue();
    }

    private Set<String> resourceTypes() {
        Set<String> types = new TreeSet<>();
        for (SynthesizedStack synth : stacks) {
            synth.resources().values().forEach(r -> types.add(String.valueOf(r.get("Type"))));
        }
        return types;
    }

    private record Statement(String sid, String effect, List<String> actions, List<String> resources) {
        boolean allows(String action) {
            return "Allow".equals(effect) && actions.stream().anyMatch(p -> matches(p, action));
        }
    }

    private static List<Statement> statements(Path file) throws IOException {
        List<Statement> result = new ArrayList<>();
        for (JsonNode s : MAPPER.readTree(file.toFile()).path("Statement")) {
            result.add(new Statement(
                    s.path("Sid").asText(),
                    s.path("Effect").asText(),
                    texts(s.get("Action")),
                    texts(s.get("Resource"))));
        }
        return result;
    }

    private static List<String> texts(JsonNode node) {
        List<String> values = new ArrayList<>();
        if (node == null) {
            return values;
        }
        if (node.isArray()) {
            node.forEach(n -> values.add(n.asText()));
        } else {
            values.add(node.asText());
        }
        return values;
    }

    /** IAM's action matching, as the conformance check does it. */
    static boolean matches(String pattern, String action) {
        return IamConformanceCheck.actionMatches(pattern, action);
    }

    private static List<String> apiGateway() {
        return List.of("apigateway:GET", "apigateway:POST", "apigateway:PUT", "apigateway:PATCH", "apigateway:DELETE");
    }
}
