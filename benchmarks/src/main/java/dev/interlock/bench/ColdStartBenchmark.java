package dev.interlock.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.InterlockFunction;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The cold-start benchmark (a main, never a test): for each function's shaded jar and a bare hello handler, the jar size
 * and the cold start — a fresh JVM under AWS's runtime interface client answering one realistic event against local
 * services — as median and p90 over several runs, and the ratio to the hello baseline. Goals: every jar under
 * InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES (the build holds it too),
 * no cold start above 3× the baseline. Prints a table and writes the numbers as JSON.
 *
 * <p>Runs go round-robin (one JVM of each jar per round) so that load from other processes on a shared machine
 * spreads over all jars instead of skewing one of them; the load average is recorded with the numbers.
 */
public final class ColdStartBenchmark {

    static final double MAX_RATIO = 3.0;

    private ColdStartBenchmark() {}

    public static void main(String[] args) {
        try {
            System.exit(run(args));
        } catch (Throwable e) {
            // DynamoDB Local leaves non-daemon threads behind: without an explicit exit a failure would hang Maven.
            e.printStackTrace();
            System.exit(2);
        }
    }

    private static int run(String[] args) throws Exception {
        Options options = Options.parse(args);
        Files.createDirectories(options.work());
        String java = ProcessHandle.current()
                .info()
                .command()
                .orElseThrow(() -> new IllegalStateException("cannot tell which java runs this benchmark"));
        double loadBefore = loadAverage();
        List<ColdStartResult> results = new ArrayList<>();
        try (LocalServices services = LocalServices.start()) {
            Map<String, String> environment = new HashMap<>(services.functionEnvironment());
            environment.put("INTERLOCK_PRIMING", options.priming());
            ColdStartLauncher launcher = new ColdStartLauncher(
                    java, options.jvmArgs(), options.runtimeClient(), environment, options.work(), options.classData());
            Scenarios scenarios = new Scenarios(services);
            List<Scenario> all =
                    new ArrayList<>(scenarios.all(options.repository(), options.helloJar(), options.functions()));
            if (options.compareRepository() != null) {
                // The same functions from another build, measured in the same rounds so the load hits both alike.
                for (Scenario s : scenarios.all(options.compareRepository(), options.helloJar(), options.functions())) {
                    if (!s.name().equals(all.getFirst().name())) {
                        all.add(new Scenario(
                                s.name() + " [" + options.compareLabel() + "]",
                                s.handler(),
                                s.handlerClass(),
                                s.jar(),
                                s.events(),
                                s.verdict()));
                    }
                }
            }
            for (Scenario s : all) {
                long size = Files.isRegularFile(s.jar()) ? Files.size(s.jar()) : 0;
                results.add(s.verdict()
                        .whyMissing()
                        .map(why -> new ColdStartResult(s, size, ColdStartResult.Status.MISSING, why))
                        .orElseGet(() -> new ColdStartResult(s, size, ColdStartResult.Status.MEASURED, "")));
            }
            measure(launcher, results, options);
        }
        double loadAfter = loadAverage();
        String report = table(results, java, options, loadBefore, loadAfter);
        System.out.println(report);
        writeJson(options.json(), results, java, options, loadBefore, loadAfter);
        System.out.println("JSON: " + options.json());
        List<ColdStartResult> failed = results.stream()
                .filter(r -> r.status() == ColdStartResult.Status.FAILED)
                .toList();
        if (!failed.isEmpty() || !results.getFirst().measurable()) {
            System.err.println("COLD-START BENCHMARK FAILED: " + failed.size() + " jar(s) did not answer their event "
                    + "with a success (see the reasons above and the JVM logs under " + options.work() + ")");
            return 1;
        }
        return 0;
    }

    /** One untimed JVM per jar (page cache, CDS), then rounds of one timed JVM per jar. */
    private static void measure(ColdStartLauncher launcher, List<ColdStartResult> results, Options options) {
        for (int round = -options.warmups(); round < options.runs(); round++) {
            for (ColdStartResult result : results) {
                if (!result.measurable()) {
                    continue;
                }
                try {
                    ColdStartLauncher.Measurement m = launcher.run(result.scenario(), round);
                    if (round >= 0) {
                        result.add(m);
                    }
                    System.out.printf(
                            Locale.ROOT,
                            "%-18s %s %2d: %7.0f ms (init %5.0f, invoke %5.0f)%n",
                            result.scenario().name(),
                            round < 0 ? "warm-up" : "run    ",
                            Math.max(round + 1, 0),
                            m.totalMillis(),
                            m.initMillis(),
                            m.invokeMillis());
                } catch (ColdStartLauncher.RunFailure e) {
                    result.fail(e.getMessage());
                    System.err.println(
                            "FAILED " + e.getMessage() + "\n--- last lines of " + e.log() + " ---\n" + tail(e.log()));
                } catch (Exception e) {
                    result.fail(result.scenario().name() + ": " + e);
                    System.err.println("FAILED " + result.scenario().name() + ": " + e);
                    e.printStackTrace();
                }
            }
        }
    }

    private static String table(
            List<ColdStartResult> results, String java, Options options, double loadBefore, double loadAfter) {
        ColdStartResult baseline = results.getFirst();
        StringBuilder out = new StringBuilder();
        out.append(String.format(
                Locale.ROOT,
                "%nCold start under aws-lambda-java-runtime-interface-client: %d run(s) per jar "
                        + "(+%d warm-up), %s %s%nclass data: %s, INTERLOCK_PRIMING=%s%nJVM: %s%n"
                        + "load average (1 min) before %.2f, after %.2f on %d CPUs%n%n",
                options.runs(),
                options.warmups(),
                java,
                String.join(" ", options.jvmArgs()),
                options.classData().name().toLowerCase(Locale.ROOT),
                options.priming(),
                Runtime.version(),
                loadBefore,
                loadAfter,
                Runtime.getRuntime().availableProcessors()));
        out.append(String.format(
                Locale.ROOT,
                "%-18s %8s %10s %8s %8s %8s %9s %7s %6s  %s%n",
                "function",
                "jar MB",
                "median ms",
                "p90 ms",
                "init ms",
                "invk ms",
                "x hello",
                "<15MB",
                "<=3x",
                "note"));
        for (ColdStartResult r : results) {
            boolean isBaseline = r == baseline;
            String size = r.jarBytes() == 0
                    ? "-"
                    : String.format(Locale.ROOT, r.jarMegabytes() < 0.1 ? "%.3f" : "%.2f", r.jarMegabytes());
            String sizeOk =
                    r.jarBytes() == 0 ? "-" : r.jarBytes() < InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES ? "yes" : "NO";
            if (r.runs().isEmpty()) {
                out.append(String.format(
                        Locale.ROOT,
                        "%-18s %8s %10s %8s %8s %8s %9s %7s %6s  %s%n",
                        r.scenario().name(),
                        size,
                        "-",
                        "-",
                        "-",
                        "-",
                        "-",
                        sizeOk,
                        "-",
                        r.status() + ": " + r.reason()));
                continue;
            }
            double ratio = r.median() / baseline.median();
            String ratioText = baseline.runs().isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", ratio);
            String ratioOk = isBaseline || baseline.runs().isEmpty() ? "-" : ratio <= MAX_RATIO ? "yes" : "NO";
            String note = r.status() == ColdStartResult.Status.FAILED
                    ? "FAILED: " + r.reason()
                    : isBaseline ? "baseline" : "";
            out.append(String.format(
                    Locale.ROOT,
                    "%-18s %8s %10.0f %8.0f %8.0f %8.0f %9s %7s %6s  %s%n",
                    r.scenario().name(),
                    size,
                    r.median(),
                    r.p90(),
                    r.medianInit(),
                    r.medianInvoke(),
                    ratioText,
                    sizeOk,
                    ratioOk,
                    note));
        }
        long measured = results.stream()
                .skip(1)
                .filter(r -> r.measurable() && !r.runs().isEmpty())
                .count();
        long missing = results.stream()
                .filter(r -> r.status() == ColdStartResult.Status.MISSING)
                .count();
        out.append(String.format(
                Locale.ROOT,
                "%n%d function(s) measured, %d missing. Goals: jar < %.0f MB, median "
                        + "cold start <= %.0fx the hello baseline.%n",
                measured,
                missing,
                InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES / 1e6,
                MAX_RATIO));
        return out.toString();
    }

    private static void writeJson(
            Path file, List<ColdStartResult> results, String java, Options options, double loadBefore, double loadAfter)
            throws IOException {
        ObjectMapper json = InterlockJson.json().copy().enable(SerializationFeature.INDENT_OUTPUT);
        ColdStartResult baseline = results.getFirst();
        ObjectNode root = json.createObjectNode()
                .put("measuredAt", Instant.now().toString())
                .put("java", java)
                .put("javaVersion", Runtime.version().toString())
                .put("runs", options.runs())
                .put("warmups", options.warmups())
                .put("classData", options.classData().name().toLowerCase(Locale.ROOT))
                .put("priming", options.priming())
                .put("loadAverageBefore", loadBefore)
                .put("loadAverageAfter", loadAfter)
                .put("cpus", Runtime.getRuntime().availableProcessors());
        ArrayNode flags = root.putArray("jvmArgs");
        options.jvmArgs().forEach(flags::add);
        root.putObject("goals")
                .put("maxJarBytes", InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES)
                .put("maxRatioToBaseline", MAX_RATIO);
        ArrayNode jars = root.putArray("results");
        for (ColdStartResult r : results) {
            ObjectNode n = jars.addObject()
                    .put("function", r.scenario().name())
                    .put("baseline", r == baseline)
                    .put("handler", r.scenario().handler())
                    .put("jar", r.scenario().jar().toString())
                    .put("jarBytes", r.jarBytes())
                    .put("jarMegabytes", round(r.jarMegabytes()))
                    .put("status", r.status().name())
                    .put("reason", r.reason());
            if (!r.runs().isEmpty()) {
                n.put("medianMillis", round(r.median()))
                        .put("p90Millis", round(r.p90()))
                        .put("medianInitMillis", round(r.medianInit()))
                        .put("medianInvokeMillis", round(r.medianInvoke()));
                if (!baseline.runs().isEmpty()) {
                    double ratio = r.median() / baseline.median();
                    n.put("ratioToBaseline", round(ratio)).put("meetsRatioGoal", ratio <= MAX_RATIO);
                }
                ArrayNode runs = n.putArray("runsMillis");
                r.runs()
                        .forEach(m -> runs.addObject()
                                .put("total", round(m.totalMillis()))
                                .put("init", round(m.initMillis()))
                                .put("invoke", round(m.invokeMillis())));
            }
            if (r.jarBytes() > 0) {
                n.put("meetsSizeGoal", r.jarBytes() < InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);
            }
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        json.writeValue(file.toFile(), root);
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    private static double loadAverage() {
        return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    }

    private static String tail(Path log) {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    /** Command-line options ({@code --name=value}); the pom passes all of them. */
    record Options(
            Path repository,
            Path runtimeClient,
            Path helloJar,
            int runs,
            int warmups,
            List<String> functions,
            List<String> jvmArgs,
            Path work,
            Path json,
            ColdStartLauncher.ClassData classData,
            String priming,
            Path compareRepository,
            String compareLabel) {

        static Options parse(String[] args) {
            Map<String, String> values = new HashMap<>();
            for (String arg : args) {
                if (!arg.startsWith("--") || !arg.contains("=")) {
                    throw new IllegalArgumentException("expected --name=value, got '" + arg + "'");
                }
                values.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
            }
            Path repository =
                    Path.of(required(values, "repository")).toAbsolutePath().normalize();
            Path work = Path.of(values.getOrDefault(
                    "work", repository.resolve("benchmarks/target/cold-start").toString()));
            String functions = values.getOrDefault("functions", "all").trim();
            String jvmArgs = values.getOrDefault("jvm-args", "").trim();
            return new Options(
                    repository,
                    Path.of(required(values, "runtime-client")),
                    Path.of(required(values, "hello-jar")),
                    positive(values.getOrDefault("runs", "7"), "runs"),
                    Integer.parseInt(values.getOrDefault("warmups", "1")),
                    functions.isEmpty() || functions.equals("all")
                            ? List.of()
                            : Arrays.stream(functions.split(","))
                                    .map(String::trim)
                                    .filter(s -> !s.isEmpty())
                                    .toList(),
                    jvmArgs.isEmpty() ? List.of() : List.of(jvmArgs.split("\\s+")),
                    work,
                    Path.of(values.getOrDefault(
                            "json",
                            repository
                                    .resolve("benchmarks/target/cold-start.json")
                                    .toString())),
                    ColdStartLauncher.ClassData.valueOf(
                            values.getOrDefault("class-data", "none").trim().toUpperCase(Locale.ROOT)),
                    values.getOrDefault("priming", "auto").trim(),
                    values.getOrDefault("compare-repository", "").isBlank()
                            ? null
                            : Path.of(values.get("compare-repository").trim())
                                    .toAbsolutePath()
                                    .normalize(),
                    values.getOrDefault("compare-label", "compared").trim());
        }

        private static String required(Map<String, String> values, String name) {
            String v = values.get(name);
            if (v == null || v.isBlank()) {
                throw new IllegalArgumentException("missing --" + name + "=…");
            }
            return v;
        }

        private static int positive(String raw, String name) {
            int n = Integer.parseInt(raw.trim());
            if (n < 1) {
                throw new IllegalArgumentException("--" + name + " must be at least 1, got " + n);
            }
            return n;
        }
    }
}
