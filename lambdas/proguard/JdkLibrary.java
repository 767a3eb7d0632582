import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import java.util.zip.Deflater;

/**
 * Writes the class files of some of the running JDK's modules into one jar, for ProGuard's {@code -libraryjars}.
 *
 * <p>ProGuard needs the JDK's classes to know the class hierarchy of what it shrinks. It usually reads them from
 * {@code <java.home>/jmods}, but JDKs built with JEP 493 (Temurin 25 among them) ship no {@code jmods}: the classes
 * exist only in the runtime image, which every JDK exposes as the {@code jrt:/} file system. This reads them from
 * there, so the build needs nothing but the JDK running it.
 *
 * <p>Run with the JDK's source launcher: {@code java JdkLibrary.java <out.jar> <module>...}; a module name ending
 * in {@code *} stands for every module with that prefix ({@code java.*}). An up-to-date jar (same JDK, same modules)
 * is left as it is.
 */
public final class JdkLibrary {

    private JdkLibrary() {}

    public static void main(String[] args) throws IOException {
        if (args.length < 2) {
            System.err.println("usage: java JdkLibrary.java <out.jar> <module|prefix*>...");
            System.exit(2);
        }
        Path out = Path.of(args[0]).toAbsolutePath();
        FileSystem jrt = FileSystems.getFileSystem(URI.create("jrt:/"));
        List<Path> modules = modules(jrt, List.of(args).subList(1, args.length));
        String stamp = Runtime.version() + " "
                + modules.stream().map(m -> m.getFileName().toString()).toList();
        if (upToDate(out, stamp)) {
            System.out.println("JDK library up to date: " + out);
            return;
        }
        Files.createDirectories(out.getParent());
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().putValue("Jdk-Library", stamp);
        Path partial = out.resolveSibling(out.getFileName() + ".part");
        int classes = 0;
        try (OutputStream file = Files.newOutputStream(partial);
                JarOutputStream jar = new JarOutputStream(file, manifest)) {
            // Read by ProGuard and thrown away with target/: stored, not compressed, which is several times faster.
            jar.setLevel(Deflater.NO_COMPRESSION);
            for (Path module : modules) {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(module)) {
                    files = walk.filter(p -> p.toString().endsWith(".class"))
                            .filter(p -> !p.getFileName().toString().equals("module-info.class"))
                            .sorted()
                            .toList();
                }
                for (Path f : files) {
                    jar.putNextEntry(new JarEntry(module.relativize(f).toString()));
                    jar.write(Files.readAllBytes(f));
                    jar.closeEntry();
                    classes++;
                }
            }
        }
        Files.move(partial, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        System.out.println("JDK library: " + classes + " classes of " + stamp + " -> " + out);
    }

    private static List<Path> modules(FileSystem jrt, List<String> names) throws IOException {
        List<Path> all;
        try (Stream<Path> list = Files.list(jrt.getPath("/modules"))) {
            all = list.sorted().toList();
        }
        List<Path> chosen = new ArrayList<>();
        for (String name : names) {
            List<Path> matching = all.stream()
                    .filter(m -> {
                        String module = m.getFileName().toString();
                        return name.endsWith("*")
                                ? module.startsWith(name.substring(0, name.length() - 1))
                                : module.equals(name);
                    })
                    .toList();
            if (matching.isEmpty()) {
                throw new IllegalArgumentException(
                        "no module " + name + " in the JDK at " + System.getProperty("java.home"));
            }
            matching.stream().filter(m -> !chosen.contains(m)).forEach(chosen::add);
        }
        return chosen;
    }

    private static boolean upToDate(Path out, String stamp) throws IOException {
        if (!Files.isRegularFile(out)) {
            return false;
        }
        try (var jar = new java.util.jar.JarFile(out.toFile())) {
            Manifest m = jar.getManifest();
            return m != null && stamp.equals(m.getMainAttributes().getValue("Jdk-Library"));
        } catch (IOException e) {
            return false;
        }
    }
}
