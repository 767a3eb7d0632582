package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The CDK CLI is pinned to the 2.x line ({@code aws-cdk} 3.x rejects this library's cloud assembly schema); the
 * pinned CLI reading a synthesized assembly is checked in {@link DefaultStackTest}.
 */
class CdkCliTest {

    @Test
    void pinnedCliIsA2xReleaseAndTheLockFileAgrees() throws IOException {
        String packageJson = Files.readString(Path.of("package.json"));
        String lock = Files.readString(Path.of("package-lock.json"));
        assertThat(packageJson).contains("\"aws-cdk\": \"2.1148.1\"");
        assertThat(lock).contains("\"node_modules/aws-cdk\": {\n      \"version\": \"2.1148.1\"");
    }
}
