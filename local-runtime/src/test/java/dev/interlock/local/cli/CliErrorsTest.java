package dev.interlock.local.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.interlock.api.Api;
import dev.interlock.api.ApiHandler;
import dev.interlock.api.ApiSettings;
import dev.interlock.api.RequestBody;
import dev.interlock.local.api.LocalApiServer;
import dev.interlock.log.StructuredLog;
import dev.interlock.store.memory.InMemoryProvider;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a new user meets when something is wrong, driven through the CLI in process against the real API on an
 * in-memory store: help exits 0; a wrong command line is one line with a suggestion and exit 2; an expected failure
 * is one or two readable lines and exit 1; never a stack trace unless {@code --debug}.
 */
class CliErrorsTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final PrintStream originalOut = System.out;
    private final PrintStream originalErr = System.err;
    private LocalApiServer server;
    private String endpoint;

    /** One CLI run: exit code and what it printed. */
    record Run(int code, String out, String err) {
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    @BeforeEach
    void start() throws Exception {
        Clock clock = Clock.systemUTC();
        AtomicInteger ids = new AtomicInteger();
        server = LocalApiServer.start(
                0,
                new ApiHandler(new Api(
                        new InMemoryProvider(clock),
                        clock,
                        new ApiSettings(3, 2, RequestBody.DEFAULT_MAX_BYTES),
                        () -> "id-" + ids.incrementAndGet(),
                        StructuredLog.forName("api"))));
        endpoint = server.endpoint().toString();
    }

    @AfterEach
    void stop() {
        System.setOut(originalOut);
        System.setErr(originalErr);
        server.close();
    }

    private Run cli(String... args) {
        out.reset();
        err.reset();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            int code = InterlockCli.run(args);
            return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
    }

    private static void assertReadable(Run run, int lines) {
        assertThat(run.errLines()).as(run.err()).hasSizeBetween(1, lines);
        assertThat(run.err()).doesNotContain("\tat ", "Exception", "Caused by");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "--help",
                "help apply",
                "apply --help",
                "help up",
                "up --help",
                "runs -h",
                "help",
                "validate --help"
            })
    void helpPrintsUsageAndSucceeds(String args) {
        Run run = cli(args.split(" "));

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("Usage: interlock");
        assertThat(run.err()).isEmpty();
    }

    @Test
    void anUnknownCommandSuggestsTheClosestOne() {
        Run run = cli("aply", "-f", "examples/");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLines().getFirst()).isEqualTo("interlock: unknown command 'aply'; did you mean 'apply'?");
        assertReadable(run, 2);
        assertThat(cli("help", "pipelnes").errLines().getFirst())
                .isEqualTo("interlock: unknown command 'pipelnes'; did you mean 'pipelines'?");
    }

    @Test
    void anUnknownOptionIsNamedEvenWhenARequiredOneIsMissing() {
        Run run = cli("apply", "--fiel", "examples/");

        assertThat(run.code()).isEqualTo(2);
        assertThat(run.errLines().getFirst())
                .isEqualTo("interlock apply: unknown option '--fiel'; did you mean '--file'?");
        assertThat(run.errLines().get(1)).isEqualTo("  see 'interlock apply --help'");
        assertReadable(run, 2);
        assertThat(cli("apply").errLines().getFirst()).isEqualTo("interlock apply: missing --file");
    }

    @Test
    void badOptionValuesAreUsageErrors(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("not-a-dir"), "x");

        Run notANumber = cli("up", "--time-scale", "fast");
        Run zero = cli("up", "--time-scale", "0");
        Run fileAsDataDir = cli("up", "--data-dir", file.toString());
        Run port = cli("up", "--api-port", "70000");

        assertThat(notANumber.code()).isEqualTo(2);
        assertThat(notANumber.errLines().getFirst())
                .isEqualTo("interlock up: invalid value for '--time-scale': 'fast' is not a number");
        assertThat(zero.code()).isEqualTo(2);
        assertThat(zero.errLines().getFirst())
                .isEqualTo("interlock up: invalid value for --time-scale: 0.0 (must be a positive number, e.g. 60)");
        assertThat(fileAsDataDir.code()).isEqualTo(2);
        assertThat(fileAsDataDir.errLines().getFirst())
                .isEqualTo("interlock up: invalid value for --data-dir: " + file + " is a file, not a directory");
        assertThat(port.code()).isEqualTo(2);
        assertThat(port.errLines().getFirst()).contains("--api-port: 70000 (must be 0-65535");
        for (Run run : List.of(notANumber, zero, fileAsDataDir, port)) {
            assertReadable(run, 2);
        }
        Run badEndpoint = cli("pipelines", "--endpoint", "localhost:8080");
        assertThat(badEndpoint.code()).isEqualTo(2);
        assertThat(badEndpoint.errLines().getFirst())
                .isEqualTo(
                        "interlock pipelines: --endpoint 'localhost:8080' is not an http(s) URL such as http://127.0.0.1:8080");
    }

    @Test
    void anUnreachableEndpointIsNamedWithWhatToDo() throws Exception {
        int closed;
        try (ServerSocket s = new ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        Run run = cli("pipelines", "--endpoint", "http://127.0.0.1:" + closed);

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.errLines())
                .containsExactly(
                        "interlock pipelines: cannot reach the Interlock API at http://127.0.0.1:" + closed
                                + ": connection refused",
                        "  start it with './interlock up', or point --endpoint (or INTERLOCK_ENDPOINT) at a running one");

        Run debug = cli("--debug", "pipelines", "--endpoint", "http://127.0.0.1:" + closed);
        assertThat(debug.code()).isEqualTo(1);
        assertThat(debug.err()).contains("java.net.ConnectException", "\tat ", "cannot reach the Interlock API");
    }

    @Test
    void missingAndUnreadableFilesAreNamed(@TempDir Path dir) throws Exception {
        Path latin1 = dir.resolve("latin1.yaml");
        Files.write(latin1, "name: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));

        Run missing = cli("apply", "-f", dir.resolve("nosuch.yaml").toString(), "--endpoint", endpoint);
        Run unreadable = cli("apply", "-f", latin1.toString(), "--endpoint", endpoint);

        assertThat(missing.code()).isEqualTo(1);
        assertThat(missing.errLines())
                .containsExactly(
                        "interlock apply: " + dir.resolve("nosuch.yaml") + ": no such file or directory",
                        "  nothing was registered");
        assertThat(unreadable.code()).isEqualTo(1);
        assertThat(unreadable.errLines().getFirst()).isEqualTo("interlock apply: " + latin1 + ": not UTF-8 text");
    }

    @Test
    void syntaxErrorsNameTheFileLineAndColumnAndNothingIsRegistered(@TempDir Path dir) throws Exception {
        Path yaml = Files.writeString(dir.resolve("a-broken.yaml"), """
                name: broken
                archetype: batch-ingestion
                trigger: {type: http, url: "http://127.0.0.1:9/x"
                schedules: []
                """);
        Path json = Files.writeString(dir.resolve("b-broken.json"), "{\"name\": \"x\",\n \"archetype\": }\n");
        Path duplicate = Files.writeString(dir.resolve("c-duplicate.yaml"), "name: a\nname: b\n");

        Run yamlRun = cli("apply", "-f", yaml.toString(), "--endpoint", endpoint);
        Run jsonRun = cli("validate", "-f", json.toString(), "--endpoint", endpoint);
        Run duplicateRun = cli("apply", "-f", duplicate.toString(), "--endpoint", endpoint);
        Run all = cli("apply", "-f", dir.toString(), "--endpoint", endpoint);

        assertThat(yamlRun.code()).isEqualTo(1);
        assertThat(yamlRun.errLines().getFirst())
                .isEqualTo(
                        "interlock apply: " + yaml + ":4:1: YAML syntax error: "
                                + "expected ',' or '}', but got <scalar> (while parsing a flow mapping that starts at line 3, column 10)");
        assertThat(jsonRun.code()).isEqualTo(1);
        assertThat(jsonRun.errLines().getFirst())
                .startsWith("interlock validate: " + json + ":2:15: JSON syntax error: Unexpected character ('}'");
        assertThat(duplicateRun.errLines().getFirst())
                .startsWith("interlock apply: " + duplicate + ":2:")
                .contains("Duplicate field 'name'");
        for (Run run : List.of(yamlRun, jsonRun, duplicateRun)) {
            assertReadable(run, 2);
        }
        assertThat(all.code()).isEqualTo(1);
        assertThat(all.err())
                .contains(
                        yaml + ":4:1",
                        json + ":2:15",
                        duplicate + ":2:",
                        "interlock apply: 3 problems in the files above; nothing was registered");
        assertThat(cli("pipelines", "--endpoint", endpoint).out()).contains("0 pipeline(s)");
    }

    @Test
    void refusedDocumentsShowEachErrorAtItsLineAndNothingIsRegistered(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("good.yaml"), GOOD);
        Path bad = Files.writeString(
                dir.resolve("typo.yaml"),
                GOOD.replace("name: good", "name: typo").replace("schedules:", "schedule:")
                        + "retires: {maxAttempts: 2}\n");

        Run run = cli("apply", "-f", dir.toString(), "--endpoint", endpoint);

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.errLines())
                .containsExactly(
                        "pipeline typo is invalid (" + bad + "): HTTP 400 The request is invalid",
                        "  " + bad + ":8  $.schedule: unknown field; did you mean 'schedules'?",
                        "  " + bad + ":10  $.retires: unknown field; did you mean 'retry'?",
                        "interlock apply: 1 of 2 document(s) invalid; nothing was registered");
        assertThat(cli("pipelines", "--endpoint", endpoint).out()).contains("0 pipeline(s)");
    }

    @Test
    void dryRunAndValidateWriteNothing(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("good.yaml"), GOOD);

        Run dryRun = cli("apply", "--dry-run", "-f", dir.toString(), "--endpoint", endpoint);
        Run validate = cli("validate", "-f", dir.toString(), "--endpoint", endpoint);

        assertThat(dryRun.code()).as(dryRun.err()).isZero();
        assertThat(dryRun.out())
                .contains("pipeline good is valid", "1 document(s) valid; nothing was registered (dry run)");
        assertThat(validate.code()).isZero();
        assertThat(validate.out()).isEqualTo(dryRun.out());
        assertThat(cli("pipelines", "--endpoint", endpoint).out()).contains("0 pipeline(s)");
        assertThat(cli("apply", "-f", dir.toString(), "--endpoint", endpoint).out())
                .contains("pipeline good created");
        assertThat(cli("pipelines", "--endpoint", endpoint).out()).contains("1 pipeline(s)");
    }

    @Test
    void aPipelineMayUseAnArchetypeDefinedInTheSameDirectory(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("archetype.yaml"), """
                kind: archetype
                name: house
                requiredTraits: [{type: ready, evaluator: "builtin:always-pass"}]
                readinessRule: {type: all-required-pass}
                """);
        Files.writeString(dir.resolve("pipeline.yaml"), """
                name: uses-house
                archetype: house
                trigger: {type: http, url: "http://127.0.0.1:9/run"}
                """);

        Run validate = cli("validate", "-f", dir.toString(), "--endpoint", endpoint);
        Run apply = cli("apply", "-f", dir.toString(), "--endpoint", endpoint);

        assertThat(validate.code()).as(validate.err()).isZero();
        assertThat(apply.code()).as(apply.err()).isZero();
        assertThat(apply.out()).containsSubsequence("archetype house created", "pipeline uses-house created");
    }

    @Test
    void runsOfAnUnknownPipelineFailAndSuggestTheClosestName(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("good.yaml"), GOOD);
        assertThat(cli("apply", "-f", dir.toString(), "--endpoint", endpoint).code())
                .isZero();

        Run run = cli("runs", "godo", "--endpoint", endpoint);

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.errLines())
                .containsExactly(
                        "interlock runs: no pipeline 'godo' is registered at " + endpoint + "; did you mean 'good'?");
        assertThat(cli("runs", "good", "--endpoint", endpoint).code()).isZero();
    }

    @Test
    void apiProblemsAreRenderedAsTheirErrors() {
        Run run = cli("evaluate", "nosuch", "--endpoint", endpoint);
        Run rerun = cli("rerun", "nosuch", "--date", "2026-02-30", "--reason", "x", "--endpoint", endpoint);

        assertThat(run.code()).isEqualTo(1);
        assertThat(run.errLines())
                .containsExactly(
                        "requesting an evaluation of nosuch: HTTP 404 No such resource", "  no pipeline 'nosuch'");
        assertThat(rerun.code()).isEqualTo(1);
        assertThat(rerun.err()).contains("HTTP 4");
        assertReadable(rerun, 3);
    }

    @Test
    void anHttpsEndpointWithoutCredentialsSaysWhatToSet(@TempDir Path dir) throws Exception {
        for (String variable : List.of(
                "AWS_ACCESS_KEY_ID",
                "AWS_WEB_IDENTITY_TOKEN_FILE",
                "AWS_CONTAINER_CREDENTIALS_FULL_URI",
                "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI")) {
            assumeTrue(System.getenv(variable) == null, "credentials come from the environment: " + variable);
        }
        Path empty = Files.writeString(dir.resolve("empty"), "");
        System.setProperty("aws.sharedCredentialsFile", empty.toString());
        System.setProperty("aws.configFile", empty.toString());
        System.setProperty("aws.disableEc2Metadata", "true");
        try {
            Run run = cli("pipelines", "--endpoint", "https://abc123.execute-api.eu-west-1.amazonaws.com/v1/");

            assertThat(run.code()).isEqualTo(1);
            assertThat(run.errLines())
                    .containsExactly(
                            "interlock pipelines: no AWS credentials to sign requests to https://abc123.execute-api.eu-west-1.amazonaws.com",
                            "  set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), run 'aws sso login', or pass --no-sigv4"
                                    + " for an endpoint that needs no signature");
        } finally {
            System.clearProperty("aws.sharedCredentialsFile");
            System.clearProperty("aws.configFile");
            System.clearProperty("aws.disableEc2Metadata");
        }
    }

    @Test
    void aTakenPortIsNamedWithTheOptionThatMovesIt(@TempDir Path dir) throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Run run = cli(
                    "up",
                    "--dynamodb-port",
                    Integer.toString(taken.getLocalPort()),
                    "--api-port",
                    "0",
                    "--lambda-port",
                    "0",
                    "--sfn-port",
                    "0",
                    "--log-file",
                    dir.resolve("up.log").toString());

            assertThat(run.code()).isEqualTo(1);
            assertThat(run.errLines())
                    .containsExactly(
                            "interlock up: port " + taken.getLocalPort() + " (DynamoDB) is already in use on 127.0.0.1",
                            "  another 'interlock up' may be running; choose another port with --dynamodb-port (0 picks a free one)");
        }
    }

    @Test
    void everyInstanceWritesItsOwnLogFile(@TempDir Path dataDir) throws Exception {
        Path first = UpCommand.defaultLogFile(null);
        Path second = UpCommand.defaultLogFile(null);
        try {
            assertThat(first).isNotEqualTo(second);
            assertThat(first.getFileName().toString())
                    .startsWith("interlock-" + ProcessHandle.current().pid() + "-")
                    .endsWith(".log");
            assertThat(UpCommand.defaultLogFile(dataDir)).isEqualTo(dataDir.resolve("interlock.log"));
        } finally {
            Files.deleteIfExists(first);
            Files.deleteIfExists(second);
        }
    }

    private static final String GOOD = """
            name: good
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            trigger: {type: http, url: "http://127.0.0.1:9/run"}
            schedules:
              - name: daily
            """;
}
