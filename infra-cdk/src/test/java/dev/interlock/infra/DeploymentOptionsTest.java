package dev.interlock.infra;

import dev.interlock.infra.DeploymentOptions.ApiAuth;
import dev.interlock.model.runtime.EnvVar;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DeploymentOptionsTest {

    @Test
    void defaultsAreAProtectedIamDeploymentThatMayStartNoJob() {
        DeploymentOptions o = DeploymentOptions.defaults();
        assertThat(o.stackName()).isEqualTo("Interlock");
        assertThat(o.deletionProtection()).isTrue();
        assertThat(o.logRetentionDays()).isEqualTo(30);
        assertThat(o.apiAuth()).isEqualTo(ApiAuth.IAM);
        assertThat(o.apiThrottleRateLimit()).isEqualTo(50);
        assertThat(o.apiThrottleBurstLimit()).isEqualTo(100);
        assertThat(o.apiMaxRequestBodyKb()).isEqualTo(256);
        assertThat(o.apiGatewayAccountRole()).isTrue();
        assertThat(o.watchdogRateMinutes()).isEqualTo(5);
        assertThat(o.jobStateRules()).isFalse();
        assertThat(o.alarmTopicArn()).isEmpty();
        assertThat(o.evaluatorBaseUrl()).isEmpty();
        // The functions' own defaults, named once in EnvVar.
        assertThat(o.staleMarkerDays()).isEqualTo(Integer.parseInt(EnvVar.STALE_MARKER_DAYS.defaultValue()));
        assertThat(o.runLogTtlDays()).isEqualTo(Integer.parseInt(EnvVar.RUN_LOG_TTL_DAYS.defaultValue()));
        assertThat(o.retentionDays()).isEqualTo(Integer.parseInt(EnvVar.RETENTION_DAYS.defaultValue()));
        assertThat(o.maxRerunsPerDay()).isEqualTo(Integer.parseInt(EnvVar.MAX_RERUNS_PER_DAY.defaultValue()));
        assertThat(o.jobs()).isEqualTo(DeploymentOptions.JobTargets.none());
    }

    @Test
    void commandLineStringsAndCdkJsonValuesReadAlike() {
        DeploymentOptions fromCli = DeploymentOptions.fromContext(Map.of(
                "deletionProtection", "false", "logRetentionDays", "14", "glueJobNames", "a-job, b.job,,a-job"));
        DeploymentOptions fromJson = DeploymentOptions.fromContext(Map.of(
                "deletionProtection", false, "logRetentionDays", 14, "glueJobNames", List.of("a-job", "b.job")));
        assertThat(fromCli).isEqualTo(fromJson);
        assertThat(fromCli.jobs().glueJobNames()).containsExactly("a-job", "b.job");
    }

    @Test
    void apiKeyModeAndAlarmTopicAreRead() {
        DeploymentOptions o = DeploymentOptions.fromContext(Map.of(
                "apiAuth", "api-key", "alarmTopicArn", "arn:aws:sns:us-east-1:123456789012:alarms"));
        assertThat(o.apiAuth()).isEqualTo(ApiAuth.API_KEY);
        assertThat(o.alarmTopicArn()).isEqualTo(Optional.of("arn:aws:sns:us-east-1:123456789012:alarms"));
    }

    @Test
    void everyInvalidOptionIsReportedAtOnceByKey() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.ofEntries(
                Map.entry("stackName", "1bad"),
                Map.entry("deletionProtection", "yes"),
                Map.entry("logRetentionDays", "10"),
                Map.entry("apiAuth", "cognito"),
                Map.entry("apiThrottleRateLimit", "abc"),
                Map.entry("apiMaxRequestBodyKb", "20000"),
                Map.entry("evaluatorBaseUrl", "http://plain.example.com"),
                Map.entry("emrClusterIds", "cluster-1"),
                Map.entry("stateMachineArns", "arn:aws:states:eu-west-1:123456789012:stateMachine:ok,not-an-arn"),
                Map.entry("alarmTopicArn", "alarms"))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("context 'stackName'")
                .hasMessageContaining("context 'deletionProtection' must be true or false, was 'yes'")
                .hasMessageContaining("context 'logRetentionDays' must be one of")
                .hasMessageContaining("context 'apiAuth' must be 'iam' or 'api-key', was 'cognito'")
                .hasMessageContaining("context 'apiThrottleRateLimit' must be a whole number, was 'abc'")
                .hasMessageContaining("context 'apiMaxRequestBodyKb' must be between 1 and 10240, was 20000")
                .hasMessageContaining("context 'evaluatorBaseUrl' must be an https:// URL")
                .hasMessageContaining("context 'emrClusterIds' item 'cluster-1'")
                .hasMessageContaining("context 'stateMachineArns' item 'not-an-arn'")
                .hasMessageContaining("context 'alarmTopicArn'");
    }

    @Test
    void emrServerlessApplicationsAndExecutionRolesComeTogether() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of("emrServerlessApplicationIds", "00abc")))
                .hasMessageContaining("context 'emrServerlessExecutionRoleArns' must be given together with "
                        + "emrServerlessApplicationIds");
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of(
                "emrServerlessExecutionRoleArns", "arn:aws:iam::123456789012:role/job")))
                .hasMessageContaining("must be given together with emrServerlessApplicationIds");
    }

    @Test
    void burstMayNotBeBelowRate() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of(
                "apiThrottleRateLimit", "100", "apiThrottleBurstLimit", "10")))
                .hasMessageContaining("context 'apiThrottleBurstLimit' must be at least apiThrottleRateLimit (100)");
    }

    @Test
    void qualifiedFunctionArnsAreAcceptedSoGrantsCanNameAnAlias() {
        DeploymentOptions o = DeploymentOptions.fromContext(Map.of(
                "triggerFunctionArns", "arn:aws:lambda:eu-west-1:123456789012:function:compact:prod"));
        assertThat(o.jobs().triggerFunctionArns())
                .containsExactly("arn:aws:lambda:eu-west-1:123456789012:function:compact:prod");
    }

    @Test
    void aNearMissOfAnOptionIsReportedWithTheOptionMeantWhileCdkAndForeignKeysAreLeftAlone() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of("apiauth", "iam", "glueJobName", "nightly")))
                .isInstanceOfSatisfying(DeploymentOptions.InvalidOptions.class, e -> assertThat(e.problems()).containsExactlyInAnyOrder(
                        "context 'apiauth' is not an option; did you mean 'apiAuth'?",
                        "context 'glueJobName' is not an option; did you mean 'glueJobNames'?"));
        DeploymentOptions o = DeploymentOptions.fromContext(Map.of("aws:cdk:version-reporting", true,
                "@aws-cdk/core:newStyleStackSynthesis", true, "teamName", "data-platform", "apiAuth", "api-key"));
        assertThat(o.apiAuth()).isEqualTo(ApiAuth.API_KEY);
    }
}
