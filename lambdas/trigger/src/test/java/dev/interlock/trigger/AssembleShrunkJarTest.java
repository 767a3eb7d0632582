package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * lambdas/proguard/AssembleShrunkJar.java, the last step of every shrunk function jar (run here with the JDK's source
 * launcher, as the build runs it): what it copies, what it takes from ProGuard, and the build failures it raises when
 * something ProGuard could not see names a class ProGuard removed.
 */
class AssembleShrunkJarTest {

    private static final Path TOOL = Path.of("..", "proguard", "AssembleShrunkJar.java");
    private static final String KEPT = "software/amazon/awssdk/services/glue/model/StartJobRunRequest.class";
    private static final String REMOVED = "software/amazon/awssdk/services/glue/model/CreateJobRequest.class";

    @TempDir
    Path dir;

    private static Map<String, String> entries(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void copiesTheShadedJarTakingOnlyKeptServiceClassesFromProGuard() throws Exception {
        Path shaded = jar(
                "shaded.jar",
                entries(
                        "META-INF/MANIFEST.MF",
                        "Manifest-Version: 1.0\n",
                        "dev/interlock/trigger/TriggerHandler.class",
                        "ours",
                        "com/fasterxml/jackson/databind/ObjectMapper.class",
                        "jackson",
                        "META-INF/versions/11/com/fasterxml/jackson/core/X.class",
                        "versioned",
                        "software/amazon/awssdk/services/glue/",
                        "",
                        KEPT,
                        "unshrunk",
                        REMOVED,
                        "unshrunk"));
        Path proguard =
                jar("proguard.jar", entries(KEPT, "shrunk", "dev/interlock/trigger/TriggerHandler.class", "rewritten"));

        Result result = assemble(shaded, proguard);

        assertThat(result.exitCode()).as(result.output()).isZero();
        assertThat(read(dir.resolve("out.jar")))
                .containsExactly(
                        Map.entry("META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"),
                        Map.entry("dev/interlock/trigger/TriggerHandler.class", "ours"),
                        Map.entry("com/fasterxml/jackson/databind/ObjectMapper.class", "jackson"),
                        Map.entry("META-INF/versions/11/com/fasterxml/jackson/core/X.class", "versioned"),
                        Map.entry("software/amazon/awssdk/services/glue/", ""),
                        Map.entry(KEPT, "shrunk"));
        assertThat(result.output()).contains("kept 1 of 2 classes");
    }

    @Test
    void failsWhenAServiceLoaderFileOrALibraryClassNamesARemovedClass() throws Exception {
        Path shaded = jar(
                "shaded.jar",
                entries(
                        KEPT,
                        "x",
                        REMOVED,
                        "x",
                        "META-INF/services/software.amazon.awssdk.http.SdkHttpService",
                        "software.amazon.awssdk.services.glue.model.CreateJobRequest\n",
                        "software/amazon/awssdk/core/Loader.class",
                        "\u0001\u0000(software/amazon/awssdk/services/glue/model/CreateJobRequest;)V"));
        Path proguard = jar("proguard.jar", entries(KEPT, "x"));

        Result result = assemble(shaded, proguard);

        assertThat(result.exitCode()).isEqualTo(1);
        assertThat(result.output())
                .contains(REMOVED + " (named by META-INF/services/software.amazon.awssdk.http."
                        + "SdkHttpService, software/amazon/awssdk/core/Loader.class)");
        assertThat(dir.resolve("out.jar")).doesNotExist();
    }

    @Test
    void namesOfClassesTheJarDoesNotShipAndOurOwnReferencesAreFine() throws Exception {
        Path shaded = jar(
                "shaded.jar",
                entries(
                        KEPT,
                        "x",
                        REMOVED,
                        "x",
                        // The SDK looks up STS by name; no function ships it.
                        "software/amazon/awssdk/auth/credentials/internal/WebIdentityCredentialsUtils.class",
                        "software.amazon.awssdk.services.sts.internal.StsWebIdentityCredentialsProviderFactory",
                        // Our classes are ProGuard's roots: what they name was traced, and is kept if used.
                        "dev/interlock/runtime/aws/ServiceClientFactories.class",
                        "software/amazon/awssdk/services/glue/model/CreateJobRequest"));
        Path proguard = jar("proguard.jar", entries(KEPT, "x"));

        assertThat(assemble(shaded, proguard).exitCode()).isZero();
    }

    private Path jar(String name, Map<String, String> entries) throws IOException {
        Path jar = dir.resolve(name);
        try (OutputStream file = Files.newOutputStream(jar);
                ZipOutputStream zip = new ZipOutputStream(file)) {
            for (Map.Entry<String, String> e : entries.entrySet()) {
                zip.putNextEntry(new ZipEntry(e.getKey()));
                zip.write(e.getValue().getBytes(StandardCharsets.ISO_8859_1));
                zip.closeEntry();
            }
        }
        return jar;
    }

    private static List<Map.Entry<String, String>> read(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return Collections.list(zip.entries()).stream()
                    .map(e -> {
                        try {
                            return Map.entry(
                                    e.getName(),
                                    new String(zip.getInputStream(e).readAllBytes(), StandardCharsets.ISO_8859_1));
                        } catch (IOException ex) {
                            throw new java.io.UncheckedIOException(ex);
                        }
                    })
                    .toList();
        }
    }

    private record Result(int exitCode, String output) {}

    private Result assemble(Path shaded, Path proguard) throws Exception {
        Process process = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        TOOL.toString(),
                        shaded.toString(),
                        proguard.toString(),
                        dir.resolve("out.jar").toString(),
                        "--shrunk=software/amazon/awssdk/services/",
                        "--root=dev/interlock/")
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(process.exitValue(), output);
    }
}
