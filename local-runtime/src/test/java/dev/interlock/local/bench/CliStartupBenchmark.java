package dev.interlock.local.bench;

import dev.interlock.local.runtime.LocalRuntime;
import dev.interlock.local.runtime.ProductionFunctions;
import dev.interlock.local.runtime.RuntimeOptions;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prints how long a CLI command that only talks HTTP takes from {@code ./interlock} to exit (a benchmark, never a
 * test): wall time and the CPU the JVM spent (user + system), median of N fresh processes, for {@code --version} and
 * for {@code pipelines} against a running local runtime, launched (a) as the launcher did before — every jar of the
 * runtime on the classpath, default compilers and collector — and (b) as {@code ./interlock} does now, with and
 * without its class-data archive. CPU time is the fairer number on a shared machine, where wall time mostly measures
 * the queue for a core. Run with {@code ./mvnw -Pbenchmarks -pl local-runtime -am verify}.
 */
public final class CliStartupBenchmark {

    private static final Pattern TIMES = Pattern.compile("(\\d+)m([\\d.]+)s\\s+(\\d+)m([\\d.]+)s");

    private CliStartupBenchmark() {}

    /** One measured run: wall and CPU milliseconds. */
    private record Sample(long wallMillis, long cpuMillis) {}

    public static void main(String[] args) throws Exception {
        int runs = Integer.getInteger("interlock.bench.cliRuns", 7);
        Path root = Path.of("..").toAbsolutePath().normalize();
        Path jar = root.resolve("local-runtime/target/local-runtime-0.1.0-SNAPSHOT.jar");
        Path javaBin = Path.of(System.getProperty("java.home"), "bin", "java");
        PrintStream report = System.out;
        Path functionLog = Path.of("target", "cli-benchmark-functions.log");
        System.setOut(new PrintStream(Files.newOutputStream(functionLog), true, StandardCharsets.UTF_8));
        try (LocalRuntime rt =
                LocalRuntime.start(RuntimeOptions.ephemeral(null, 1.0), new ProductionFunctions(), s -> {}, a -> {})) {
            rt.awaitHealthy(Duration.ofSeconds(60));
            String endpoint = rt.apiEndpoint().toString();
            String before = q(javaBin.toString()) + " --enable-native-access=ALL-UNNAMED -cp "
                    + q(jar + ":" + root.resolve("local-runtime/target/lib") + "/*")
                    + " dev.interlock.local.cli.InterlockCli";
            String now = q(root.resolve("interlock").toString());
            // One run of the launcher so its archive exists (it is recorded once per build).
            measure(now + " --version", Map.of());

            report.printf(Locale.ROOT, "CLI start-up, median of %d fresh processes (wall ms / CPU ms)%n", runs);
            report.printf(Locale.ROOT, "%-58s %14s %14s%n", "launch", "--version", "pipelines");
            row(report, "before: runtime classpath, default JVM", before, endpoint, runs, Map.of());
            row(
                    report,
                    "now: ./interlock without the class-data archive",
                    now,
                    endpoint,
                    runs,
                    Map.of("INTERLOCK_NO_CDS", "1"));
            row(report, "now: ./interlock", now, endpoint, runs, Map.of());
        } finally {
            System.setOut(report);
        }
    }

    private static void row(
            PrintStream report, String label, String command, String endpoint, int runs, Map<String, String> env)
            throws IOException, InterruptedException {
        Sample version = median(command + " --version", env, runs);
        Sample pipelines = median(command + " pipelines --endpoint " + endpoint, env, runs);
        report.printf(
                Locale.ROOT,
                "%-58s %6d / %5d %6d / %5d%n",
                label,
                version.wallMillis(),
                version.cpuMillis(),
                pipelines.wallMillis(),
                pipelines.cpuMillis());
    }

    private static Sample median(String command, Map<String, String> env, int runs)
            throws IOException, InterruptedException {
        List<Long> wall = new ArrayList<>();
        List<Long> cpu = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            Sample s = measure(command, env);
            wall.add(s.wallMillis());
            cpu.add(s.cpuMillis());
        }
        Collections.sort(wall);
        Collections.sort(cpu);
        return new Sample(wall.get(runs / 2), cpu.get(runs / 2));
    }

    /** Runs {@code command} under {@code sh}, whose {@code times} reports the CPU its children used. */
    private static Sample measure(String command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", command + " >/dev/null 2>&1; times");
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        long start = System.nanoTime();
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor();
        long wall = (System.nanoTime() - start) / 1_000_000;
        List<String> lines = out.lines().toList();
        Matcher children = TIMES.matcher(lines.isEmpty() ? "" : lines.getLast());
        if (!children.find()) {
            throw new IllegalStateException("no CPU times from sh: " + out);
        }
        long cpu = Math.round((Long.parseLong(children.group(1)) * 60
                        + Double.parseDouble(children.group(2))
                        + Long.parseLong(children.group(3)) * 60
                        + Double.parseDouble(children.group(4)))
                * 1000);
        return new Sample(wall, cpu);
    }

    private static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}
