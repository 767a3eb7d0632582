package dev.interlock.infra;

import static dev.interlock.infra.StackConventions.retention;
import static dev.interlock.infra.StackConventions.suppression;

import dev.interlock.infra.DeploymentOptions.ApiAuth;
import io.github.cdklabs.cdknag.NagPackSuppression;
import io.github.cdklabs.cdknag.NagSuppressions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.apigateway.AccessLogFormat;
import software.amazon.awscdk.services.apigateway.ApiKeyOptions;
import software.amazon.awscdk.services.apigateway.AuthorizationType;
import software.amazon.awscdk.services.apigateway.EndpointType;
import software.amazon.awscdk.services.apigateway.IApiKey;
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
import software.amazon.awscdk.services.apigateway.UsagePlanPerApiStage;
import software.amazon.awscdk.services.apigateway.UsagePlanProps;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.wafv2.CfnWebACL;
import software.amazon.awscdk.services.wafv2.CfnWebACLAssociation;
import software.constructs.Construct;

/**
 * The registration API: one REST method per operation of the API's OpenAPI document, Lambda proxy to the {@code api}
 * alias, IAM or API-key auth, stage throttling and logs, and a WAF body-size guard in front.
 */
final class RegistrationApi {

    private final Construct scope;
    private final DeploymentOptions options;
    private final RestApi restApi;

    RegistrationApi(Construct scope, DeploymentOptions options, ApiContract contract, Alias apiFunction) {
        this.scope = scope;
        this.options = options;
        LogGroup accessLogs = LogGroup.Builder.create(scope, "ApiAccessLogs")
                .retention(retention(options.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        boolean iam = options.apiAuth() == ApiAuth.IAM;
        this.restApi = RestApi.Builder.create(scope, "RegistrationApi")
                .restApiName(options.stackName() + "-registration")
                .description("Interlock registration API")
                .endpointTypes(List.of(EndpointType.REGIONAL))
                .cloudWatchRole(options.apiGatewayAccountRole())
                .deployOptions(StageOptions.builder()
                        .stageName(InterlockStack.API_STAGE)
                        .throttlingRateLimit(options.apiThrottleRateLimit())
                        .throttlingBurstLimit(options.apiThrottleBurstLimit())
                        .accessLogDestination(new LogGroupLogDestination(accessLogs))
                        .accessLogFormat(AccessLogFormat.jsonWithStandardFields(JsonWithStandardFieldProps.builder()
                                .caller(true)
                                .httpMethod(true)
                                .ip(true)
                                .protocol(true)
                                .requestTime(true)
                                .resourcePath(true)
                                .responseLength(true)
                                .status(true)
                                .user(true)
                                .build()))
                        // ERROR, not INFO: execution logs at INFO would copy registration bodies into CloudWatch.
                        .loggingLevel(MethodLoggingLevel.ERROR)
                        .dataTraceEnabled(false)
                        .metricsEnabled(true)
                        .tracingEnabled(true)
                        .build())
                .build();
        if (options.apiGatewayAccountRole()) {
            NagSuppressions.addResourceSuppressions(
                    restApi,
                    List.of(NagPackSuppression.builder()
                            .id("AwsSolutions-IAM4")
                            .reason(
                                    "The account-level API Gateway logging role uses AWS's AmazonAPIGatewayPushToCloudWatchLogs, "
                                            + "the policy API Gateway documents for execution and access logging")
                            .appliesTo(List.of("Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/"
                                    + "AmazonAPIGatewayPushToCloudWatchLogs"))
                            .build()),
                    true);
        }
        addMethods(contract, apiFunction, iam);
        if (!iam) {
            addApiKey();
        }
        // RestApi adds an "Endpoint" output of its own; ApiUrl (the stack's) is the one the README and the CLI name.
        restApi.getNode().tryRemoveChild("Endpoint");
        bodySizeGuard();
    }

    RestApi restApi() {
        return restApi;
    }

    /**
     * Parameters the contract marks required (every path parameter) are checked before Lambda runs; bodies are JSON or
     * YAML, which no API Gateway model can describe, so the function validates them.
     */
    private void addMethods(ApiContract contract, Alias apiFunction, boolean iam) {
        RequestValidator validator = restApi.addRequestValidator(
                "PathAndBodyValidator",
                RequestValidatorOptions.builder()
                        .requestValidatorName("path-parameters-and-body")
                        .validateRequestParameters(true)
                        .validateRequestBody(true)
                        .build());
        LambdaIntegration integration = new LambdaIntegration(
                apiFunction,
                LambdaIntegrationOptions.builder()
                        .proxy(true)
                        // One invoke permission for the whole API instead of one per route (and per test-invoke).
                        .scopePermissionToMethod(false)
                        .build());
        for (ApiContract.Operation operation : contract.operations()) {
            IResource resource = restApi.getRoot().resourceForPath(operation.path());
            resource.addMethod(
                    operation.method(),
                    integration,
                    MethodOptions.builder()
                            .operationName(operation.operationId())
                            .authorizationType(iam ? AuthorizationType.IAM : AuthorizationType.NONE)
                            .apiKeyRequired(!iam)
                            .requestValidator(validator)
                            .requestParameters(operation.requestParameters())
                            .build());
        }
        List<NagPackSuppression> authSuppressions = new ArrayList<>();
        authSuppressions.add(suppression(
                "AwsSolutions-COG4",
                "Callers are AWS principals and CI jobs (SigV4 via the CLI), not end users with a Cognito pool; "
                        + (iam ? "every method uses IAM authorization." : "this deployment chose API-key mode.")));
        if (!iam) {
            authSuppressions.add(suppression(
                    "AwsSolutions-APIG4",
                    "API-key mode was chosen by context (apiAuth=api-key): every method requires an x-api-key bound "
                            + "to a throttled usage plan; the default deployment uses IAM authorization."));
        }
        NagSuppressions.addResourceSuppressions(restApi, authSuppressions, true);
    }

    /** API-key mode: one key on a usage plan with the stage's throttle; the key's id is a stack output. */
    private void addApiKey() {
        IApiKey key = restApi.addApiKey(
                "ApiKey",
                ApiKeyOptions.builder()
                        .description("Interlock registration API key")
                        .build());
        UsagePlan plan = restApi.addUsagePlan(
                "UsagePlan",
                UsagePlanProps.builder()
                        .name(options.stackName() + "-registration")
                        .throttle(ThrottleSettings.builder()
                                .rateLimit(options.apiThrottleRateLimit())
                                .burstLimit(options.apiThrottleBurstLimit())
                                .build())
                        .build());
        plan.addApiKey(key);
        plan.addApiStage(UsagePlanPerApiStage.builder()
                .api(restApi)
                .stage(restApi.getDeploymentStage())
                .build());
        CfnOutput.Builder.create(scope, "ApiKeyId")
                .description("Id of the API key; read its value with: aws apigateway get-api-key --include-value "
                        + "--api-key <id>")
                .value(key.getKeyId())
                .build();
    }

    /**
     * API Gateway REST APIs accept bodies up to 10 MB and offer no smaller limit of their own. A WAF web ACL on the
     * stage refuses requests whose declared Content-Length exceeds the limit, before Lambda runs: WAF inspects at
     * most 64 KB of a body, so the rule reads the header (as a number, see {@link ContentLengthPattern}) rather than
     * the body. A request that lies about its length still meets the API function's own 256 KiB check.
     */
    private void bodySizeGuard() {
        long limitBytes = options.apiMaxRequestBodyKb() * 1024L;
        CfnWebACL acl = CfnWebACL.Builder.create(scope, "ApiWebAcl")
                .scope("REGIONAL")
                .description("Interlock registration API: refuses request bodies over " + options.apiMaxRequestBodyKb()
                        + " KiB")
                .defaultAction(CfnWebACL.DefaultActionProperty.builder()
                        .allow(CfnWebACL.AllowActionProperty.builder().build())
                        .build())
                .rules(List.of(CfnWebACL.RuleProperty.builder()
                        .name("RequestBodyTooLarge")
                        .priority(0)
                        .action(CfnWebACL.RuleActionProperty.builder()
                                .block(CfnWebACL.BlockActionProperty.builder()
                                        .customResponse(CfnWebACL.CustomResponseProperty.builder()
                                                .responseCode(413)
                                                .build())
                                        .build())
                                .build())
                        .statement(CfnWebACL.StatementProperty.builder()
                                .regexMatchStatement(CfnWebACL.RegexMatchStatementProperty.builder()
                                        .fieldToMatch(CfnWebACL.FieldToMatchProperty.builder()
                                                .singleHeader(Map.of("Name", "content-length"))
                                                .build())
                                        .regexString(ContentLengthPattern.greaterThan(limitBytes))
                                        .textTransformations(List.of(CfnWebACL.TextTransformationProperty.builder()
                                                .priority(0)
                                                .type("NONE")
                                                .build()))
                                        .build())
                                .build())
                        .visibilityConfig(visibility("request-body-too-large"))
                        .build()))
                .visibilityConfig(visibility(options.stackName() + "-registration-api"))
                .build();
        CfnWebACLAssociation.Builder.create(scope, "ApiWebAclAssociation")
                .resourceArn(restApi.getDeploymentStage().getStageArn())
                .webAclArn(acl.getAttrArn())
                .build();
    }

    private static CfnWebACL.VisibilityConfigProperty visibility(String metricName) {
        return CfnWebACL.VisibilityConfigProperty.builder()
                .cloudWatchMetricsEnabled(true)
                .sampledRequestsEnabled(true)
                .metricName(metricName)
                .build();
    }
}
