package dev.interlock.model.alert;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** {@code docs/operations.md} tells the on-call engineer what every alert kind means and what to do about it. */
class AlertKindDocTest {

    @Test
    void everyAlertKindHasARowInTheOperationsPage() throws IOException {
        String page = Files.readString(Path.of("..", "docs", "operations.md"));
        assertThat(Arrays.stream(AlertKind.values())
                        .map(AlertKind::wireName)
                        .filter(kind -> !page.contains("\n| `" + kind + "` |")))
                .as("alert kinds without a row in docs/operations.md")
                .isEmpty();
    }
}
