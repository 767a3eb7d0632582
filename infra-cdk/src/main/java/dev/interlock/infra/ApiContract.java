package dev.interlock.infra;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The registration API's operations as its OpenAPI document ({@code lambdas/api/src/main/resources/openapi.yaml})
 * declares them. The API function's route table is tested against the same document, so the gateway's resources,
 * methods and validated parameters follow the one contract instead of a copy of it.
 *
 * @param operations every operation, in document order
 */
public record ApiContract(List<Operation> operations) {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    public ApiContract {
        operations = List.copyOf(operations);
    }

    /**
     * One operation.
     *
     * @param method HTTP method in upper case
     * @param path path template, e.g. {@code /pipelines/{id}/runs}
     * @param operationId the document's operationId
     * @param requestParameters API Gateway request parameters ({@code method.request.path.id} …) → required
     */
    public record Operation(String method, String path, String operationId, Map<String, Boolean> requestParameters) {
        public Operation {
            // In the document's order, not Map.copyOf's per-JVM order: the parameters are part of the hash that names
            // the API's CloudFormation Deployment, which must not change between two synths of the same contract.
            requestParameters = Collections.unmodifiableMap(new LinkedHashMap<>(requestParameters));
        }
    }

    /**
     * Reads the document.
     *
     * @throws IllegalStateException when the file is missing, unreadable, or declares no operation
     */
    public static ApiContract read(Path openApiDocument) {
        if (!Files.isRegularFile(openApiDocument)) {
            throw new IllegalStateException("Missing OpenAPI document " + openApiDocument
                    + " (the registration API's contract, in the api module)");
        }
        JsonNode root;
        try {
            root = InterlockJson.yaml().readTree(openApiDocument.toFile());
        } catch (IOException e) {
            throw new IllegalStateException(
                    "Cannot read OpenAPI document " + openApiDocument + ": " + e.getMessage(), e);
        }
        List<Operation> operations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = root.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            JsonNode shared = path.getValue().path("parameters");
            for (Iterator<Map.Entry<String, JsonNode>> ops = path.getValue().fields(); ops.hasNext(); ) {
                Map.Entry<String, JsonNode> op = ops.next();
                if (!METHODS.contains(op.getKey())) {
                    continue;
                }
                Map<String, Boolean> parameters = new LinkedHashMap<>();
                addParameters(root, shared, parameters);
                addParameters(root, op.getValue().path("parameters"), parameters);
                String operationId = op.getValue().path("operationId").asText("");
                if (operationId.isEmpty()) {
                    throw new IllegalStateException(openApiDocument + ": "
                            + op.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey() + " has no operationId");
                }
                operations.add(
                        new Operation(op.getKey().toUpperCase(Locale.ROOT), path.getKey(), operationId, parameters));
            }
        }
        if (operations.isEmpty()) {
            throw new IllegalStateException(openApiDocument + " declares no operation under 'paths'");
        }
        return new ApiContract(operations);
    }

    /** Path, query and header parameters in API Gateway's notation; a {@code $ref} is resolved in the document. */
    private static void addParameters(JsonNode root, JsonNode parameters, Map<String, Boolean> into) {
        for (JsonNode parameter : parameters) {
            JsonNode p =
                    parameter.has("$ref") ? resolve(root, parameter.get("$ref").asText()) : parameter;
            String location = switch (p.path("in").asText()) {
                case "path" -> "path";
                case "query" -> "querystring";
                case "header" -> "header";
                default -> null;
            };
            if (location != null) {
                // OpenAPI requires path parameters; others are optional unless marked required.
                boolean required = location.equals("path") || p.path("required").asBoolean(false);
                into.put("method.request." + location + "." + p.path("name").asText(), required);
            }
        }
    }

    private static JsonNode resolve(JsonNode root, String ref) {
        if (!ref.startsWith("#/")) {
            throw new IllegalStateException("Only local $ref are supported in the API contract, got " + ref);
        }
        JsonNode node = root.at(ref.substring(1));
        if (node.isMissingNode()) {
            throw new IllegalStateException("Unresolved $ref " + ref + " in the API contract");
        }
        return node;
    }
}
