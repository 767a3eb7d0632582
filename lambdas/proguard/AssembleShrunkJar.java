import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import java.util.zip.ZipOutputStream;

/**
 * Builds a function's deployable jar from its shaded jar and ProGuard's output: every entry of the shaded jar, in its
 * order and byte for byte, except the class files under the shrunk package prefixes, which are taken from ProGuard's
 * output when ProGuard kept them and left out when it did not.
 *
 * <p>Before writing anything it checks that nothing ProGuard could not see needs a shrunk class: a class outside the
 * shrunk prefixes (a library to ProGuard, copied unchanged) that names one, or a resource that lists one for
 * {@code ServiceLoader} ({@code META-INF/services/*}) or for the SDK's interceptor loading
 * ({@code execution.interceptors}). Either fails the build, naming the class, because it would otherwise fail only at
 * run time, with a {@code NoClassDefFoundError} on some path the tests may not take.
 *
 * <p>Run with the JDK's source launcher: {@code java AssembleShrunkJar.java <shaded.jar> <proguard-out.jar>
 * <deployable.jar> --shrunk=<prefix>... --root=<prefix>...}, prefixes in jar-path form: {@code --shrunk} the packages
 * ProGuard shrank ({@code software/amazon/awssdk/services/}), {@code --root} those it kept whole as the roots of its
 * tracing ({@code dev/interlock/}), whose references it therefore followed.
 */
public final class AssembleShrunkJar {

    /** A class name, dotted or in jar-path form, starting at one of the prefixes (filled in per run). */
    private static final String NAME_CHARS = "[A-Za-z0-9_$./]+";

    private AssembleShrunkJar() {}

    public static void main(String[] args) throws IOException {
        List<String> prefixes = new ArrayList<>();
        List<String> roots = new ArrayList<>();
        List<String> files = new ArrayList<>();
        for (String arg : args) {
            if (arg.startsWith("--shrunk=")) {
                prefixes.add(arg.substring("--shrunk=".length()));
            } else if (arg.startsWith("--root=")) {
                roots.add(arg.substring("--root=".length()));
            } else {
                files.add(arg);
            }
        }
        if (files.size() != 3 || prefixes.isEmpty()) {
            System.err.println("usage: java AssembleShrunkJar.java <shaded.jar> <proguard-out.jar> <deployable.jar> "
                    + "--shrunk=<prefix>... [--root=<prefix>...]");
            System.exit(2);
        }
        Path shadedPath = Path.of(files.get(0));
        Path shrunkPath = Path.of(files.get(1));
        Path out = Path.of(files.get(2)).toAbsolutePath();

        try (ZipFile shaded = new ZipFile(shadedPath.toFile());
                ZipFile shrunk = new ZipFile(shrunkPath.toFile())) {
            Set<String> shadedNames = names(shaded);
            Set<String> kept = new HashSet<>();
            for (String name : names(shrunk)) {
                if (isShrinkable(name, prefixes)) {
                    if (!shadedNames.contains(name)) {
                        throw new IllegalStateException("ProGuard wrote " + name + ", which is not in " + shadedPath);
                    }
                    kept.add(name);
                }
            }

            List<String> problems = problems(shaded, prefixes, roots, kept);
            if (!problems.isEmpty()) {
                System.err.println("The shrunk jar would miss classes that are needed where ProGuard cannot see it:");
                problems.forEach(p -> System.err.println("  " + p));
                System.err.println(
                        "Keep them in lambdas/proguard/lambda-jar.pro (or make the referring code a program class there).");
                System.exit(1);
            }

            Set<String> keptDirectories = new HashSet<>();
            for (String name : kept) {
                for (int i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
                    keptDirectories.add(name.substring(0, i + 1));
                }
            }
            Path partial = out.resolveSibling(out.getFileName() + ".part");
            int shrinkable = 0;
            try (OutputStream file = Files.newOutputStream(partial);
                    ZipOutputStream zip = new ZipOutputStream(file)) {
                // The deployable jar is written once and read at every cold start: the best compression costs the build
                // a second and keeps the jar well inside Lambda's limits (inflating is as fast either way).
                zip.setLevel(java.util.zip.Deflater.BEST_COMPRESSION);
                for (ZipEntry entry : Collections.list(shaded.entries())) {
                    String name = entry.getName();
                    ZipFile source = shaded;
                    if (isShrinkable(name, prefixes)) {
                        shrinkable++;
                        if (!kept.contains(name)) {
                            continue;
                        }
                        source = shrunk;
                    } else if (entry.isDirectory()
                            && startsWithAny(name, prefixes)
                            && !keptDirectories.contains(name)) {
                        continue;
                    }
                    ZipEntry copy = new ZipEntry(name);
                    copy.setTime(entry.getTime());
                    zip.putNextEntry(copy);
                    try (InputStream in = source.getInputStream(source.getEntry(name))) {
                        in.transferTo(zip);
                    }
                    zip.closeEntry();
                }
            }
            Files.move(partial, out, StandardCopyOption.REPLACE_EXISTING);
            System.out.printf(
                    "%s: kept %d of %d classes under %s; %,d -> %,d bytes%n",
                    out.getFileName(), kept.size(), shrinkable, prefixes, Files.size(shadedPath), Files.size(out));
        }
    }

    /** Shrunk-away classes that unshrunk classes or resources name. */
    private static List<String> problems(ZipFile shaded, List<String> prefixes, List<String> roots, Set<String> kept)
            throws IOException {
        StringBuilder alternatives = new StringBuilder();
        for (String prefix : prefixes) {
            alternatives
                    .append(alternatives.isEmpty() ? "" : "|")
                    .append(Pattern.quote(prefix).replace("/", "\\E[./]\\Q"));
        }
        Pattern reference = Pattern.compile("(?:" + alternatives + ")" + NAME_CHARS);
        Map<String, Set<String>> missing = new HashMap<>();
        for (ZipEntry entry : Collections.list(shaded.entries())) {
            String name = entry.getName();
            if (entry.isDirectory() || isShrinkable(name, prefixes)) {
                continue;
            }
            boolean providerList = name.startsWith("META-INF/services/") || name.endsWith("execution.interceptors");
            // The roots were kept whole by ProGuard, so what they name was traced.
            boolean unseenClass = name.endsWith(".class") && !startsWithAny(name, roots);
            if (!providerList && !unseenClass) {
                continue;
            }
            String text;
            try (InputStream in = shaded.getInputStream(entry)) {
                // Class-file constant pools hold names as (modified) UTF-8; ISO-8859-1 keeps every byte one char.
                text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            }
            Matcher m = reference.matcher(text);
            while (m.find()) {
                String referenced = m.group().replace('.', '/');
                // A descriptor or a longer constant may run on past the class name; try each shorter candidate.
                for (String candidate : candidates(referenced)) {
                    String classFile = candidate + ".class";
                    if (shaded.getEntry(classFile) != null) {
                        if (!kept.contains(classFile)) {
                            missing.computeIfAbsent(classFile, k -> new TreeSet<>())
                                    .add(name);
                        }
                        break;
                    }
                }
            }
        }
        List<String> problems = new ArrayList<>();
        missing.forEach((cls, users) -> problems.add(cls + " (named by " + String.join(", ", users) + ")"));
        Collections.sort(problems);
        return problems;
    }

    /** {@code a/b/C/x} → {@code a/b/C/x}, {@code a/b/C}, … longest first, without trailing separators. */
    private static Set<String> candidates(String referenced) {
        Set<String> result = new LinkedHashSet<>();
        String s = referenced.endsWith("/") ? referenced.substring(0, referenced.length() - 1) : referenced;
        while (!s.isEmpty()) {
            result.add(s);
            int cut = s.lastIndexOf('/');
            if (cut < 0) {
                break;
            }
            s = s.substring(0, cut);
        }
        return result;
    }

    private static boolean isShrinkable(String name, List<String> prefixes) {
        return name.endsWith(".class") && startsWithAny(name, prefixes);
    }

    private static boolean startsWithAny(String name, List<String> prefixes) {
        return prefixes.stream().anyMatch(name::startsWith);
    }

    private static Set<String> names(ZipFile zip) {
        Set<String> names = new HashSet<>();
        Collections.list(zip.entries()).forEach(e -> names.add(e.getName()));
        return names;
    }
}
