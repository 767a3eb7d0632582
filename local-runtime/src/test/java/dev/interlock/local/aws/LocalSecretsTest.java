package dev.interlock.local.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.local.alerts.AlertSink;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.secretsmanager.model.ResourceNotFoundException;
import software.amazon.awssdk.services.ssm.model.ParameterNotFoundException;

/** The local stand-in for Secrets Manager and SSM, read through the real SDK clients as the functions read it. */
class LocalSecretsTest {

    @Test
    void secretsAndParametersComeFromTheFileThenFromTheEnvironmentThroughTheRealClients(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("secrets.yaml");
        Files.writeString(file, """
                secrets:
                  airflow/prod: {token: "file-token", port: 8080}
                  tokens/plain: "plain-value"
                parameters:
                  /interlock/airflow/key: "file-key"
                """);
        LocalSecrets secrets = LocalSecrets.load(
                file,
                Map.of(
                        "INTERLOCK_LOCAL_SECRET_DBX_PROD", "{\"token\":\"env-token\"}",
                        "INTERLOCK_LOCAL_PARAMETER_INTERLOCK_DBX_KEY", "env-key",
                        "INTERLOCK_LOCAL_SECRET_AIRFLOW_PROD", "not used: the file wins"));
        assertThat(secrets.size()).isEqualTo(3);

        try (LocalAwsServer server = LocalAwsServer.start(
                        0, new FunctionRegistry(), new AlertSink(Clock.systemUTC(), a -> {}), secrets);
                AwsClients clients = new AwsClients(Environment.of(Map.of(
                        "INTERLOCK_ENDPOINT_SECRETSMANAGER", server.endpoint().toString(),
                        "INTERLOCK_ENDPOINT_SSM", server.endpoint().toString())))) {
            assertThat(clients.secretsManager()
                            .getSecretValue(b -> b.secretId("airflow/prod"))
                            .secretString())
                    .isEqualTo("{\"token\":\"file-token\",\"port\":8080}");
            assertThat(clients.secretsManager()
                            .getSecretValue(b -> b.secretId("tokens/plain"))
                            .secretString())
                    .isEqualTo("plain-value");
            assertThat(clients.secretsManager()
                            .getSecretValue(b -> b.secretId("dbx/prod"))
                            .secretString())
                    .isEqualTo("{\"token\":\"env-token\"}");
            assertThat(clients.ssm()
                            .getParameter(b -> b.name("/interlock/airflow/key").withDecryption(true))
                            .parameter()
                            .value())
                    .isEqualTo("file-key");
            assertThat(clients.ssm()
                            .getParameter(b -> b.name("/interlock/dbx/key").withDecryption(true))
                            .parameter()
                            .value())
                    .isEqualTo("env-key");
            assertThatThrownBy(() -> clients.secretsManager().getSecretValue(b -> b.secretId("nope")))
                    .isInstanceOf(ResourceNotFoundException.class);
            assertThatThrownBy(() -> clients.ssm().getParameter(b -> b.name("/nope")))
                    .isInstanceOf(ParameterNotFoundException.class);
        }
    }

    @Test
    void aBadSecretsFileIsNamedWithoutQuotingItsContent(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("secrets.yaml");
        Files.writeString(file, "secrets:\n  a: {token: \"s3cr3t\"\n");
        assertThatThrownBy(() -> LocalSecrets.load(file, Map.of()))
                .hasMessageStartingWith("secrets file " + file + " is not valid YAML or JSON (line ")
                .hasMessageNotContaining("s3cr3t");
        Files.writeString(file, "secret:\n  a: b\n");
        assertThatThrownBy(() -> LocalSecrets.load(file, Map.of()))
                .hasMessage("secrets file " + file + ": unknown key 'secret' (expected 'secrets' and/or 'parameters')");
        Files.writeString(file, "parameters:\n  /a: {b: c}\n");
        assertThatThrownBy(() -> LocalSecrets.load(file, Map.of()))
                .hasMessage("secrets file " + file + ": parameters./a must be a string");
        assertThatThrownBy(() -> LocalSecrets.load(dir.resolve("missing.yaml"), Map.of()))
                .hasMessage("secrets file " + dir.resolve("missing.yaml") + " does not exist");
    }

    @Test
    void environmentNamesFollowTheDocumentedRule() {
        assertThat(LocalSecrets.variableName("airflow/prod")).isEqualTo("AIRFLOW_PROD");
        assertThat(LocalSecrets.variableName("/interlock/airflow/token")).isEqualTo("INTERLOCK_AIRFLOW_TOKEN");
        assertThat(LocalSecrets.variableName("team.a+b@x")).isEqualTo("TEAM_A_B_X");
    }
}
