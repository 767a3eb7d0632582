package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every context option is known to the near-miss check and documented in infra-cdk/README.md with an example. */
class ContextOptionsDocumentedTest {

    /** The context keys DeploymentOptions declares: its public static String constants. */
    private static List<String> declaredKeys() throws IllegalAccessException {
        List<String> keys = new ArrayList<>();
        for (Field field : DeploymentOptions.class.getDeclaredFields()) {
            int modifiers = field.getModifiers();
            if (Modifier.isPublic(modifiers) && Modifier.isStatic(modifiers) && field.getType() == String.class) {
                keys.add((String) field.get(null));
            }
        }
        return keys;
    }

    @Test
    void everyDeclaredKeyIsAnOption() throws IllegalAccessException {
        assertThat(DeploymentOptions.OPTIONS).containsExactlyInAnyOrderElementsOf(declaredKeys());
    }

    @Test
    void everyOptionHasARowAndAnExampleInTheReadme() throws IOException {
        String readme = Files.readString(Path.of("README.md"));
        List<String> undocumented = new ArrayList<>();
        for (String key : DeploymentOptions.OPTIONS) {
            if (!readme.contains("| `" + key + "` |") || !readme.contains("-c " + key + "=")) {
                undocumented.add(key);
            }
        }
        assertThat(undocumented)
                .as("options without a table row and a -c example in infra-cdk/README.md")
                .isEmpty();
    }
}
