package dev.interlock.local.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * The local runtime's stand-in for Secrets Manager and SSM Parameter Store: what {@code ${secret:…}} and
 * {@code ${ssm:…}} references resolve to on this machine. The functions read it through their real SDK clients, from
 * the local AWS endpoint ({@link LocalAwsServer}), exactly as they read AWS.
 *
 * <p>Values come from a secrets file (YAML or JSON, {@code interlock up --secrets-file}):
 * <pre>
 * secrets:                          # Secrets Manager: name → secret string (an object is stored as its JSON)
 *   airflow/prod: {token: "…"}
 *   tokens/plain: "…"
 * parameters:                       # SSM Parameter Store: name → value
 *   /interlock/airflow/token: "…"
 * </pre>
 * and, for names the file does not hold, from the environment: {@code INTERLOCK_LOCAL_SECRET_<NAME>} and
 * {@code INTERLOCK_LOCAL_PARAMETER_<NAME>}, where NAME is the name upper-cased with every character other than A-Z and
 * 0-9 turned into {@code _} and leading {@code _} dropped ({@code airflow/prod} → {@code INTERLOCK_LOCAL_SECRET_AIRFLOW_PROD},
 * {@code /interlock/airflow/token} → {@code INTERLOCK_LOCAL_PARAMETER_INTERLOCK_AIRFLOW_TOKEN}).
 */
public final class LocalSecrets {

    /** The environment variables this class reads start with this; the functions never see them. */
    public static final String ENVIRONMENT_PREFIX = "INTERLOCK_LOCAL_";

    private static final String SECRET_VARIABLE = ENVIRONMENT_PREFIX + "SECRET_";
    private static final String PARAMETER_VARIABLE = ENVIRONMENT_PREFIX + "PARAMETER_";

    private final Map<String, String> secrets;
    private final Map<String, String> parameters;
    private final Map<String, String> environment;

    private LocalSecrets(Map<String, String> secrets, Map<String, String> parameters, Map<String, String> environment) {
        this.secrets = Map.copyOf(secrets);
        this.parameters = Map.copyOf(parameters);
        this.environment = Map.copyOf(environment);
    }

    /**
     * Reads the secrets file (if any) and keeps the environment for the names it does not hold.
     *
     * @throws IllegalArgumentException naming the file and what is wrong with it (never a value)
     */
    public static LocalSecrets load(Path file, Map<String, String> environment) {
        Map<String, String> secrets = new HashMap<>();
        Map<String, String> parameters = new HashMap<>();
        if (file != null) {
            JsonNode root;
            try {
                root = InterlockJson.yaml().readTree(Files.readString(file));
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException("secrets file " + file + " does not exist");
            } catch (IOException e) {
                // The parser's message may quote a line of the file, which holds secrets: only the position is kept.
                String where =
                        e instanceof com.fasterxml.jackson.core.JsonProcessingException p && p.getLocation() != null
                                ? " (line " + p.getLocation().getLineNr() + ", column "
                                        + p.getLocation().getColumnNr() + ")"
                                : "";
                throw new IllegalArgumentException("secrets file " + file + " is not valid YAML or JSON" + where);
            }
            if (root != null && !root.isNull() && !root.isMissingNode()) {
                if (!root.isObject()) {
                    throw new IllegalArgumentException(
                            "secrets file " + file + " must be an object with 'secrets' and/or 'parameters'");
                }
                for (Iterator<String> names = root.fieldNames(); names.hasNext(); ) {
                    String name = names.next();
                    if (!name.equals("secrets") && !name.equals("parameters")) {
                        throw new IllegalArgumentException("secrets file " + file + ": unknown key '" + name
                                + "' (expected 'secrets' and/or 'parameters')");
                    }
                }
                read(root.path("secrets"), file, "secrets", true, secrets);
                read(root.path("parameters"), file, "parameters", false, parameters);
            }
        }
        Map<String, String> local = new HashMap<>();
        environment.forEach((k, v) -> {
            if (k.startsWith(ENVIRONMENT_PREFIX) && v != null) {
                local.put(k, v);
            }
        });
        return new LocalSecrets(secrets, parameters, local);
    }

    private static void read(
            JsonNode section, Path file, String key, boolean objectsAllowed, Map<String, String> into) {
        if (section.isMissingNode() || section.isNull()) {
            return;
        }
        if (!section.isObject()) {
            throw new IllegalArgumentException("secrets file " + file + ": '" + key + "' must map names to values");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = section.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            JsonNode value = entry.getValue();
            if (value.isValueNode() && !value.isNull()) {
                into.put(entry.getKey(), value.asText());
            } else if (objectsAllowed && value.isObject()) {
                into.put(entry.getKey(), value.toString());
            } else {
                throw new IllegalArgumentException("secrets file " + file + ": " + key + "." + entry.getKey()
                        + " must be " + (objectsAllowed ? "a string or an object" : "a string"));
            }
        }
    }

    /** A secret's string. */
    public Optional<String> secretString(String name) {
        return Optional.ofNullable(secrets.get(name))
                .or(() -> Optional.ofNullable(environment.get(SECRET_VARIABLE + variableName(name))));
    }

    /** A parameter's value. */
    public Optional<String> parameter(String name) {
        return Optional.ofNullable(parameters.get(name))
                .or(() -> Optional.ofNullable(environment.get(PARAMETER_VARIABLE + variableName(name))));
    }

    /** How many secrets and parameters the file holds (for the start-up line; never their names' values). */
    public int size() {
        return secrets.size() + parameters.size();
    }

    /** {@code airflow/prod} → {@code AIRFLOW_PROD}. */
    static String variableName(String name) {
        return name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_").replaceAll("^_+", "");
    }

    /**
     * Secrets Manager's {@code GetSecretValue} and SSM's {@code GetParameter} over AWS's JSON 1.1 protocol, answered
     * from these values: the two read operations credential references use, and nothing else.
     */
    public List<AwsJson.Service> services() {
        return List.of(new Api("secretsmanager.", this::secretsManager), new Api("AmazonSSM.", this::ssm));
    }

    private record Api(String targetPrefix, BiFunction<String, JsonNode, Object> calls) implements AwsJson.Service {
        @Override
        public String contentType() {
            return AwsJson.JSON_1_1;
        }

        @Override
        public Object call(String operation, JsonNode request) {
            return calls.apply(operation, request);
        }
    }

    private Object secretsManager(String operation, JsonNode request) {
        if (!"GetSecretValue".equals(operation)) {
            throw AwsJson.Failure.of(
                    "UnknownOperationException", "the local endpoint does not serve secretsmanager." + operation);
        }
        String id = request.path("SecretId").asText("");
        String value = secretString(id)
                .orElseThrow(() -> AwsJson.Failure.of(
                        "ResourceNotFoundException", "Secrets Manager can't find the specified secret."));
        ObjectNode out = AwsJson.JSON
                .createObjectNode()
                .put(
                        "ARN",
                        "arn:aws:secretsmanager:" + LocalArns.REGION + ":" + LocalArns.ACCOUNT + ":secret:" + id
                                + "-local")
                .put("Name", id)
                .put("SecretString", value)
                .put("VersionId", "local")
                .put("CreatedDate", 0);
        out.putArray("VersionStages").add("AWSCURRENT");
        return out;
    }

    private Object ssm(String operation, JsonNode request) {
        if (!"GetParameter".equals(operation)) {
            throw AwsJson.Failure.of(
                    "UnknownOperationException", "the local endpoint does not serve AmazonSSM." + operation);
        }
        String name = request.path("Name").asText("");
        String value = parameter(name).orElseThrow(() -> AwsJson.Failure.of("ParameterNotFound", ""));
        ObjectNode out = AwsJson.JSON.createObjectNode();
        out.putObject("Parameter")
                .put("Name", name)
                .put("Type", "SecureString")
                .put("Value", value)
                .put("Version", 1)
                .put("DataType", "text")
                .put(
                        "ARN",
                        "arn:aws:ssm:" + LocalArns.REGION + ":" + LocalArns.ACCOUNT + ":parameter"
                                + (name.startsWith("/") ? "" : "/") + name);
        return out;
    }
}
