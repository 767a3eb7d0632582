package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ApiContractTest {

    @TempDir
    Path dir;

    @Test
    void operationsCarryTheirParametersFromThePathTheOperationAndComponentRefs() throws IOException {
        ApiContract contract = ApiContract.read(write("""
                openapi: 3.0.3
                paths:
                  /pipelines/{id}/runs:
                    parameters:
                      - $ref: '#/components/parameters/PipelineId'
                    get:
                      operationId: listRuns
                      parameters:
                        - {name: cursor, in: query}
                        - {name: X-Trace, in: header, required: true}
                    summary: not an operation
                  /health:
                    get: {operationId: health}
                components:
                  parameters:
                    PipelineId: {name: id, in: path, required: true}
                """));
        assertThat(contract.operations())
                .containsExactly(
                        new ApiContract.Operation(
                                "GET",
                                "/pipelines/{id}/runs",
                                "listRuns",
                                Map.of(
                                        "method.request.path.id", true,
                                        "method.request.querystring.cursor", false,
                                        "method.request.header.X-Trace", true)),
                        new ApiContract.Operation("GET", "/health", "health", Map.of()));
    }

    /**
     * The parameters feed the hash that names the API's CloudFormation Deployment: in an order that changed from one
     * JVM to the next, a second synth of the same contract named a new Deployment, so every deploy made one.
     */
    @Test
    void parametersKeepTheDocumentsOrder() throws IOException {
        List<String> names = List.of("id", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k");
        StringBuilder doc = new StringBuilder("openapi: 3.0.3\npaths:\n  /things/{id}:\n    get:\n"
                + "      operationId: listThings\n      parameters:\n        - {name: id, in: path}\n");
        names.subList(1, names.size())
                .forEach(n -> doc.append("        - {name: ").append(n).append(", in: query}\n"));
        ApiContract contract = ApiContract.read(write(doc.toString()));
        List<String> expected = names.stream()
                .map(n -> "method.request." + (n.equals("id") ? "path." : "querystring.") + n)
                .toList();
        assertThat(List.copyOf(contract.operations().get(0).requestParameters().keySet()))
                .containsExactlyElementsOf(expected);
    }

    @Test
    void anOperationWithoutOperationIdIsNamed() throws IOException {
        Path doc = write("paths:\n  /health:\n    get: {summary: up}\n");
        assertThatThrownBy(() -> ApiContract.read(doc)).hasMessageContaining("GET /health has no operationId");
    }

    @Test
    void aMissingOrEmptyDocumentIsRefused() throws IOException {
        assertThatThrownBy(() -> ApiContract.read(dir.resolve("nope.yaml")))
                .hasMessageContaining("Missing OpenAPI document");
        Path empty = write("openapi: 3.0.3\npaths: {}\n");
        assertThatThrownBy(() -> ApiContract.read(empty)).hasMessageContaining("declares no operation");
    }

    @Test
    void anUnresolvedRefIsRefused() throws IOException {
        Path doc = write("paths:\n  /x/{id}:\n    get:\n      operationId: x\n      parameters:\n"
                + "        - $ref: '#/components/parameters/Missing'\n");
        assertThatThrownBy(() -> ApiContract.read(doc))
                .hasMessageContaining("Unresolved $ref #/components/parameters/Missing");
    }

    private Path write(String yaml) throws IOException {
        Path file = dir.resolve("openapi.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
