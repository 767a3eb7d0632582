package dev.interlock.infra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.statemachine.AslDefinition;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the stack deploys from the Maven build: the six shaded function jars, the state-machine definition and the
 * registration API's OpenAPI document. The stack reads them by path, never by class, and refuses to synthesize when
 * one is missing.
 *
 * @param repositoryRoot the directory holding the parent {@code pom.xml}, {@code lambdas/} and {@code statemachine/}
 * @param stateMachineDefinition the ASL file with {@code ${...}} placeholders for the task resources
 */
public record BuildArtifacts(Path repositoryRoot, Path stateMachineDefinition) {

    /** Where the ASL file lives in the repository. */
    public static final Path ASL_PATH =
            Path.of("statemachine", "src", "main", "resources", "asl", "interlock.asl.json");

    /** Where the registration API's OpenAPI document lives in the repository. */
    public static final Path OPENAPI_PATH = Path.of("lambdas", "api", "src", "main", "resources", "openapi.yaml");

    /** The placeholders the definition may use, each substituted by the stack (named by the statemachine module). */
    public static final Set<String> ASL_PLACEHOLDERS = AslDefinition.PLACEHOLDERS;

    public BuildArtifacts {
        repositoryRoot = repositoryRoot.toAbsolutePath().normalize();
        stateMachineDefinition = stateMachineDefinition.toAbsolutePath().normalize();
    }

    /** The artifacts of the repository that contains {@code start} (the CDK app runs in {@code infra-cdk/}). */
    public static BuildArtifacts locate(Path start) {
        Path root = findRepositoryRoot(start);
        return new BuildArtifacts(root, root.resolve(ASL_PATH));
    }

    static Path findRepositoryRoot(Path start) {
        for (Path dir = start.toAbsolutePath().normalize(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("pom.xml"))
                    && Files.isDirectory(dir.resolve("lambdas"))
                    && Files.isDirectory(dir.resolve("infra-cdk"))) {
                return dir;
            }
        }
        throw new IllegalStateException("Cannot find the Interlock repository root (a directory with pom.xml, lambdas/ "
                + "and infra-cdk/) at or above " + start.toAbsolutePath());
    }

    /**
     * The deployable jar of one function.
     *
     * @throws IllegalStateException naming every missing jar, so one build fixes them all
     */
    public Path deployableJar(InterlockFunction function) {
        requireDeployableJars();
        return function.deployableJar(repositoryRoot);
    }

    /** Fails, naming each missing jar and the command that builds it, unless all six exist. */
    public void requireDeployableJars() {
        List<String> missing = new ArrayList<>();
        for (InterlockFunction f : InterlockFunction.values()) {
            Path jar = f.deployableJar(repositoryRoot);
            if (!Files.isRegularFile(jar)) {
                missing.add(repositoryRoot.relativize(jar).toString());
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("Missing function jar(s): " + String.join(", ", missing)
                    + ". Build them first: ./mvnw -pl infra-cdk -am package -DskipTests (from " + repositoryRoot + ")");
        }
    }

    /**
     * The ASL text, checked to use only the placeholders the stack substitutes (an unknown one would reach Step
     * Functions as a literal and fail at run time instead of at synth).
     */
    public String stateMachineAsl() {
        String asl = readDefinition();
        Set<String> unknown = AslDefinition.unknownPlaceholders(asl);
        if (!unknown.isEmpty()) {
            throw new IllegalStateException(
                    stateMachineDefinition + " uses placeholders the stack does not substitute: " + unknown
                            + "; known: " + new TreeSet<>(ASL_PLACEHOLDERS));
        }
        return asl;
    }

    /**
     * The machine's {@code TimeoutSeconds}: it lives in the ASL file, and the orchestrator (whose evaluation lock must
     * outlive an execution) gets the same number from here, so the two cannot drift apart.
     */
    public int executionTimeoutSeconds() {
        JsonNode timeout;
        try {
            timeout = InterlockJson.json().readTree(readDefinition()).path("TimeoutSeconds");
        } catch (IOException e) {
            throw new IllegalStateException(stateMachineDefinition + " is not valid JSON: " + e.getMessage(), e);
        }
        if (!timeout.canConvertToInt() || !timeout.isIntegralNumber() || timeout.asInt() < 1) {
            throw new IllegalStateException(stateMachineDefinition
                    + " must set a positive integer TimeoutSeconds at the top level (docs/state-machine.md)");
        }
        return timeout.asInt();
    }

    /** The registration API's operations, from its OpenAPI document. */
    public ApiContract apiContract() {
        return ApiContract.read(repositoryRoot.resolve(OPENAPI_PATH));
    }

    private String readDefinition() {
        if (!Files.isRegularFile(stateMachineDefinition)) {
            throw new IllegalStateException("Missing state-machine definition " + stateMachineDefinition);
        }
        try {
            return Files.readString(stateMachineDefinition);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read " + stateMachineDefinition, e);
        }
    }
}
