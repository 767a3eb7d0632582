package dev.interlock.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/api.md} names every route the API answers and every problem type it refuses with, so the design note
 * cannot fall behind the route table (the OpenAPI document is held to the same table by {@link OpenApiDocumentTest}).
 */
class ApiDocTest {

    private static final Path PAGE = Path.of("..", "..", "docs", "api.md");

    @Test
    void everyRouteIsInTheApiPage() throws IOException {
        String page = Files.readString(PAGE);
        List<String> missing = new ArrayList<>();
        for (RouteTable.Route route : new ApiFixture().api.routes().routes()) {
            String written = "`" + route.method() + " " + route.template() + "`";
            if (!page.contains(written)) {
                missing.add(written);
            }
        }
        assertThat(missing)
                .as("routes of the API that docs/api.md does not list")
                .isEmpty();
    }

    @Test
    void everyProblemTypeIsInTheApiPage() throws IOException {
        String page = Files.readString(PAGE);
        List<String> missing = new ArrayList<>();
        for (ProblemType type : ProblemType.values()) {
            if (!page.contains("`" + type.uri() + "` | " + type.status() + " |")) {
                missing.add(type.uri() + " (" + type.status() + ")");
            }
        }
        assertThat(missing)
                .as("problem types that docs/api.md does not list with their status")
                .isEmpty();
    }
}
