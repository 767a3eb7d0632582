package dev.interlock.model.runtime;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * The version of Interlock this code was built as: the pom's {@code project.version}, written into a resource by the
 * build. {@code interlock --version} prints it and the CDK stack tags and outputs it, so a deployment and a CLI can be
 * matched to a release (docs/operations.md, "Upgrading, rolling back, pinning a version").
 */
public final class InterlockVersion {

    static final String RESOURCE = "interlock-version.properties";

    private InterlockVersion() {}

    /** The version, e.g. {@code 0.1.0} or {@code 0.2.0-SNAPSHOT}. */
    public static String current() {
        try (InputStream in = InterlockVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(RESOURCE + " is missing: the build writes it (shared-model)");
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
