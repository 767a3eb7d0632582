package dev.interlock.bench;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What the AWS SDK's region metadata costs a function's cold start (a main, never a test; JDK only, so it runs with
 * the source launcher): {@code java benchmarks/src/main/java/dev/interlock/bench/RegionMetadataCost.java
 * lambdas/trigger/target/trigger-lambda.jar 5}.
 *
 * <p>The SDK's {@code MetadataLoader} creates {@code GeneratedServiceMetadataProvider}, whose static initialiser
 * instantiates one {@code ServiceMetadata} class per AWS service (313 in SDK 2.x here), whichever services the function
 * calls. In fresh JVMs (the cold-start benchmark's flags) this times that initialiser alone, after what a lean
 * provider would still load (the region, the map builder, the metadata of the services the function calls), and
 * counts the classes it loads: the most a lean provider could save. Prints each run and the median.
 */
public final class RegionMetadataCost {

    private static final String CHILD = "--child";

    private RegionMetadataCost() {}

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals(CHILD)) {
            child(args[1]);
            return;
        }
        Path jar = Path.of(args[0]).toAbsolutePath();
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Path classes = Files.createTempDirectory("region-metadata-cost");
        Path source = Path.of(RegionMetadataCost.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String javac = Path.of(System.getProperty("java.home"), "bin", "javac").toString();
        Path self = Files.isRegularFile(source) && source.toString().endsWith(".java")
                ? source
                : Path.of("benchmarks/src/main/java/dev/interlock/bench/RegionMetadataCost.java");
        run(List.of(javac, "-d", classes.toString(), self.toString()));
        List<Double> millis = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            String out = run(List.of(
                    java,
                    "-XX:+TieredCompilation",
                    "-XX:TieredStopAtLevel=1",
                    "-XX:+UseSerialGC",
                    "-Xshare:auto",
                    "-Xmx440m",
                    "-cp",
                    jar + File.pathSeparator + classes,
                    RegionMetadataCost.class.getName(),
                    CHILD,
                    "us-east-1"));
            lines.add(out.strip());
            millis.add(Double.parseDouble(out.strip().split(" ")[0]));
        }
        lines.forEach(l -> System.out.println("run: " + l));
        List<Double> sorted = millis.stream().sorted().toList();
        System.out.printf(
                "median of %d: %.1f ms to initialise GeneratedServiceMetadataProvider (%s)%n",
                runs, sorted.get(sorted.size() / 2), jar.getFileName());
    }

    /** In the fresh JVM: time the provider's static initialiser after what a lean provider would load anyway. */
    private static void child(String region) throws Exception {
        ClassLoader loader = RegionMetadataCost.class.getClassLoader();
        var classLoading = ManagementFactory.getClassLoadingMXBean();
        Class.forName("software.amazon.awssdk.regions.Region", true, loader)
                .getMethod("of", String.class)
                .invoke(null, region);
        Class.forName("software.amazon.awssdk.utils.ImmutableMap", true, loader)
                .getMethod("builder")
                .invoke(null);
        Class.forName("software.amazon.awssdk.regions.servicemetadata.DynamodbServiceMetadata", true, loader)
                .getConstructor()
                .newInstance();
        long loadedBefore = classLoading.getTotalLoadedClassCount();
        long start = System.nanoTime();
        Class.forName("software.amazon.awssdk.regions.GeneratedServiceMetadataProvider", true, loader);
        long nanos = System.nanoTime() - start;
        System.out.printf(
                "%.2f ms, %d classes loaded%n", nanos / 1e6, classLoading.getTotalLoadedClassCount() - loadedBefore);
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (p.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed:\n" + out);
        }
        return out;
    }
}
