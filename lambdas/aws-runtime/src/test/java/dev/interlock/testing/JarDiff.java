package dev.interlock.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/** How a deployable jar differs from the shaded jar it was shrunk from, entry by entry. */
public final class JarDiff {

    private final Path before;
    private final Path after;

    private JarDiff(Path before, Path after) {
        this.before = before;
        this.after = after;
    }

    public static JarDiff of(Path before, Path after) {
        return new JarDiff(before, after);
    }

    /** Where ProGuard may remove classes; everything else must be the shaded jar's, byte for byte. */
    public static final String SERVICES = "software/amazon/awssdk/services/";
    /** cron-utils, which ProGuard shrinks too (lambdas/proguard/lambda-jar.pro): only its parser and stepping stay. */
    public static final String CRON_UTILS = "com/cronutils/";
    /** The OpenLineage client and Apache HttpClient 5 (the stream router's lineage events), shrunk too. */
    public static final String OPENLINEAGE = "io/openlineage/";

    public static final String HTTP_CLIENT_5 = "org/apache/hc/";

    /**
     * A trigger or run-checker jar was shrunk as intended: only SDK service classes (and cron-utils) changed (our classes, Jackson, SDK
     * core, resources and service-loader files are the shaded jar's), operations no code calls are gone with their
     * marshallers, and the Glue operation both functions call is still there.
     */
    public static void assertOnlyServiceClassesShrunk(Path unshrunk, Path shrunk) {
        assertOnlyServiceClassesShrunk(unshrunk, shrunk, "glue", "CreateJob", "GetJobRun");
    }

    /**
     * A function's jar was shrunk as intended: only the shrunk packages changed (SDK service classes, cron-utils, the
     * OpenLineage client, HttpClient 5), and of {@code service} an operation no
     * code calls is gone with its marshaller while {@code calledOperation} is still there.
     */
    public static void assertOnlyServiceClassesShrunk(
            Path unshrunk, Path shrunk, String service, String uncalledOperation, String calledOperation) {
        JarDiff diff = of(unshrunk, shrunk);
        org.assertj.core.api.Assertions.assertThat(
                        diff.changedOutside(SERVICES, CRON_UTILS, OPENLINEAGE, HTTP_CLIENT_5))
                .isEmpty();
        String prefix = SERVICES + service + "/";
        org.assertj.core.api.Assertions.assertThat(diff.removedUnder(prefix))
                .hasSizeGreaterThan(500)
                .contains(
                        prefix + "model/" + uncalledOperation + "Response.class",
                        prefix + "transform/" + uncalledOperation + "RequestMarshaller.class")
                .doesNotContain(
                        prefix + "model/" + calledOperation + "Response.class",
                        prefix + "transform/" + calledOperation + "RequestMarshaller.class");
    }

    /** Entries outside the {@code prefixes} that are missing from the second jar or whose bytes differ. */
    public List<String> changedOutside(String... prefixes) {
        List<String> changed = new ArrayList<>();
        try (ZipFile a = new ZipFile(before.toFile());
                ZipFile b = new ZipFile(after.toFile())) {
            for (ZipEntry entry : Collections.list(a.entries())) {
                if (Arrays.stream(prefixes).anyMatch(entry.getName()::startsWith)) {
                    continue;
                }
                ZipEntry other = b.getEntry(entry.getName());
                if (other == null) {
                    changed.add(entry.getName() + " (missing)");
                } else if (!Arrays.equals(
                        a.getInputStream(entry).readAllBytes(),
                        b.getInputStream(other).readAllBytes())) {
                    changed.add(entry.getName() + " (different)");
                }
            }
            for (ZipEntry entry : Collections.list(b.entries())) {
                if (a.getEntry(entry.getName()) == null) {
                    changed.add(entry.getName() + " (added)");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return changed;
    }

    /** Entries under {@code prefix} of the first jar that the second one does not have. */
    public List<String> removedUnder(String prefix) {
        List<String> removed = new ArrayList<>();
        try (ZipFile a = new ZipFile(before.toFile());
                ZipFile b = new ZipFile(after.toFile())) {
            for (ZipEntry entry : Collections.list(a.entries())) {
                if (entry.getName().startsWith(prefix) && b.getEntry(entry.getName()) == null) {
                    removed.add(entry.getName());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return removed;
    }
}
