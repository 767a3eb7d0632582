package dev.interlock.infra.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.runtime.InterlockFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The IAM conformance check on the real synthesized stack (configured, as {@link ConformanceDeployment} would, for the
 * jobs the requests below call) and on small hand-made templates for the IAM rules the stack does not exercise.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class IamConformanceCheckTest {

    private static final String ACCOUNT = "000000000000";
    private static final String TABLE = "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/interlock";
    private static final String ROLE = "arn:aws:iam::123456789012:role/spark-job";
    private static final String SM = "arn:aws:states:us-east-1:123456789012:stateMachine:gold-build";
    private static final String ROW_COUNT = "arn:aws:lambda:us-east-1:" + ACCOUNT + ":function:row-count";

    private IamConformanceCheck stack;
    private Map<String, Object> json;

    /** A request as the recorder writes it, by a function whose TABLE_NAME is {@code interlock}. */
    private static RecordedRequest request(String function, String action, String resource) {
        return request(function, action, resource, Map.of());
    }

    private static RecordedRequest request(
            String function, String action, String resource, Map<String, String> context) {
        return new RecordedRequest(
                function,
                action.substring(0, action.indexOf(':')),
                "Op",
                action,
                resource,
                "us-east-1",
                ACCOUNT,
                context,
                Map.of(
                        "TABLE_NAME",
                        "interlock",
                        "ALERT_TOPIC_ARN",
                        "arn:aws:sns:us-east-1:" + ACCOUNT + ":interlock-alerts",
                        "STATE_MACHINE_ARN",
                        "arn:aws:states:us-east-1:" + ACCOUNT + ":stateMachine:interlock-pipeline"));
    }

    private static final List<RecordedRequest> JOB_CALLS = List.of(
            request("trigger", "glue:StartJobRun", "arn:aws:glue:us-east-1:" + ACCOUNT + ":job/orders-etl"),
            request("run-checker", "glue:GetJobRun", "arn:aws:glue:us-east-1:" + ACCOUNT + ":job/orders-etl"),
            request(
                    "trigger",
                    "emr-serverless:StartJobRun",
                    "arn:aws:emr-serverless:us-east-1:" + ACCOUNT + ":/applications/00abc"),
            // As the recorder writes it: the role an EMR Serverless start passes, recorded under that start's service.
            new RecordedRequest(
                    "trigger",
                    "emr-serverless",
                    "StartJobRun",
                    "iam:PassRole",
                    ROLE,
                    "us-east-1",
                    ACCOUNT,
                    Map.of("iam:PassedToService", "emr-serverless.amazonaws.com"),
                    Map.of("TABLE_NAME", "interlock")),
            request(
                    "run-checker",
                    "emr-serverless:GetJobRun",
                    "arn:aws:emr-serverless:us-east-1:" + ACCOUNT + ":/applications/00abc/jobruns/jr-1"),
            request("trigger", "states:StartExecution", SM),
            request(
                    "run-checker",
                    "states:DescribeExecution",
                    "arn:aws:states:us-east-1:123456789012:execution:gold-build:interlock-run-1"),
            // Credential references, as the recorder names them: a secret with its ARN suffix as a pattern.
            request(
                    "trigger",
                    "secretsmanager:GetSecretValue",
                    "arn:aws:secretsmanager:us-east-1:" + ACCOUNT + ":secret:interlock/airflow/prod-??????"),
            request(
                    "evaluator",
                    "secretsmanager:GetSecretValue",
                    "arn:aws:secretsmanager:us-east-1:" + ACCOUNT + ":secret:interlock/checks-??????"),
            request(
                    "run-checker",
                    "ssm:GetParameter",
                    "arn:aws:ssm:us-east-1:" + ACCOUNT + ":parameter/interlock/airflow/key"),
            // A post-run check (docs/post-run-checks.md): the orchestrator calls a lambda: evaluator and reads the
            // secret of an HTTP check's header, as the evaluator does for a readiness trait.
            request("orchestrator", "lambda:InvokeFunction", ROW_COUNT),
            request(
                    "orchestrator",
                    "secretsmanager:GetSecretValue",
                    "arn:aws:secretsmanager:us-east-1:" + ACCOUNT + ":secret:interlock/checks-??????"));

    @BeforeAll
    void synthesize() throws IOException {
        Map<String, Object> context = ConformanceDeployment.jobContext(JOB_CALLS);
        Path template = IamConformance.synthesize(
                Path.of("target", "cdk-test-out", UUID.randomUUID().toString()), context);
        json = new ObjectMapper().readValue(Files.readString(template), new TypeReference<>() {});
        stack = new IamConformanceCheck(json);
    }

    @Test
    void theRecordedJobsBecomeTheDeploymentsJobContext() {
        assertThat(ConformanceDeployment.jobContext(JOB_CALLS))
                .isEqualTo(Map.of(
                        "glueJobNames", List.of("orders-etl"),
                        "emrServerlessApplicationIds", List.of("00abc"),
                        "emrServerlessExecutionRoleArns", List.of(ROLE),
                        "stateMachineArns", List.of(SM),
                        "evaluatorFunctionArns", List.of(ROW_COUNT),
                        "secretsPrefix", "interlock/",
                        "ssmParameterPrefix", "/interlock/airflow/"));
    }

    @Test
    void aSecretOutsideThePrefixTheDeploymentNamesIsAViolation() {
        RecordedRequest elsewhere = request(
                "trigger",
                "secretsmanager:GetSecretValue",
                "arn:aws:secretsmanager:us-east-1:" + ACCOUNT + ":secret:prod/db-??????");
        assertThat(stack.check(List.of(elsewhere)).violations()).hasSize(1);
        assertThat(stack.check(List.of(request(
                                "api",
                                "secretsmanager:GetSecretValue",
                                "arn:aws:secretsmanager:us-east-1:" + ACCOUNT
                                        + ":secret:interlock/airflow/prod-??????")))
                        .violations())
                .as("only the functions that resolve credentials may read them")
                .hasSize(1);
    }

    @Test
    void whatTheCodeCallsOnTheConfiguredJobsIsAllowed() {
        IamConformanceCheck.Result result = stack.check(JOB_CALLS);
        assertThat(result.violations()).isEmpty();
    }

    @Test
    void aTriggerResumedAfterACrashMayLookUpTheGlueJobRunItsRunIdStarted() {
        RecordedRequest lookup =
                request("trigger", "glue:GetJobRuns", "arn:aws:glue:us-east-1:" + ACCOUNT + ":job/orders-etl");
        assertThat(stack.check(List.of(lookup)).violations()).isEmpty();
        assertThat(stack.check(List.of(request(
                                "trigger", "glue:GetJobRuns", "arn:aws:glue:us-east-1:" + ACCOUNT + ":job/other-etl")))
                        .violations())
                .as("only the configured jobs' runs")
                .hasSize(1);
    }

    @Test
    void theWatchdogsHolderCheckMayDescribeExecutionsOfInterlocksOwnMachineOnly() {
        // The orchestrator is given no STATE_MACHINE_ARN (the machine depends on it): its grant on the machine's
        // executions is known by the name the API's environment gives the machine in the same deployment.
        RecordedRequest holderCheck = request(
                "orchestrator",
                "states:DescribeExecution",
                "arn:aws:states:us-east-1:" + ACCOUNT
                        + ":execution:interlock-pipeline:orders_2026-03-01_daily_1a2b3c4d");
        assertThat(stack.check(List.of(holderCheck)).violations()).isEmpty();
        assertThat(stack.check(List.of(request(
                                "orchestrator",
                                "states:DescribeExecution",
                                "arn:aws:states:us-east-1:" + ACCOUNT + ":execution:another-machine:orders")))
                        .violations())
                .as("only Interlock's own machine's executions")
                .hasSize(1);
    }

    @Test
    void aManualRerunsTransactionMayUpdateTheDaysRerunBudget() {
        // acceptRerun: rerun + pipeline copy + marker + event puts and the budget counter's ADD, in one transaction.
        IamConformanceCheck.Result result = stack.check(
                List.of(request("api", "dynamodb:PutItem", TABLE), request("api", "dynamodb:UpdateItem", TABLE)));
        assertThat(result.violations()).isEmpty();
    }

    @Test
    void aRequestTheRoleDoesNotAllowIsNamedWithItsFunctionActionAndResource() {
        IamConformanceCheck.Result result = stack.check(List.of(
                request("evaluator", "dynamodb:Query", TABLE),
                request("api", "dynamodb:Query", TABLE + "/index/GSI2"),
                request("trigger", "glue:StartJobRun", "arn:aws:glue:us-east-1:" + ACCOUNT + ":job/not-configured"),
                request("trigger", "iam:PassRole", ROLE),
                request("api", "dynamodb:GetItem", "arn:aws:dynamodb:us-east-1:" + ACCOUNT + ":table/some-other-table"),
                request("evaluator", "dynamodb:ConditionCheckItem", TABLE)));
        assertThat(result.violations())
                .extracting(Object::toString)
                .containsExactly(
                        "evaluator: dynamodb:Query on " + TABLE + " (Op): role " + roleOf(result, "evaluator")
                                + " of evaluator grants no dynamodb:Query",
                        "api: dynamodb:Query on " + TABLE + "/index/GSI2 (Op): role " + roleOf(result, "api")
                                + " grants dynamodb:Query only on [" + TABLE + ", " + TABLE + "/index/GSI1]",
                        "trigger: glue:StartJobRun on arn:aws:glue:us-east-1:" + ACCOUNT
                                + ":job/not-configured (Op): role "
                                + roleOf(result, "trigger")
                                + " grants glue:StartJobRun only on [arn:aws:glue:us-east-1:"
                                + ACCOUNT + ":job/orders-etl]",
                        "trigger: iam:PassRole on " + ROLE + " (Op): role " + roleOf(result, "trigger")
                                + " grants iam:PassRole only on [" + ROLE
                                + " with conditions {StringEquals={iam:PassedToService=emr-serverless.amazonaws.com}}]",
                        "api: dynamodb:GetItem on arn:aws:dynamodb:us-east-1:" + ACCOUNT
                                + ":table/some-other-table (Op): role " + roleOf(result, "api")
                                + " grants dynamodb:GetItem only on [" + TABLE + "]",
                        "evaluator: dynamodb:ConditionCheckItem on " + TABLE + " (Op): role "
                                + roleOf(result, "evaluator")
                                + " of evaluator grants no dynamodb:ConditionCheckItem");
    }

    @Test
    void aResourceTheRecorderCouldNotNameAndAnUnknownFunctionAreViolationsToo() {
        IamConformanceCheck.Result result = stack.check(List.of(
                request("trigger", "secretsmanager:GetSecretValue", null),
                request("billing", "dynamodb:GetItem", TABLE)));
        assertThat(result.violations())
                .extracting(Object::toString)
                .containsExactly(
                        "trigger: secretsmanager:GetSecretValue on (resource unknown to the recorder) (Op): the recorder cannot "
                                + "name the resource of secretsmanager:GetSecretValue: teach IamRequests (lambdas/aws-recorder) which ARN it acts on",
                        "billing: dynamodb:GetItem on " + TABLE + " (Op): no function 'billing' in the template");
    }

    @Test
    void grantsNoRequestUsedAreListedApartFromTheLambdaServicesOwn() {
        IamConformanceCheck.Result result = stack.check(List.of(request("api", "dynamodb:GetItem", TABLE)));
        assertThat(result.unused())
                .extracting(Object::toString)
                .contains(
                        "api: dynamodb:DeleteItem on ${" + tableId() + ".Arn} (" + apiStatement("InterlockTable") + ")",
                        "api: dynamodb:Query on ${" + tableId() + ".Arn}/index/GSI1 ("
                                + apiStatement("InterlockIndexes") + ")")
                .doesNotContain(
                        "api: dynamodb:GetItem on ${" + tableId() + ".Arn} (" + apiStatement("InterlockTable") + ")");
        assertThat(result.usedByTheService())
                .extracting(IamConformanceCheck.Grant::action)
                .contains("logs:PutLogEvents", "xray:PutTraceSegments", "dynamodb:GetRecords", "sqs:SendMessage");
        assertThat(result.unused())
                .extracting(IamConformanceCheck.Grant::action)
                .doesNotContain("logs:PutLogEvents");
        assertThat(result.requestsPerFunction()).containsExactly(Map.entry(InterlockFunction.API, 1));
        assertThat(result.report()).contains("Not allowed by the function's role (0)", "api: 1", "orchestrator: 0");
    }

    // ------------------------------------------------------------------ the rules, on hand-made templates

    private static Map<String, Object> template(List<Map<String, Object>> statements, Map<String, Object> environment) {
        return Map.of(
                "Resources",
                Map.of(
                        "Fn",
                                Map.of(
                                        "Type",
                                        "AWS::Lambda::Function",
                                        "Properties",
                                        Map.of(
                                                "Handler", InterlockFunction.ORCHESTRATOR.handler(),
                                                "Role", Map.of("Fn::GetAtt", List.of("Role", "Arn")),
                                                "Environment", Map.of("Variables", environment))),
                        "Role", Map.of("Type", "AWS::IAM::Role", "Properties", Map.of()),
                        "Table", Map.of("Type", "AWS::DynamoDB::Table", "Properties", Map.of()),
                        "Policy",
                                Map.of(
                                        "Type",
                                        "AWS::IAM::Policy",
                                        "Properties",
                                        Map.of(
                                                "Roles", List.of(Map.of("Ref", "Role")),
                                                "PolicyDocument", Map.of("Statement", statements)))));
    }

    private static Map<String, Object> allow(Object action, Object resource) {
        return Map.of("Effect", "Allow", "Action", action, "Resource", resource);
    }

    @Test
    void actionWildcardsAreCaseInsensitiveAndResourcesResolveJoinSubSelectAndPseudoParameters() {
        Map<String, Object> t = template(
                List.of(
                        allow(
                                "DynamoDB:*Item",
                                Map.of(
                                        "Fn::Sub",
                                        "arn:${AWS::Partition}:dynamodb:${AWS::Region}:${AWS::AccountId}:table/${Table}")),
                        allow(
                                "dynamodb:Query",
                                Map.of(
                                        "Fn::Join",
                                        List.of(
                                                "",
                                                List.of(Map.of("Fn::GetAtt", List.of("Table", "Arn")), "/index/*")))),
                        allow(
                                "sns:Publish",
                                Map.of(
                                        "Fn::Select",
                                        List.of(
                                                1,
                                                Map.of(
                                                        "Fn::Split",
                                                        List.of(
                                                                ",",
                                                                "x,arn:aws:sns:us-east-1:" + ACCOUNT + ":a?erts")))))),
                Map.of("TABLE_NAME", Map.of("Ref", "Table")));
        IamConformanceCheck.Result result = new IamConformanceCheck(t)
                .check(List.of(
                        request("orchestrator", "dynamodb:UpdateItem", TABLE),
                        request("orchestrator", "dynamodb:Query", TABLE + "/index/GSI1"),
                        request("orchestrator", "sns:Publish", "arn:aws:sns:us-east-1:" + ACCOUNT + ":alerts"),
                        request("orchestrator", "dynamodb:Query", TABLE),
                        request("orchestrator", "dynamodb:Scan", TABLE + "/index/GSI1")));
        assertThat(result.violations())
                .extracting(v -> v.request().action() + " " + v.request().resource())
                .containsExactly("dynamodb:Query " + TABLE, "dynamodb:Scan " + TABLE + "/index/GSI1");
        assertThat(result.unused()).isEmpty();
    }

    @Test
    void anExplicitDenyWinsAndAStatementWithAnUnevaluatedConditionAllowsNothing() {
        Map<String, Object> t = template(
                List.of(
                        allow("dynamodb:*", "*"),
                        Map.of("Effect", "Deny", "Action", "dynamodb:DeleteItem", "Resource", "*", "Sid", "NoDeletes"),
                        Map.of(
                                "Effect",
                                "Allow",
                                "Action",
                                "sns:Publish",
                                "Resource",
                                "*",
                                "Condition",
                                Map.of("Bool", Map.of("aws:SecureTransport", "true")))),
                Map.of());
        IamConformanceCheck.Result result = new IamConformanceCheck(t)
                .check(List.of(
                        request("orchestrator", "dynamodb:GetItem", TABLE),
                        request("orchestrator", "dynamodb:DeleteItem", TABLE),
                        request("orchestrator", "sns:Publish", "arn:aws:sns:us-east-1:" + ACCOUNT + ":alerts")));
        assertThat(result.violations())
                .extracting(IamConformanceCheck.Violation::why)
                .containsExactly(
                        "denied by statement Policy/NoDeletes",
                        "role Role grants sns:Publish only on [* with conditions {Bool={aws:SecureTransport=true}} "
                                + "(condition operator Bool is not evaluated)]");
    }

    @Test
    void aRequestThatNamesItsResourceOnlyAsAPatternMatchesAGrantOfThatShape() {
        Map<String, Object> t = template(
                List.of(allow(
                        "states:SendTaskSuccess",
                        "arn:aws:states:us-east-1:" + ACCOUNT + ":stateMachine:interlock-pipeline")),
                Map.of());
        assertThat(new IamConformanceCheck(t)
                        .check(List.of(request(
                                "orchestrator",
                                "states:SendTaskSuccess",
                                "arn:aws:states:us-east-1:" + ACCOUNT + ":stateMachine:*")))
                        .violations())
                .isEmpty();
        assertThat(new IamConformanceCheck(t)
                        .check(List.of(request(
                                "orchestrator",
                                "states:SendTaskSuccess",
                                "arn:aws:states:us-east-1:" + ACCOUNT + ":activity:*")))
                        .violations())
                .hasSize(1);
    }

    // ------------------------------------------------------------------ helpers

    @SuppressWarnings("unchecked")
    private Map<String, Map<String, Object>> resources() {
        return (Map<String, Map<String, Object>>) json.get("Resources");
    }

    /** The logical id of a function's role, found by the function's handler. */
    @SuppressWarnings("unchecked")
    private String roleOf(IamConformanceCheck.Result ignored, String function) {
        String handler = InterlockFunction.fromModuleName(function).handler();
        Map<String, Object> fn = resources().values().stream()
                .filter(r -> handler.equals(((Map<String, Object>) r.get("Properties")).get("Handler")))
                .findFirst()
                .orElseThrow();
        Map<String, Object> role = (Map<String, Object>) ((Map<String, Object>) fn.get("Properties")).get("Role");
        return String.valueOf(((List<Object>) role.get("Fn::GetAtt")).getFirst());
    }

    private String tableId() {
        return resources().entrySet().stream()
                .filter(e -> "AWS::DynamoDB::Table".equals(e.getValue().get("Type")))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
    }

    /** {@code <policy id>/<sid>} of a statement of the API role's policy. */
    @SuppressWarnings("unchecked")
    private String apiStatement(String sid) {
        String roleId = roleOf(null, "api");
        String policy = resources().entrySet().stream()
                .filter(e -> "AWS::IAM::Policy".equals(e.getValue().get("Type")))
                .filter(e -> ((List<Object>) ((Map<String, Object>) e.getValue().get("Properties")).get("Roles"))
                        .contains(Map.of("Ref", roleId)))
                .map(Map.Entry::getKey)
                .findFirst()
                .orElseThrow();
        return policy + "/" + sid;
    }
}
