package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.trait.BuiltinEvaluator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The reference pages name every field registration accepts: a field added to a document's shape (and so accepted by
 * the validator) without a line in {@code docs/} fails here, so the reference cannot fall behind the code.
 */
class PipelineReferenceTest {

    private static final Path DOCS = Path.of("..", "docs");

    private static String read(String page) throws IOException {
        return Files.readString(DOCS.resolve(page));
    }

    /** The lines of {@code page} from the heading {@code from} to the next heading of its level or above (code blocks skipped). */
    private static String section(String page, String from) {
        int level = from.indexOf(' ');
        StringBuilder out = new StringBuilder();
        boolean inside = false;
        boolean code = false;
        for (String line : page.lines().toList()) {
            if (line.startsWith("```")) {
                code = !code;
            }
            int hashes = code ? 0 : (int) line.chars().takeWhile(c -> c == '#').count();
            boolean heading = hashes > 0 && line.length() > hashes && line.charAt(hashes) == ' ';
            if (line.equals(from)) {
                inside = true;
            } else if (inside && heading && hashes <= level) {
                break;
            }
            if (inside) {
                out.append(line).append('\n');
            }
        }
        assertThat(out).as("heading '" + from + "'").isNotEmpty();
        return out.toString();
    }

    @Test
    void everyPipelineFieldIsInTheReference() throws IOException {
        String page = read("pipeline-reference.md");
        List<String> missing = new ArrayList<>();
        Map<String, Shape> topLevel = ((Shape.Obj) DocumentShapes.PIPELINE).fields();
        Set<Shape> walked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map.Entry<String, Shape> field : topLevel.entrySet()) {
            expect(page, "`" + field.getKey() + "`", missing);
            if (field.getValue() instanceof Shape.Tagged trigger) {
                trigger.variants().forEach((type, variant) -> {
                    String typeSection = section(page, "### trigger type `" + type + "`");
                    variant.fields().keySet().forEach(name -> expect(typeSection, "`" + name + "`", missing));
                });
            } else {
                walk(page, field.getValue(), field.getKey(), walked, missing);
            }
        }
        for (BuiltinEvaluator builtin : BuiltinEvaluator.values()) {
            expect(page, "builtin:" + builtin.wireName(), missing);
        }
        assertThat(missing)
                .as("fields the validator accepts but docs/pipeline-reference.md does not name")
                .isEmpty();
    }

    @Test
    void everyArchetypeAndCalendarFieldIsInTheirPage() throws IOException {
        String page = read("archetypes-and-calendars.md");
        List<String> missing = new ArrayList<>();
        String archetypes = section(page, "## Archetypes");
        Set<Shape> walked = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Map.Entry<String, Shape> field :
                ((Shape.Obj) DocumentShapes.ARCHETYPE).fields().entrySet()) {
            expect(archetypes, "`" + field.getKey() + "`", missing);
            walk(archetypes, field.getValue(), field.getKey(), walked, missing);
        }
        String calendars = section(page, "## Calendars");
        for (String field : ((Shape.Obj) DocumentShapes.CALENDAR).fields().keySet()) {
            expect(calendars, "`" + field + "`", missing);
        }
        assertThat(missing)
                .as("fields the validator accepts but docs/archetypes-and-calendars.md does not name")
                .isEmpty();
    }

    /** Nested fields as {@code retry.maxAttempts}, {@code traits.<trait>.ttl}, {@code schedules[].after}; a shape met twice (an alias) once. */
    private static void walk(String page, Shape shape, String path, Set<Shape> walked, List<String> missing) {
        switch (shape) {
            case Shape.Obj obj -> {
                if (!walked.add(obj)) {
                    return;
                }
                obj.fields().forEach((name, child) -> {
                    String childPath = path + "." + name;
                    expect(page, "`" + childPath + "`", missing);
                    walk(page, child, childPath, walked, missing);
                });
            }
            case Shape.MapOf map -> walk(page, map.values(), path + ".<" + singular(path) + ">", walked, missing);
            case Shape.ListOf list -> walk(page, list.elements(), path + "[]", walked, missing);
            default -> {}
        }
    }

    private static String singular(String path) {
        String last = path.substring(path.lastIndexOf('.') + 1);
        return last.endsWith("s") ? last.substring(0, last.length() - 1) : last;
    }

    private static void expect(String text, String needle, List<String> missing) {
        if (!text.contains(needle)) {
            missing.add(needle);
        }
    }
}
