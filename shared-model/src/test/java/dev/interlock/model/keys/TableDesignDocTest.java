package dev.interlock.model.keys;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.runtime.TableDefinition;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@code docs/table-design.md} names every key {@link TableKeys} can spell — each public key constant, the literal
 * head of every key its methods build, and each method by name — and the attributes of {@link TableDefinition}, so a
 * new item type cannot be added to the table without its line in the design note.
 */
class TableDesignDocTest {

    private static final Path PAGE = Path.of("..", "docs", "table-design.md");
    /** The literal start of a key: upper-case segments ending in '#' ({@code WATCHDOG#DUE#}), or one whole word ({@code CONFIG}). */
    private static final Pattern LITERAL_HEAD = Pattern.compile("^(?:[A-Z]+#)+|^[A-Z]+$");

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final Instant INSTANT = Instant.parse("2026-03-01T06:00:00Z");

    @Test
    void everyKeyPrefixAndKeyMethodIsInTheTableDesign() throws IOException, ReflectiveOperationException {
        String page = Files.readString(PAGE);
        Set<String> missing = new TreeSet<>();
        for (Field field : TableKeys.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                expect(page, "`" + field.get(null), "constant " + field.getName(), missing);
            }
        }
        for (Method method : TableKeys.class.getMethods()) {
            if (method.getDeclaringClass() != TableKeys.class || !Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            List<String> keyParts = keyParts(method);
            if (keyParts == null) {
                continue;
            }
            expect(page, "`" + method.getName(), "method " + method.getName(), missing);
            for (String part : keyParts) {
                Matcher head = LITERAL_HEAD.matcher(part);
                if (head.find()) {
                    expect(page, "`" + head.group(), method.getName() + " builds " + part, missing);
                }
            }
        }
        assertThat(missing)
                .as("keys TableKeys spells that docs/table-design.md does not name")
                .isEmpty();
    }

    @Test
    void theTableDefinitionIsInTheTableDesign() throws IOException {
        String page = Files.readString(PAGE);
        Set<String> missing = new TreeSet<>();
        TableDefinition table = TableDefinition.INTERLOCK;
        List<String> names = new ArrayList<>(List.of(
                table.partitionKey(),
                table.sortKey(),
                table.ttlAttribute(),
                table.streamView().name(),
                table.markerSortKeyPrefix(),
                TableDefinition.DATA,
                TableDefinition.VERSION));
        table.globalIndexes()
                .forEach(index -> names.addAll(List.of(index.name(), index.partitionKey(), index.sortKey())));
        names.forEach(name -> expect(page, "`" + name + "`", "attribute " + name, missing));
        assertThat(missing)
                .as("parts of TableDefinition.INTERLOCK that docs/table-design.md does not name")
                .isEmpty();
    }

    /** The key strings {@code method} builds from sample arguments; null when it builds none (a reader, a number). */
    private static List<String> keyParts(Method method) throws IllegalAccessException {
        Class<?> returned = method.getReturnType();
        if (returned != ItemKey.class && returned != IndexKey.class && returned != String.class) {
            return null;
        }
        Object[] arguments = new Object[method.getParameterCount()];
        Class<?>[] types = method.getParameterTypes();
        for (int i = 0; i < types.length; i++) {
            arguments[i] = sample(types[i]);
        }
        Object key;
        try {
            key = method.invoke(null, arguments);
        } catch (InvocationTargetException e) {
            throw new AssertionError(method.getName() + " refused the sample arguments", e.getCause());
        }
        return switch (key) {
            case null -> null; // a reader of keys (pipelineIdOf, markerSourceOf): "sample" is no key it knows
            case ItemKey item -> List.of(item.pk(), item.sk());
            case IndexKey index -> List.of(index.gsi1pk(), index.gsi1sk());
            case String text -> List.of(text);
            default -> throw new AssertionError(method.getName() + " returned " + key);
        };
    }

    private static Object sample(Class<?> type) {
        if (type == String.class) {
            return "sample";
        } else if (type == LocalDate.class) {
            return DATE;
        } else if (type == Instant.class) {
            return INSTANT;
        } else if (type == long.class) {
            return 1L;
        } else if (type == int.class) {
            return 0;
        } else if (type == MarkerSource.class) {
            return MarkerSource.SCHEDULE;
        } else if (type == AlertKind.class) {
            return AlertKind.STUCK_RUN;
        } else if (type == LockKey.class) {
            return new LockKey("sample", "daily", DATE);
        }
        throw new AssertionError("no sample argument of type " + type.getName() + "; add one here");
    }

    private static void expect(String page, String needle, String what, Set<String> missing) {
        if (!page.contains(needle)) {
            missing.add(what + " (" + needle + ")");
        }
    }
}
