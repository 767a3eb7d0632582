package dev.interlock.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.client.builder.AwsClientBuilder;
import software.amazon.awssdk.awscore.client.builder.AwsSyncClientBuilder;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * moto — an AWS emulator this project did not write — as a server on 127.0.0.1 and an ephemeral port, for tests that
 * check our AWS calls against someone else's reading of the APIs (beside {@link AwsProtocolStub}, which answers what a
 * test scripts). One per test class: {@link #start()} runs {@code moto_server.py} (this package's Python helper, pinned
 * in {@code src/test/python/requirements.txt}) with {@code python3}; {@link #close()} stops it, and it stops by itself
 * when the JVM that started it ends. Where python3 or moto is missing, {@link #start()} skips the test with a message
 * locally and fails it in CI ({@link ExternalTools}).
 *
 * <p>moto's own controls: {@link #configure} ({@code /moto-api/config}, e.g. Step Functions really executing
 * definitions, Lambda without Docker), {@link #transition} ({@code /moto-api/state-manager}: how modelled resources
 * such as Glue job runs advance), {@link #reset}. Its account is {@link #ACCOUNT}, its default region us-east-1.
 */
public final class MotoServer implements AutoCloseable {

    /** The account moto creates every resource in. */
    public static final String ACCOUNT = "123456789012";

    public static final String REGION = "us-east-1";

    private static final String SCRIPT = "dev/interlock/testing/moto_server.py";
    private static final String PORT_LINE = "moto listening on ";

    private final Process process;
    private final URI endpoint;
    private final HttpClient http = HttpClient.newHttpClient();

    private MotoServer(Process process, int port) {
        this.process = process;
        this.endpoint = URI.create("http://127.0.0.1:" + port);
    }

    /** Starts moto's server; returns once it accepts connections. */
    public static MotoServer start() {
        ExternalTools.require(
                ExternalTools.output(List.of("python3", "-c", "import moto.server"))
                        .isPresent(),
                "python3 with moto is not installed (pinned in lambdas/aws-runtime/src/test/python/requirements.txt)");
        String script;
        try (InputStream in = MotoServer.class.getClassLoader().getResourceAsStream(SCRIPT)) {
            if (in == null) {
                throw new IllegalStateException(SCRIPT + " is not on the test class path");
            }
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Process process;
        try {
            process = new ProcessBuilder("python3", "-c", script)
                    .redirectErrorStream(true)
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start python3", e);
        }
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
        try {
            // A loaded machine takes a few seconds to import moto; a minute means it is broken.
            MotoServer server = new MotoServer(process, port.get(60, TimeUnit.SECONDS));
            Thread drain = new Thread(() -> drain(out, System.err), "moto-output");
            drain.setDaemon(true);
            drain.start();
            return server;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException(e);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            throw new IllegalStateException("moto did not start within 60 s: " + e + "\n" + seen, e);
        }
    }

    /** moto's errors (a stack trace behind a 500) go to the test's output. */
    private static void drain(BufferedReader out, java.io.PrintStream to) {
        try {
            for (String line = out.readLine(); line != null; line = out.readLine()) {
                to.println("[moto] " + line);
            }
        } catch (IOException ignored) {
            // the server stopped
        }
    }

    /** The endpoint of every service (moto routes by the request, not the host). */
    public URI endpoint() {
        return endpoint;
    }

    /** An SDK client of any service pointed at moto, with dummy credentials and the URL-connection HTTP client. */
    public <B extends AwsClientBuilder<B, C> & AwsSyncClientBuilder<B, C>, C> C client(B builder) {
        return builder.endpointOverride(endpoint)
                .region(Region.of(REGION))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("moto", "moto")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }

    /** Changes moto's behaviour ({@code POST /moto-api/config}), e.g. {@code {"stepfunctions":{"execute_state_machine":true}}}. */
    public void configure(String json) {
        post("/moto-api/config", json);
    }

    /**
     * How a modelled resource advances ({@code POST /moto-api/state-manager/set-transition}), e.g.
     * {@code transition("glue::job_run", "{\"progression\":\"manual\",\"times\":2}")}: each read after two more reads.
     */
    public void transition(String model, String transitionJson) {
        post(
                "/moto-api/state-manager/set-transition",
                "{\"model_name\":\"" + model + "\",\"transition\":" + transitionJson + "}");
    }

    /**
     * Creates an IAM role in moto and returns its ARN: moto's Lambda refuses a function whose role it does not know.
     * Sent as IAM's query protocol directly (moto checks no signature), so the tests need no IAM client jar.
     */
    public String createRole(String name) {
        String trust = "{\"Version\":\"2012-10-17\",\"Statement\":[{\"Effect\":\"Allow\","
                + "\"Principal\":{\"Service\":\"lambda.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}";
        String form = "Action=CreateRole&Version=2010-05-08&RoleName=" + encode(name) + "&AssumeRolePolicyDocument="
                + encode(trust);
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(endpoint.resolve("/"))
                            .header("Content-Type", "application/x-www-form-urlencoded")
                            .header(
                                    "Authorization",
                                    "AWS4-HMAC-SHA256 Credential=moto/20260101/" + REGION + "/iam/aws4_request")
                            .POST(HttpRequest.BodyPublishers.ofString(form))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException(
                        "moto refused CreateRole " + name + ": " + r.statusCode() + " " + r.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return "arn:aws:iam::" + ACCOUNT + ":role/" + name;
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    /** Forgets every resource ({@code POST /moto-api/reset}). */
    public void reset() {
        post("/moto-api/reset", "");
    }

    private void post(String path, String body) {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(endpoint.resolve(path))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(body))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() / 100 != 2) {
                throw new IllegalStateException("moto refused POST " + path + ": " + r.statusCode() + " " + r.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
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
