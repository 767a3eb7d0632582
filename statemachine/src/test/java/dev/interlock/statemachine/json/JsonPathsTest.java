package dev.interlock.statemachine.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import org.junit.jupiter.api.Test;

class JsonPathsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static JsonNode json(String text) throws Exception {
        return MAPPER.readTree(text);
    }

    @Test
    void readsDefiniteIndefiniteMissingAndNull() throws Exception {
        JsonNode doc = json("{\"a\":{\"b\":[1,2,{\"c\":\"x\"}]},\"n\":null,\"odd key\":1}");
        assertThat(JsonPaths.read(doc, "$")).contains(doc);
        assertThat(JsonPaths.read(doc, "$.a.b[2].c")).contains(TextNode.valueOf("x"));
        assertThat(JsonPaths.read(doc, "$['odd key']")).contains(json("1"));
        assertThat(JsonPaths.read(doc, "$.a.b[*]")).contains(json("[1,2,{\"c\":\"x\"}]"));
        assertThat(JsonPaths.read(doc, "$.n")).contains(NullNode.getInstance());
        assertThat(JsonPaths.read(doc, "$.missing")).isEmpty();
        assertThat(JsonPaths.read(doc, "$.a.missing.deeper")).isEmpty();
        assertThat(JsonPaths.read(doc, "$.a.b[7]")).as("out-of-range index").isEmpty();
        assertThat(JsonPaths.read(json("[null]"), "$[0]")).contains(NullNode.getInstance());
    }

    @Test
    void writeCreatesIntermediatesAndLeavesTheOriginalAlone() throws Exception {
        JsonNode doc = json("{\"a\":{\"k\":1}}");
        JsonNode written = JsonPaths.write(doc, "$.a.b.c", json("[1]"));
        assertThat(written).isEqualTo(json("{\"a\":{\"k\":1,\"b\":{\"c\":[1]}}}"));
        assertThat(doc).isEqualTo(json("{\"a\":{\"k\":1}}"));
        assertThat(JsonPaths.write(doc, "$", json("2"))).isEqualTo(json("2"));
        assertThat(JsonPaths.write(doc, "$['with space']", json("true")))
                .isEqualTo(json("{\"a\":{\"k\":1},\"with space\":true}"));
    }

    @Test
    void writeReplacesExistingArrayElements() throws Exception {
        assertThat(JsonPaths.write(json("{\"a\":[0,1]}"), "$.a[1]", json("9"))).isEqualTo(json("{\"a\":[0,9]}"));
        assertThatThrownBy(() -> JsonPaths.write(json("{\"a\":[0]}"), "$.a[3]", json("9")))
                .isInstanceOf(PathException.class);
    }

    @Test
    void writeRejectsScalarsIndefinitePathsAndNonObjectRoots() throws Exception {
        assertThatThrownBy(() -> JsonPaths.write(json("{\"a\":1}"), "$.a.b", json("1")))
                .isInstanceOf(PathException.class)
                .hasMessageContaining("not an object");
        assertThatThrownBy(() -> JsonPaths.write(json("{}"), "$.a[*]", json("1")))
                .isInstanceOf(PathException.class)
                .hasMessageContaining("not a reference path");
        assertThatThrownBy(() -> JsonPaths.write(json("\"text\""), "$.a", json("1")))
                .isInstanceOf(PathException.class);
    }

    @Test
    void validity() {
        assertThat(JsonPaths.isValid("$.a[0].b")).isTrue();
        assertThat(JsonPaths.isValid("a.b")).isFalse();
        assertThat(JsonPaths.isReferencePath("$.a.b")).isTrue();
        assertThat(JsonPaths.isReferencePath("$..b")).isFalse();
    }
}
