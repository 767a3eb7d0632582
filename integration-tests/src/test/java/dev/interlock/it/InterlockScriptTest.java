package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code ./interlock} builds itself when a source is newer than its jar, and only then. Run here in a copy
 * of the repository's layout whose {@code mvnw} only counts its calls and, like Maven when the local runtime's own
 * module did not change, leaves the jar as it was: a source changed in another module must cost one build, not one on
 * every later command.
 */
class InterlockScriptTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    @Test
    void aSourceChangedOutsideTheLocalRuntimeIsBuiltOnceNotOnEveryCommand(@TempDir Path repo) throws Exception {
        Files.createDirectories(repo.resolve(".mvn"));
        Files.copy(ROOT.resolve("interlock"), repo.resolve("interlock"));
        Files.copy(ROOT.resolve(".mvn/jdk.sh"), repo.resolve(".mvn/jdk.sh"));
        Path builds = repo.resolve("builds");
        Path mvnw = repo.resolve("mvnw");
        Files.writeString(mvnw, "#!/bin/sh\necho build >> '" + builds + "'\n");
        Files.setPosixFilePermissions(mvnw, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path jar = repo.resolve("local-runtime/target/local-runtime-0.1.0-SNAPSHOT.jar");
        Files.createDirectories(jar.getParent());
        Files.writeString(jar, "");
        Files.setLastModifiedTime(jar, FileTime.from(Instant.now().minusSeconds(3600)));
        Path source = repo.resolve("lambdas/orchestrator/src/main/java/Changed.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Changed {}\n");

        String first = run(repo);
        String second = run(repo);

        assertThat(first).contains("interlock: building the local runtime");
        assertThat(second).doesNotContain("interlock: building");
        assertThat(Files.readAllLines(builds)).as("builds run").hasSize(1);
    }

    /** One {@code ./interlock --version}; what it printed (it fails after the build: the jar is a stand-in). */
    private static String run(Path repo) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(
                        List.of("sh", repo.resolve("interlock").toString(), "--version"))
                .redirectErrorStream(true)
                .start();
        String out = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
