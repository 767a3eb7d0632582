package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every command {@code examples/README.md} shows — {@code ./interlock …} and {@code curl …}, in code spans or code
 * blocks — runs exactly as written, from the repository root, against a running local runtime, and succeeds. The
 * README names the default endpoint ({@code localhost:8080}); the test's runtime listens on a free port instead, so
 * the CLI is pointed at it by {@code INTERLOCK_ENDPOINT} and curl by a {@code .curlrc} that connects
 * {@code localhost:8080} to that port (and fails on an HTTP error, which curl alone reports as success).
 */
class ExamplesReadmeTest extends EndToEnd {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern CODE_SPAN = Pattern.compile("`([^`]+)`");

    /** The commands of a Markdown text, in order: code spans and code-block lines that start a command. */
    static List<String> commands(String markdown) {
        List<String> commands = new ArrayList<>();
        boolean inBlock = false;
        StringBuilder continued = new StringBuilder();
        for (String line : markdown.lines().toList()) {
            if (line.strip().startsWith("```")) {
                inBlock = !inBlock;
                continue;
            }
            if (inBlock) {
                String part = line.strip();
                if (part.endsWith("\\")) {
                    continued
                            .append(part.substring(0, part.length() - 1).strip())
                            .append(' ');
                    continue;
                }
                continued.append(part);
                addIfCommand(continued.toString(), commands);
                continued.setLength(0);
                continue;
            }
            Matcher span = CODE_SPAN.matcher(line);
            while (span.find()) {
                addIfCommand(span.group(1), commands);
            }
        }
        return commands;
    }

    private static void addIfCommand(String text, List<String> commands) {
        if (text.startsWith("./interlock ") || text.startsWith("curl ")) {
            commands.add(text);
        }
    }

    @Test
    void theExtractionFindsBothKindsOfCommand() {
        List<String> found = commands("""
                Run `./interlock apply -f x/` then `curl -X PUT localhost:8080/a -d '{}'`; `PUT /sensors/{name}` is prose.
                ```sh
                ./interlock pipelines      # list
                curl -X PUT localhost:8080/b \\
                  -H 'Content-Type: application/json' -d '{}'
                ```
                """);
        assertThat(found)
                .containsExactly(
                        "./interlock apply -f x/",
                        "curl -X PUT localhost:8080/a -d '{}'",
                        "./interlock pipelines      # list",
                        "curl -X PUT localhost:8080/b -H 'Content-Type: application/json' -d '{}'");
    }

    @TestFactory
    Stream<DynamicTest> everyCommandOfTheExamplesReadmeRunsAsWritten(@TempDir Path curlHome) throws IOException {
        List<String> commands = commands(Files.readString(ROOT.resolve("examples/README.md")));
        assertThat(commands)
                .as("commands in examples/README.md")
                .anyMatch(c -> c.startsWith("./interlock "))
                .anyMatch(c -> c.startsWith("curl "));
        int port = rt.apiEndpoint().getPort();
        Files.writeString(curlHome.resolve(".curlrc"), """
                connect-to = localhost:8080:127.0.0.1:%1$d
                connect-to = 127.0.0.1:8080:127.0.0.1:%1$d
                fail
                silent
                show-error
                """.formatted(port));
        return commands.stream()
                .map(command -> DynamicTest.dynamicTest(command, () -> {
                    ProcessBuilder pb = new ProcessBuilder("sh", "-c", command)
                            .directory(ROOT.toFile())
                            .redirectErrorStream(true);
                    Map<String, String> env = pb.environment();
                    env.put("INTERLOCK_ENDPOINT", rt.apiEndpoint().toString());
                    env.put("CURL_HOME", curlHome.toString());
                    env.put("NO_PROXY", "*");
                    List.of("http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY")
                            .forEach(env::remove);
                    Process process = pb.start();
                    // A command that does not end (e.g. `./interlock up` written as if it were a one-shot) fails the
                    // test
                    // instead of hanging the build.
                    java.util.concurrent.CompletableFuture<String> output =
                            java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                                try {
                                    return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                                } catch (java.io.IOException e) {
                                    return "(output unreadable: " + e + ")";
                                }
                            });
                    boolean ended = process.waitFor(120, java.util.concurrent.TimeUnit.SECONDS);
                    if (!ended) {
                        process.destroyForcibly();
                    }
                    assertThat(ended)
                            .as(command + " did not end within 120 s; README commands must be one-shot")
                            .isTrue();
                    assertThat(process.exitValue())
                            .as(command + " printed:\n" + output.join())
                            .isZero();
                }));
    }
}
