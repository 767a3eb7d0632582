package dev.interlock.model.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class InterlockVersionTest {

    /** The build filled in the pom's version: not the placeholder, and the same as the parent pom's. */
    @Test
    void theVersionIsThePomsVersion() throws Exception {
        String pom = Files.readString(Path.of("..", "pom.xml"));
        Matcher own = Pattern.compile("<artifactId>interlock-parent</artifactId>\\s*<version>([^<]+)</version>")
                .matcher(pom);
        assertThat(own.find()).as("the parent pom's own version").isTrue();
        assertThat(InterlockVersion.current()).isEqualTo(own.group(1)).doesNotContain("${");
    }
}
