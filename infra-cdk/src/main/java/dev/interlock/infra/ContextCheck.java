package dev.interlock.infra;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads and validates the deployment options from the context the CDK CLI hands the app, without starting the CDK's
 * JavaScript runtime: a bad value is reported in one line within a second, not after jsii (or the whole build, when
 * {@code cdk-app.sh} runs it first) had its turn. {@link InterlockApp} uses it before it builds anything.
 */
public final class ContextCheck {

    /** Where the CDK CLI puts the context (CDK's names): JSON in a variable, and the part that did not fit, in a file. */
    static final String CONTEXT_JSON = "CDK_CONTEXT_JSON";

    static final String CONTEXT_OVERFLOW = "CONTEXT_OVERFLOW_LOCATION_ENV";

    private ContextCheck() {}

    /** {@code java … ContextCheck}: exit 0 when the context is valid, else 1 after one line per problem. */
    public static void main(String[] args) {
        if (options(System.getenv(), System.err) == null) {
            System.exit(1);
        }
    }

    /** The options, or null after printing each problem on its own line to {@code err}. */
    static DeploymentOptions options(Map<String, String> environment, PrintStream err) {
        try {
            return DeploymentOptions.fromContext(context(environment));
        } catch (DeploymentOptions.InvalidOptions e) {
            e.problems().forEach(problem -> err.println("Interlock CDK app: " + problem));
            return null;
        } catch (IllegalArgumentException e) {
            err.println("Interlock CDK app: " + e.getMessage());
            return null;
        }
    }

    /** The merged context: the JSON of {@value #CONTEXT_JSON} plus the overflow file the CLI names, if any. */
    static Map<String, Object> context(Map<String, String> environment) {
        ObjectMapper json = InterlockJson.json();
        Map<String, Object> context = new LinkedHashMap<>();
        try {
            String inline = environment.get(CONTEXT_JSON);
            if (inline != null && !inline.isBlank()) {
                context.putAll(json.readValue(inline, new TypeReference<Map<String, Object>>() {}));
            }
            String overflow = environment.get(CONTEXT_OVERFLOW);
            if (overflow != null && !overflow.isBlank()) {
                context.putAll(json.readValue(
                        Files.readString(Path.of(overflow)), new TypeReference<Map<String, Object>>() {}));
            }
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the CDK context (" + CONTEXT_JSON + "): " + e.getMessage(), e);
        }
        return context;
    }
}
