package dev.interlock.infra;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.interlock.model.json.InterlockJson;
import io.github.cdklabs.cdknag.AwsSolutionsChecks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Aspects;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;

/**
 * The CDK app ({@code cdk.json} runs it): reads the deployment options from context, builds the one Interlock stack
 * from the Maven build's jars and the ASL file, and runs cdk-nag's AWS Solutions checks on it.
 */
public final class InterlockApp {

    private InterlockApp() {}

    public static void main(String[] args) {
        // The context is checked before the CDK's JavaScript runtime starts: a typo costs a second, not a synthesis.
        DeploymentOptions options = ContextCheck.options(System.getenv(), System.err);
        if (options == null) {
            System.exit(1);
            return;
        }
        App app = new App();
        BuildArtifacts artifacts = BuildArtifacts.locate(Path.of(""));
        stack(app, options, artifacts, environmentFromCli());
        app.synth();
    }

    /**
     * Adds the stack and the cdk-nag checks to {@code app}: the app and the tests build it the same way, so what the
     * tests assert is what {@code cdk deploy} ships.
     */
    public static InterlockStack stack(App app, DeploymentOptions options, BuildArtifacts artifacts, Environment env) {
        InterlockStack stack = new InterlockStack(
                app,
                options.stackName(),
                StackProps.builder()
                        .env(env)
                        .description(
                                "Interlock: readiness gate for data pipelines (table, functions, workflow, API, alarms)")
                        .build(),
                options,
                artifacts);
        Aspects.of(app).add(new AwsSolutionsChecks());
        return stack;
    }

    /**
     * The context of {@code infra-cdk/cdk.json} (feature flags, defaults), which the CLI passes to the app: code that
     * synthesizes without the CLI (tests, the IAM conformance check) starts from it so its template is the CLI's.
     */
    public static Map<String, Object> cdkJsonContext() {
        Path cdkJson = BuildArtifacts.findRepositoryRoot(Path.of(""))
                .resolve("infra-cdk")
                .resolve("cdk.json");
        try {
            Map<String, Object> json =
                    InterlockJson.json().readValue(Files.readString(cdkJson), new TypeReference<>() {});
            @SuppressWarnings("unchecked")
            Map<String, Object> context = (Map<String, Object>) json.getOrDefault("context", Map.of());
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + cdkJson, e);
        }
    }

    /** The account and region the CDK CLI resolved from the caller's credentials, if any (environment-agnostic otherwise). */
    private static Environment environmentFromCli() {
        String account = System.getenv("CDK_DEFAULT_ACCOUNT");
        String region = System.getenv("CDK_DEFAULT_REGION");
        if (account == null && region == null) {
            return null;
        }
        return Environment.builder().account(account).region(region).build();
    }
}
