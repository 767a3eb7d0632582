package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.infra.DeploymentOptions.ApiAuth;
import dev.interlock.model.runtime.EnvVar;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

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
        assertThat(o.jobStateRules())
                .as("on by default; -c jobStateRules=false opts out")
                .isTrue();
        assertThat(o.alarmTopicArn()).isEmpty();
        assertThat(o.evaluatorBaseUrl()).isEmpty();
        // The functions' own defaults, named once in EnvVar.
        assertThat(o.staleMarkerDays()).isEqualTo(Integer.parseInt(EnvVar.STALE_MARKER_DAYS.defaultValue()));
        assertThat(o.runLogTtlDays()).isEqualTo(Integer.parseInt(EnvVar.RUN_LOG_TTL_DAYS.defaultValue()));
        assertThat(o.retentionDays()).isEqualTo(Integer.parseInt(EnvVar.RETENTION_DAYS.defaultValue()));
        assertThat(o.maxRerunsPerDay()).isEqualTo(Integer.parseInt(EnvVar.MAX_RERUNS_PER_DAY.defaultValue()));
        assertThat(o.jobs()).isEqualTo(DeploymentOptions.JobTargets.none());
        // No secret or parameter may be read and no credential sent anywhere until the deployment says so.
        assertThat(o.secrets())
                .isEqualTo(new DeploymentOptions.SecretAccess(
                        Optional.empty(),
                        Optional.empty(),
                        "",
                        List.of(),
                        Integer.parseInt(EnvVar.INTERLOCK_SECRET_CACHE_SECONDS.defaultValue())));
        assertThat(o.secrets().readsAny()).isFalse();
    }

    @Test
    void secretOptionsAreReadFromTheCommandLineAndFromCdkJsonAlike() {
        DeploymentOptions fromCli = DeploymentOptions.fromContext(Map.of(
                "secretsPrefix",
                "interlock/",
                "ssmParameterPrefix",
                "/interlock/",
                "secretHosts",
                "INTERLOCK_AIRFLOW_*=airflow.example.com;secret:interlock/airflow*=airflow.example.com,"
                        + "*.airflow.example.com",
                "secretsKmsKeyArns",
                "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab",
                "secretCacheSeconds",
                "0"));
        Map<String, Object> hosts = new java.util.LinkedHashMap<>();
        hosts.put("INTERLOCK_AIRFLOW_*", "airflow.example.com");
        hosts.put("secret:interlock/airflow*", List.of("airflow.example.com", "*.airflow.example.com"));
        DeploymentOptions fromJson = DeploymentOptions.fromContext(Map.of(
                "secretsPrefix",
                "interlock/",
                "ssmParameterPrefix",
                "/interlock/",
                "secretHosts",
                hosts,
                "secretsKmsKeyArns",
                List.of("arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab"),
                "secretCacheSeconds",
                0));
        assertThat(fromCli).isEqualTo(fromJson);
        assertThat(fromJson.secrets().secretHosts())
                .isEqualTo("INTERLOCK_AIRFLOW_*=airflow.example.com;"
                        + "secret:interlock/airflow*=airflow.example.com,*.airflow.example.com");
        assertThat(fromJson.secrets().cacheSeconds()).isZero();
    }

    @Test
    void badSecretOptionsAreAllReported() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of(
                        "secretsPrefix", "*",
                        "ssmParameterPrefix", "interlock/",
                        "secretHosts", "INTERLOCK_A=*;nonsense",
                        "secretsKmsKeyArns", "alias/aws/secretsmanager",
                        "secretCacheSeconds", "7200")))
                .hasMessageContaining("context 'secretsPrefix' must match")
                .hasMessageContaining(
                        "context 'ssmParameterPrefix' must start with '/' (a parameter path such as /interlock/), "
                                + "was 'interlock/'")
                .hasMessageContaining("context 'secretHosts' 'nonsense' has no '='")
                .hasMessageContaining("context 'secretsKmsKeyArns' item 'alias/aws/secretsmanager'")
                .hasMessageContaining("context 'secretCacheSeconds' must be between 0 and 3600, was 7200");
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of("secretHosts", "INTERLOCK_A=*")))
                .hasMessageContaining("context 'secretHosts' lets a credential go to any host ('*'); name the hosts "
                        + "each credential is for");
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of(
                        "secretsKmsKeyArns",
                        "arn:aws:kms:eu-west-1:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab")))
                .hasMessageContaining("context 'secretsKmsKeyArns' grants kms:Decrypt only for reading secrets or "
                        + "parameters: set secretsPrefix or ssmParameterPrefix too");
    }

    @Test
    void commandLineStringsAndCdkJsonValuesReadAlike() {
        DeploymentOptions fromCli = DeploymentOptions.fromContext(
                Map.of("deletionProtection", "false", "logRetentionDays", "14", "glueJobNames", "a-job, b.job,,a-job"));
        DeploymentOptions fromJson = DeploymentOptions.fromContext(
                Map.of("deletionProtection", false, "logRetentionDays", 14, "glueJobNames", List.of("a-job", "b.job")));
        assertThat(fromCli).isEqualTo(fromJson);
        assertThat(fromCli.jobs().glueJobNames()).containsExactly("a-job", "b.job");
    }

    @Test
    void apiKeyModeAndAlarmTopicAreRead() {
        DeploymentOptions o = DeploymentOptions.fromContext(
                Map.of("apiAuth", "api-key", "alarmTopicArn", "arn:aws:sns:us-east-1:123456789012:alarms"));
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
                        Map.entry(
                                "stateMachineArns", "arn:aws:states:eu-west-1:123456789012:stateMachine:ok,not-an-arn"),
                        Map.entry("alarmTopicArn", "alarms"),
                        Map.entry("openLineageEventBus", "my bus"))))
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
                .hasMessageContaining("context 'alarmTopicArn'")
                .hasMessageContaining("context 'openLineageEventBus' must match");
    }

    @Test
    void anOpenLineageBusIsNamedOrGivenByArnAndAloneMakesTheStackEmit() {
        assertThat(DeploymentOptions.defaults().emitsLineage()).isFalse();
        DeploymentOptions named = DeploymentOptions.fromContext(Map.of("openLineageEventBus", "lineage"));
        assertThat(named.openLineageEventBus()).contains("lineage");
        assertThat(named.emitsLineage()).isTrue();
        assertThat(DeploymentOptions.fromContext(Map.of(
                                "openLineageEventBus", "arn:aws:events:eu-west-1:123456789012:event-bus/lineage"))
                        .openLineageEventBus())
                .contains("arn:aws:events:eu-west-1:123456789012:event-bus/lineage");
    }

    @Test
    void aRestoredTableIsNamedByItsStreamArnAndAnythingElseIsRefused() {
        assertThat(DeploymentOptions.defaults().restoredTableName()).isEmpty();
        DeploymentOptions restored = DeploymentOptions.fromContext(Map.of(
                "restoredTableStreamArn",
                "arn:aws:dynamodb:eu-west-1:123456789012:table/Interlock-restored/stream/2026-03-02T09:15:00.123"));
        assertThat(restored.restoredTableName()).contains("Interlock-restored");
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of(
                        "restoredTableStreamArn", "arn:aws:dynamodb:eu-west-1:123456789012:table/Interlock-restored")))
                .hasMessageContaining("context 'restoredTableStreamArn' must match");
    }

    @Test
    void emrServerlessApplicationsAndExecutionRolesComeTogether() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of("emrServerlessApplicationIds", "00abc")))
                .hasMessageContaining("context 'emrServerlessExecutionRoleArns' must be given together with "
                        + "emrServerlessApplicationIds");
        assertThatThrownBy(() -> DeploymentOptions.fromContext(
                        Map.of("emrServerlessExecutionRoleArns", "arn:aws:iam::123456789012:role/job")))
                .hasMessageContaining("must be given together with emrServerlessApplicationIds");
    }

    @Test
    void burstMayNotBeBelowRate() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(
                        Map.of("apiThrottleRateLimit", "100", "apiThrottleBurstLimit", "10")))
                .hasMessageContaining("context 'apiThrottleBurstLimit' must be at least apiThrottleRateLimit (100)");
    }

    @Test
    void qualifiedFunctionArnsAreAcceptedSoGrantsCanNameAnAlias() {
        DeploymentOptions o = DeploymentOptions.fromContext(
                Map.of("triggerFunctionArns", "arn:aws:lambda:eu-west-1:123456789012:function:compact:prod"));
        assertThat(o.jobs().triggerFunctionArns())
                .containsExactly("arn:aws:lambda:eu-west-1:123456789012:function:compact:prod");
    }

    @Test
    void aNearMissOfAnOptionIsReportedWithTheOptionMeantWhileCdkAndForeignKeysAreLeftAlone() {
        assertThatThrownBy(() -> DeploymentOptions.fromContext(Map.of("apiauth", "iam", "glueJobName", "nightly")))
                .isInstanceOfSatisfying(
                        DeploymentOptions.InvalidOptions.class,
                        e -> assertThat(e.problems())
                                .containsExactlyInAnyOrder(
                                        "context 'apiauth' is not an option; did you mean 'apiAuth'?",
                                        "context 'glueJobName' is not an option; did you mean 'glueJobNames'?"));
        DeploymentOptions o = DeploymentOptions.fromContext(Map.of(
                "aws:cdk:version-reporting",
                true,
                "@aws-cdk/core:newStyleStackSynthesis",
                true,
                "teamName",
                "data-platform",
                "apiAuth",
                "api-key"));
        assertThat(o.apiAuth()).isEqualTo(ApiAuth.API_KEY);
    }
}
