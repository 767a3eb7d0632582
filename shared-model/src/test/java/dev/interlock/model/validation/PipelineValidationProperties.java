package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.fixtures.SamplePipelines;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.pipeline.PipelineConfig;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Registration must answer every input with errors or a config, never an exception (the API's "no 5xx" rule). */
class PipelineValidationProperties {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find);

    @Property(tries = 1000)
    void arbitraryTextNeverThrows(@ForAll("documents") String text) {
        Validated<PipelineConfig> result = validation.validateText(text);
        assertThat(result.isValid() ? result.value() : result.errors()).isNotNull();
        assertThat(result.errors()).allSatisfy(e -> assertThat(e.path()).startsWith("$"));
    }

    @Property(tries = 2000)
    void replacingAnyPartOfAValidConfigWithAnyValueGivesErrorsNotExceptions(
            @ForAll("paths") List<Object> path, @ForAll("values") JsonNode replacement) {
        ObjectNode document = (ObjectNode) InterlockJson.tree(SamplePipelines.SILVER_ORDERS_JSON);
        replace(document, path, replacement);
        Validated<PipelineConfig> result = validation.validateTree(document);
        assertThat(result.errors()).allSatisfy(e -> {
            assertThat(e.path()).startsWith("$");
            assertThat(e.message()).isNotBlank();
        });
        assertThat(result.isValid()).isEqualTo(result.value() != null);
    }

    @Provide
    Arbitrary<String> documents() {
        return Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(200),
                Arbitraries.strings().withChars("{}[]:,\"'-# \n\tabc123").ofMaxLength(80),
                Arbitraries.of(SamplePipelines.SILVER_ORDERS_JSON)
                        .flatMap(json ->
                                Arbitraries.integers().between(0, json.length()).map(cut -> json.substring(0, cut))));
    }

    @Provide
    Arbitrary<List<Object>> paths() {
        List<List<Object>> all = new ArrayList<>();
        collect(InterlockJson.tree(SamplePipelines.SILVER_ORDERS_JSON), new ArrayList<>(), all);
        return Arbitraries.of(all);
    }

    @Provide
    Arbitrary<JsonNode> values() {
        Arbitrary<JsonNode> scalars = Arbitraries.oneOf(
                Arbitraries.strings().ofMaxLength(20).map(NODES::textNode),
                Arbitraries.of(
                                "",
                                "06:00",
                                "25:99",
                                "+45m",
                                "-1",
                                "1e400",
                                "NaN",
                                "http",
                                "builtin:nope",
                                "Europe/Berlin")
                        .map(NODES::textNode),
                Arbitraries.integers().map(NODES::numberNode),
                Arbitraries.longs().map(NODES::numberNode),
                Arbitraries.doubles().map(NODES::numberNode),
                Arbitraries.of(true, false).map(NODES::booleanNode),
                Arbitraries.just(NODES.nullNode()));
        return Arbitraries.oneOf(
                scalars,
                scalars.list().ofMaxSize(3).map(list -> {
                    ArrayNode array = NODES.arrayNode();
                    list.forEach(array::add);
                    return array;
                }),
                scalars.list().ofMaxSize(3).map(list -> {
                    ObjectNode object = NODES.objectNode();
                    for (int i = 0; i < list.size(); i++) {
                        object.set(i == 0 ? "type" : "k" + i, list.get(i));
                    }
                    return object;
                }));
    }

    private static void collect(JsonNode node, List<Object> prefix, List<List<Object>> out) {
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> field = it.next();
                List<Object> path = new ArrayList<>(prefix);
                path.add(field.getKey());
                out.add(path);
                collect(field.getValue(), path, out);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<Object> path = new ArrayList<>(prefix);
                path.add(i);
                out.add(path);
                collect(node.get(i), path, out);
            }
        }
    }

    private static void replace(JsonNode root, List<Object> path, JsonNode value) {
        JsonNode parent = root;
        for (int i = 0; i < path.size() - 1; i++) {
            Object step = path.get(i);
            parent = step instanceof Integer index ? parent.get(index) : parent.get((String) step);
        }
        Object last = path.get(path.size() - 1);
        if (last instanceof Integer index) {
            ((ArrayNode) parent).set(index, value);
        } else {
            ((ObjectNode) parent).set((String) last, value);
        }
    }
}
