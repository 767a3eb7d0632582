package dev.interlock.statemachine.asl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.testing.ExternalTools;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * LocalStack's ASL interpreter as shipped in moto, running in moto's server ({@code src/test/python/moto_asl_engine.py},
 * pinned in {@code src/test/python/requirements.txt}) on 127.0.0.1 and an ephemeral port, with Step Functions really
 * executing definitions. Its Task states call Lambda and SNS at {@code taskEndpoint} (moto sends the interpreter's
 * boto3 clients to {@code localhost:$MOTO_PORT}). Spoken to over the AWS JSON 1.0 protocol; moto checks no signature.
 * The server stops when its standard input closes, so it never outlives the JVM that started it.
 */
final class MotoAslEngine implements AutoCloseable {

    private static final Path SCRIPT = Path.of("src/test/python/moto_asl_engine.py");
    private static final String PORT_LINE = "moto listening on ";
    private static final String REGION = "us-east-1";

    private final Process process;
    private final URI endpoint;
    private final HttpClient http = HttpClient.newHttpClient();

    private MotoAslEngine(Process process, int port) {
        this.process = process;
        this.endpoint = URI.create("http://127.0.0.1:" + port + "/");
    }

    /** Starts the server (skipped locally, failed in CI, when python3 with moto is missing) and turns execution on. */
    static MotoAslEngine start(int taskEndpointPort) throws IOException, InterruptedException {
        ExternalTools.require(
                ExternalTools.output(List.of("python3", "-c", "import moto.server"))
                        .isPresent(),
                "python3 with moto is not installed (pinned in statemachine/src/test/python/requirements.txt)");
        Path dir = Asl.moduleDir();
        if (!Files.isRegularFile(dir.resolve(SCRIPT))) {
            throw new IllegalStateException(dir.resolve(SCRIPT) + " is missing");
        }
        ProcessBuilder builder = new ProcessBuilder("python3", SCRIPT.toString())
                .directory(dir.toFile())
                .redirectErrorStream(true);
        builder.environment().put("MOTO_PORT", Integer.toString(taskEndpointPort));
        Process process = builder.start();
        BufferedReader out =
                new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<Integer> port = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    if (line.startsWith(PORT_LINE)) {
                        return Integer.parseInt(
                                line.substring(PORT_LINE.length()).trim());
                    }
                    seen.append(line).append('\n');
                }
                throw new IllegalStateException("moto exited before listening:\n" + seen);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        MotoAslEngine engine;
        try {
            // Importing moto takes seconds on a loaded machine; a minute means it is broken.
            engine = new MotoAslEngine(process, port.get(60, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("moto did not start within 60 s: " + e + "\n" + seen, e);
        }
        Thread drain = new Thread(
                () -> {
                    try {
                        // moto's stack traces (a 500 behind a failed Task) belong in the test output.
                        for (String line = out.readLine(); line != null; line = out.readLine()) {
                            System.err.println("[moto] " + line);
                        }
                    } catch (IOException stopped) {
                        // the server stopped
                    }
                },
                "moto-output");
        drain.setDaemon(true);
        drain.start();
        engine.reset();
        return engine;
    }

    /**
     * Forgets every state machine and execution ({@code POST /moto-api/reset}) and turns execution on again. moto
     * 5.2.1 can start only one execution per backend: StartExecution deep-copies the state machine, which refers to its
     * backend, so a second start copies the first execution's locks and fails with HTTP 500.
     */
    void reset() throws IOException, InterruptedException {
        post("moto-api/reset", "application/json", "");
        post("moto-api/config", "application/json", "{\"stepfunctions\":{\"execute_state_machine\":true}}");
    }

    /** An AWS error answer of moto's Step Functions API. */
    static final class AwsError extends RuntimeException {
        private final String type;

        AwsError(String operation, int status, String type, String message) {
            super(operation + " -> " + status + " " + type + ": " + message);
            this.type = type;
        }

        String type() {
            return type;
        }
    }

    /** Calls a Step Functions operation, e.g. {@code stepFunctions("StartExecution", request)}. */
    JsonNode stepFunctions(String operation, ObjectNode request) {
        HttpResponse<String> response;
        try {
            response = http.send(
                    HttpRequest.newBuilder(endpoint)
                            .header("Content-Type", "application/x-amz-json-1.0")
                            .header("X-Amz-Target", "AWSStepFunctions." + operation)
                            // moto routes by the credential scope's service; it checks no signature.
                            .header(
                                    "Authorization",
                                    "AWS4-HMAC-SHA256 Credential=moto/20260101/" + REGION
                                            + "/states/aws4_request, SignedHeaders=host, Signature=0")
                            .POST(HttpRequest.BodyPublishers.ofString(request.toString()))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(operation + " on moto failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        JsonNode body;
        try {
            body = response.body().isBlank() ? Asl.JSON.createObjectNode() : Asl.JSON.readTree(response.body());
        } catch (IOException notJson) {
            throw new AwsError(operation, response.statusCode(), "NotJson", response.body());
        }
        if (response.statusCode() != 200) {
            String type = body.path("__type").asText("");
            throw new AwsError(
                    operation,
                    response.statusCode(),
                    type.substring(type.lastIndexOf('#') + 1),
                    body.path("message").asText(body.path("Message").asText("")));
        }
        return body;
    }

    private void post(String path, String contentType, String body) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(endpoint.resolve(path))
                        .header("Content-Type", contentType)
                        .POST(HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() / 100 != 2) {
            throw new IllegalStateException("moto refused POST /" + path + ": " + r.statusCode() + " " + r.body());
        }
    }

    /** Closing its standard input stops the server; it is killed if it has not stopped within ten seconds. */
    @Override
    public void close() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
