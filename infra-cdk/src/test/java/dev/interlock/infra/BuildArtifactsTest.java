package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.runtime.InterlockFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuildArtifactsTest {

    @TempDir
    Path repo;

    @Test
    void findsTheRepositoryRootFromTheModuleDirectory() {
        BuildArtifacts artifacts = BuildArtifacts.locate(Path.of(""));
        assertThat(artifacts.repositoryRoot().resolve("infra-cdk").resolve("pom.xml"))
                .isRegularFile();
        assertThat(artifacts.stateMachineDefinition())
                .isEqualTo(artifacts.repositoryRoot().resolve(BuildArtifacts.ASL_PATH));
    }

    @Test
    void theMavenBuildHasProducedEveryDeployableJar() {
        BuildArtifacts artifacts = BuildArtifacts.locate(Path.of(""));
        for (InterlockFunction f : InterlockFunction.values()) {
            assertThat(artifacts.deployableJar(f)).isRegularFile().hasFileName(f.moduleName() + "-lambda.jar");
        }
    }

    @Test
    void theRepositoryDefinitionUsesExactlyThePlaceholdersTheStackSubstitutesAndTheContractsTimeout()
            throws IOException {
        BuildArtifacts artifacts = BuildArtifacts.locate(Path.of(""));
        String asl = artifacts.stateMachineAsl();
        java.util.Set<String> used = new java.util.TreeSet<>();
        java.util.regex.Matcher m =
                java.util.regex.Pattern.compile("\\$\\{([A-Za-z0-9]+)}").matcher(asl);
        while (m.find()) {
            used.add(m.group(1));
        }
        assertThat(used).isEqualTo(new java.util.TreeSet<>(BuildArtifacts.ASL_PLACEHOLDERS));
        com.fasterxml.jackson.databind.JsonNode contract = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(artifacts
                        .repositoryRoot()
                        .resolve("statemachine/src/main/resources/asl/contract.json")
                        .toFile());
        assertThat(artifacts.executionTimeoutSeconds())
                .isEqualTo(contract.path("timeoutSeconds").asInt());
    }

    @Test
    void missingJarsAreAllNamedWithTheCommandThatBuildsThem() throws IOException {
        Path jar = InterlockFunction.API.deployableJar(repo);
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "jar");
        BuildArtifacts artifacts = new BuildArtifacts(repo, repo.resolve(BuildArtifacts.ASL_PATH));
        assertThatThrownBy(() -> artifacts.deployableJar(InterlockFunction.API))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lambdas/stream-router/target/stream-router-lambda.jar")
                .hasMessageContaining("lambdas/run-checker/target/run-checker-lambda.jar")
                .hasMessageNotContaining("api-lambda.jar")
                .hasMessageContaining("./mvnw -pl infra-cdk -am package -DskipTests");
    }

    @Test
    void timeoutSecondsIsReadFromTheDefinition() throws IOException {
        assertThat(withAsl("{\"StartAt\":\"A\",\"TimeoutSeconds\":7200,\"States\":{}}")
                        .executionTimeoutSeconds())
                .isEqualTo(7200);
    }

    @Test
    void aDefinitionWithoutTimeoutSecondsIsRefused() throws IOException {
        assertThatThrownBy(() -> withAsl("{\"StartAt\":\"A\",\"States\":{}}").executionTimeoutSeconds())
                .hasMessageContaining("must set a positive integer TimeoutSeconds");
    }

    @Test
    void placeholdersTheStackDoesNotSubstituteAreRefused() throws IOException {
        BuildArtifacts artifacts =
                withAsl("{\"Resource\":\"${OrchestratorFunctionArn}\",\"X\":\"${ReplayFunctionArn}\"}");
        assertThatThrownBy(artifacts::stateMachineAsl)
                .hasMessageContaining("uses placeholders the stack does not substitute: [ReplayFunctionArn]");
    }

    @Test
    void aMissingDefinitionIsNamed() {
        BuildArtifacts artifacts = new BuildArtifacts(repo, repo.resolve("nope.asl.json"));
        assertThatThrownBy(artifacts::stateMachineAsl)
                .hasMessageContaining("Missing state-machine definition")
                .hasMessageContaining("nope.asl.json");
    }

    private BuildArtifacts withAsl(String json) throws IOException {
        Path asl = repo.resolve("machine.asl.json");
        Files.writeString(asl, json);
        return new BuildArtifacts(repo, asl);
    }
}
