package dev.interlock.model.secret;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.runtime.EnvVar;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class OutboundPolicyTest {

    private static OutboundPolicy policy(Map<EnvVar, String> env) {
        return OutboundPolicy.fromEnvironment(env::get);
    }

    private final OutboundPolicy configured = policy(Map.of(
            EnvVar.INTERLOCK_SECRETS_PREFIX, "interlock/",
            EnvVar.INTERLOCK_SSM_PARAMETER_PREFIX, "/interlock/",
            EnvVar.INTERLOCK_SECRET_HOSTS,
                    "secret:interlock/*=airflow.example.com;ssm:/interlock/*=airflow.example.com;"
                            + "INTERLOCK_TOKEN=airflow.example.com",
            EnvVar.EVALUATOR_BASE_URL, "https://evaluators.example.com/v1"));

    @Test
    void namesInsideThePrefixesMayBeReadAndOthersNot() {
        assertThat(configured.unreadable(new CredentialReference.SecretsManagerSecret("interlock/airflow", "token")))
                .isEmpty();
        assertThat(configured.unreadable(new CredentialReference.SecretsManagerSecret("prod/db", null)))
                .contains(
                        "Secrets Manager secret 'prod/db' is outside the names this deployment may read ('interlock/…', INTERLOCK_SECRETS_PREFIX)");
        assertThat(configured.unreadable(new CredentialReference.SsmParameter("/interlock/x")))
                .isEmpty();
        assertThat(configured.unreadable(new CredentialReference.SsmParameter("/other/x")))
                .isPresent();
        assertThat(configured.evaluatorBaseUrl()).map(u -> u.getHost()).contains("evaluators.example.com");
    }

    @Test
    void withoutAPrefixNoSecretOrParameterMayBeNamedAndTheMessageSaysWhatToConfigure() {
        assertThat(OutboundPolicy.NONE.unreadable(
                        new CredentialReference.SecretsManagerSecret("interlock/airflow", null)))
                .contains(
                        "Secrets Manager secret references are not enabled in this deployment (INTERLOCK_SECRETS_PREFIX is not set; "
                                + "the CDK context option secretsPrefix sets it)");
        assertThat(OutboundPolicy.NONE.unreadable(new CredentialReference.SsmParameter("/x")))
                .contains(
                        "SSM parameter references are not enabled in this deployment (INTERLOCK_SSM_PARAMETER_PREFIX is not set; "
                                + "the CDK context option ssmParameterPrefix sets it)");
    }

    @Test
    void anyNameWhenThePrefixIsAStar() {
        OutboundPolicy local = policy(Map.of(EnvVar.INTERLOCK_SECRETS_PREFIX, "*"));
        assertThat(local.unreadable(new CredentialReference.SecretsManagerSecret("whatever", null)))
                .isEmpty();
    }

    @Test
    void theFunctionsOwnSettingsAreNeverCredentials() {
        assertThat(configured.unreadable(new CredentialReference.EnvironmentVariable("INTERLOCK_SECRET_HOSTS")))
                .contains("INTERLOCK_SECRET_HOSTS is a setting of the functions, not a credential to send");
        assertThat(configured.unreadable(new CredentialReference.EnvironmentVariable("INTERLOCK_ENDPOINT_DYNAMODB")))
                .isPresent();
        assertThat(configured.unreadable(new CredentialReference.EnvironmentVariable("INTERLOCK_TOKEN")))
                .isEmpty();
    }

    @Test
    void aForbiddenHostIsExplainedWithTheAllowedOnes() {
        CredentialReference token = new CredentialReference.EnvironmentVariable("INTERLOCK_TOKEN");
        assertThat(configured.forbiddenHost(token, "airflow.example.com")).isEmpty();
        assertThat(configured.forbiddenHost(token, "evil.example.com"))
                .contains(
                        "${INTERLOCK_TOKEN} may not be sent to host 'evil.example.com': INTERLOCK_SECRET_HOSTS allows it only to airflow.example.com");
        assertThat(configured.problems(
                        new CredentialReference.SecretsManagerSecret("prod/db", null), "evil.example.com"))
                .hasSize(2);
    }

    @Test
    void malformedSettingsAreAllNamed() {
        assertThatThrownBy(() -> policy(Map.of(
                        EnvVar.INTERLOCK_SECRET_HOSTS,
                        "nonsense",
                        EnvVar.INTERLOCK_SECRETS_PREFIX,
                        "bad prefix",
                        EnvVar.EVALUATOR_BASE_URL,
                        "http://bad url")))
                .hasMessageContaining("INTERLOCK_SECRET_HOSTS: 'nonsense' has no '='")
                .hasMessageContaining("INTERLOCK_SECRETS_PREFIX: 'bad prefix' is not a name prefix")
                .hasMessageContaining("EVALUATOR_BASE_URL: 'http://bad url' is not a URL");
        assertThat(policy(Map.of()))
                .isEqualTo(new OutboundPolicy(Optional.empty(), Optional.empty(), SecretHosts.NONE, Optional.empty()));
    }
}
