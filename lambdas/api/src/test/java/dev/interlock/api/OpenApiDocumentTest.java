package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The OpenAPI document in the repository and the handler's route table describe the same API, both ways. */
class OpenApiDocumentTest {

    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");
    private static final Pattern PARAMETER = Pattern.compile("\\{([^}]+)}");

    private final JsonNode document = load();
    private final ApiFixture api = new ApiFixture();

    private static JsonNode load() {
        try (InputStream in = OpenApiDocumentTest.class.getClassLoader().getResourceAsStream("openapi.yaml")) {
            assertThat(in).as("openapi.yaml on the classpath").isNotNull();
            return InterlockJson.yaml().readTree(in);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private Set<String> documentedOperations() {
        Set<String> operations = new TreeSet<>();
        document.get("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
                    if (METHODS.contains(method)) {
                        operations.add(method.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey());
                    }
                }));
        return operations;
    }

    private JsonNode resolve(JsonNode node) {
        JsonNode current = node;
        while (current.has("$ref")) {
            String ref = current.get("$ref").asText();
            assertThat(ref).startsWith("#/");
            JsonNode target = document.at(ref.substring(1));
            assertThat(target.isMissingNode())
                    .as("reference " + ref + " resolves")
                    .isFalse();
            current = target;
        }
        return current;
    }

    @Test
    void theDocumentIsOpenApi3() {
        assertThat(document.get("openapi").asText()).startsWith("3.");
        assertThat(document.at("/info/title").asText()).isNotBlank();
    }

    @Test
    void anIndependentValidatorAcceptsTheDocument() throws Exception {
        java.nio.file.Path document = java.nio.file.Path.of("src", "main", "resources", "openapi.yaml");
        dev.interlock.testing.ExternalTools.require(
                dev.interlock.testing.ExternalTools.output(List.of("openapi-spec-validator", "--version"))
                        .isPresent(),
                "openapi-spec-validator (lambdas/api/src/test/python/requirements.txt)");
        Process process = new ProcessBuilder("openapi-spec-validator", document.toString())
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(out).isZero();
        assertThat(out).contains("OK");
    }

    @Test
    void everyRouteIsDocumentedAndEveryDocumentedOperationIsARoute() {
        Set<String> routes = new TreeSet<>();
        api.api.routes().routes().forEach(r -> routes.add(r.method() + " " + r.template()));

        assertThat(documentedOperations()).isEqualTo(routes);
        assertThat(routes).hasSize(45);
    }

    @Test
    void everyPathParameterIsDeclaredAndEveryDeclaredOneIsInThePath() {
        List<String> problems = new ArrayList<>();
        document.get("paths").fields().forEachRemaining(path -> {
            Set<String> inTemplate = new HashSet<>();
            Matcher m = PARAMETER.matcher(path.getKey());
            while (m.find()) {
                inTemplate.add(m.group(1));
            }
            path.getValue().fields().forEachRemaining(operation -> {
                if (!METHODS.contains(operation.getKey())) {
                    return;
                }
                Set<String> declared = new HashSet<>();
                List<JsonNode> parameters = new ArrayList<>();
                path.getValue().path("parameters").forEach(parameters::add);
                operation.getValue().path("parameters").forEach(parameters::add);
                for (JsonNode parameter : parameters) {
                    JsonNode p = resolve(parameter);
                    if ("path".equals(p.path("in").asText())) {
                        declared.add(p.get("name").asText());
                        if (!p.path("required").asBoolean()) {
                            problems.add(operation.getKey() + " " + path.getKey() + ": path parameter " + p.get("name")
                                    + " not required");
                        }
                    }
                }
                if (!declared.equals(inTemplate)) {
                    problems.add(operation.getKey() + " " + path.getKey() + ": declares " + declared + ", template has "
                            + inTemplate);
                }
            });
        });
        assertThat(problems).isEmpty();
    }

    @Test
    void everyOperationDocumentsSuccessAndItsProblemAnswers() {
        List<String> problems = new ArrayList<>();
        Set<String> operationIds = new HashSet<>();
        document.get("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fields().forEachRemaining(operation -> {
                    if (!METHODS.contains(operation.getKey())) {
                        return;
                    }
                    String name = operation.getKey() + " " + path.getKey();
                    JsonNode op = operation.getValue();
                    if (!operationIds.add(op.path("operationId").asText())) {
                        problems.add(name + ": operationId missing or repeated");
                    }
                    JsonNode responses = op.get("responses");
                    List<String> codes = new ArrayList<>();
                    responses.fieldNames().forEachRemaining(codes::add);
                    if (codes.stream().noneMatch(c -> c.startsWith("2"))) {
                        problems.add(name + ": no success response");
                    }
                    if (!codes.contains("503")) {
                        problems.add(name + ": no 503 for a store outage");
                    }
                    boolean hasBody = op.has("requestBody");
                    boolean hasInput = hasBody || path.getKey().contains("{") || op.has("parameters");
                    if (hasInput && !codes.contains("400")) {
                        problems.add(name + ": takes input but documents no 400");
                    }
                    if (hasBody && !(codes.contains("413") && codes.contains("415"))) {
                        problems.add(name + ": takes a body but documents no 413/415");
                    }
                    for (Iterator<Map.Entry<String, JsonNode>> it = responses.fields(); it.hasNext(); ) {
                        Map.Entry<String, JsonNode> response = it.next();
                        JsonNode resolved = resolve(response.getValue());
                        if (response.getKey().startsWith("4")
                                || response.getKey().startsWith("5")) {
                            JsonNode schema = resolved.at("/content/application~1problem+json/schema");
                            if (schema.isMissingNode()
                                    || !resolve(schema).at("/properties/errors").isObject()) {
                                problems.add(
                                        name + " " + response.getKey() + ": not an application/problem+json Problem");
                            }
                        }
                    }
                }));
        assertThat(problems).isEmpty();
    }

    @Test
    void everyListingDocumentsItsPagingParameters() {
        Set<String> paged = new TreeSet<>();
        document.get("paths").fields().forEachRemaining(path -> {
            JsonNode get = path.getValue().get("get");
            if (get == null) {
                return;
            }
            List<String> names = new ArrayList<>();
            get.path("parameters").forEach(p -> names.add(resolve(p).get("name").asText()));
            if (names.contains("limit") && names.contains("cursor")) {
                paged.add(path.getKey());
            }
        });

        assertThat(paged)
                .containsExactlyInAnyOrder(
                        "/alerts",
                        "/pipelines",
                        "/pipelines/{id}/runs",
                        "/pipelines/{id}/runlogs",
                        "/pipelines/{id}/events",
                        "/pipelines/{id}/reruns",
                        "/pipelines/{id}/traits",
                        "/status");
    }

    @Test
    void everyReferenceInTheDocumentResolves() {
        List<String> refs = new ArrayList<>();
        collectRefs(document, refs);

        assertThat(refs)
                .isNotEmpty()
                .allSatisfy(ref -> assertThat(document.at(ref.substring(1)).isMissingNode())
                        .as(ref)
                        .isFalse());
    }

    private static void collectRefs(JsonNode node, List<String> refs) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                if (e.getKey().equals("$ref")) {
                    refs.add(e.getValue().asText());
                } else {
                    collectRefs(e.getValue(), refs);
                }
            });
        } else if (node.isArray()) {
            node.forEach(n -> collectRefs(n, refs));
        }
    }
}
