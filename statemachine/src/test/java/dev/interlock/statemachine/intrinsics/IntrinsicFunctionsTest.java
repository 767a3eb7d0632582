package dev.interlock.statemachine.intrinsics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Random;
import org.junit.jupiter.api.Test;

class IntrinsicFunctionsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final JsonNode INPUT = json("""
            {"name":"world","n":3,"list":[1,2,2,3,1],"obj":{"a":1,"b":{"x":1}},"other":{"b":2,"c":3},
             "csv":"a,b,,c","text":"hello","json":"{\\"k\\":[1,2]}","b64":"aGVsbG8="}""");

    private final IntrinsicFunctions functions = new IntrinsicFunctions(new Random(7));

    private static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private JsonNode eval(String expression) {
        return functions.evaluate(expression, path -> {
            java.util.Optional<JsonNode> v = dev.interlock.statemachine.json.JsonPaths.read(INPUT, path);
            return v.orElseThrow(() -> new IllegalArgumentException("missing " + path));
        });
    }

    @Test
    void format() {
        assertThat(eval("States.Format('Hello, {}! n={} ok={} none={}', $.name, $.n, true, null)")
                        .asText())
                .isEqualTo("Hello, world! n=3 ok=true none=null");
        assertThat(eval("States.Format('literal \\{\\} and {}', $.obj)").asText())
                .isEqualTo("literal {} and {\"a\":1,\"b\":{\"x\":1}}");
        assertThat(eval("States.Format('quote \\'{}\\'', 'x')").asText()).isEqualTo("quote 'x'");
        assertThatThrownBy(() -> eval("States.Format('{} {}', 1)"))
                .isInstanceOf(IntrinsicException.class)
                .hasMessageContaining("more placeholders");
        assertThatThrownBy(() -> eval("States.Format('{}', 1, 2)")).hasMessageContaining("2 arguments for 1");
    }

    @Test
    void jsonConversions() {
        assertThat(eval("States.StringToJson($.json)")).isEqualTo(json("{\"k\":[1,2]}"));
        assertThat(eval("States.JsonToString($.obj)").asText()).isEqualTo("{\"a\":1,\"b\":{\"x\":1}}");
        assertThatThrownBy(() -> eval("States.StringToJson('{bad')")).hasMessageContaining("not valid JSON");
    }

    @Test
    void arrays() {
        assertThat(eval("States.Array($.n, 'two', States.Array())")).isEqualTo(json("[3,\"two\",[]]"));
        assertThat(eval("States.ArrayPartition($.list, 2)")).isEqualTo(json("[[1,2],[2,3],[1]]"));
        assertThat(eval("States.ArrayContains($.list, 3)").asBoolean()).isTrue();
        assertThat(eval("States.ArrayContains($.list, 4)").asBoolean()).isFalse();
        assertThat(eval("States.ArrayRange(1, 9, 2)")).isEqualTo(json("[1,3,5,7,9]"));
        assertThat(eval("States.ArrayRange(5, 0, -2)")).isEqualTo(json("[5,3,1]"));
        assertThat(eval("States.ArrayGetItem($.list, 3)")).isEqualTo(json("3"));
        assertThat(eval("States.ArrayLength($.list)")).isEqualTo(json("5"));
        assertThat(eval("States.ArrayUnique($.list)")).isEqualTo(json("[1,2,3]"));
    }

    @Test
    void arrayArgumentErrors() {
        assertThatThrownBy(() -> eval("States.ArrayGetItem($.list, 5)")).hasMessageContaining("out of bounds");
        assertThatThrownBy(() -> eval("States.ArrayPartition($.list, 0)")).hasMessageContaining("positive");
        assertThatThrownBy(() -> eval("States.ArrayRange(1, 2, 0)")).hasMessageContaining("step");
        assertThatThrownBy(() -> eval("States.ArrayRange(0, 5000, 1)")).hasMessageContaining("more than 1000");
        assertThatThrownBy(() -> eval("States.ArrayLength($.name)")).hasMessageContaining("must be an array");
        assertThatThrownBy(() -> eval("States.ArrayGetItem($.list, 1.5)")).hasMessageContaining("integer");
    }

    @Test
    void base64AndHash() {
        assertThat(eval("States.Base64Encode($.text)").asText()).isEqualTo("aGVsbG8=");
        assertThat(eval("States.Base64Decode($.b64)").asText()).isEqualTo("hello");
        assertThatThrownBy(() -> eval("States.Base64Decode('***')")).hasMessageContaining("not Base64");
        assertThat(eval("States.Hash($.text, 'MD5')").asText()).isEqualTo("5d41402abc4b2a76b9719d911017c592");
        assertThat(eval("States.Hash($.text, 'SHA-1')").asText()).isEqualTo("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d");
        assertThat(eval("States.Hash($.text, 'SHA-256')").asText())
                .isEqualTo("2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824");
        assertThat(eval("States.Hash($.text, 'SHA-384')").asText()).hasSize(96);
        assertThat(eval("States.Hash($.text, 'SHA-512')").asText()).startsWith("9b71d224bd62f378");
        assertThatThrownBy(() -> eval("States.Hash($.text, 'SHA-3')")).hasMessageContaining("unsupported algorithm");
    }

    @Test
    void jsonMergeIsShallow() {
        assertThat(eval("States.JsonMerge($.obj, $.other, false)")).isEqualTo(json("{\"a\":1,\"b\":2,\"c\":3}"));
        assertThatThrownBy(() -> eval("States.JsonMerge($.obj, $.other, true)")).hasMessageContaining("shallow");
        assertThatThrownBy(() -> eval("States.JsonMerge($.obj, $.list, false)")).hasMessageContaining("objects");
    }

    @Test
    void math() {
        assertThat(eval("States.MathAdd($.n, -5)")).isEqualTo(json("-2"));
        assertThat(eval("States.MathAdd(2147483647, 1)").asLong()).isEqualTo(2147483648L);
        int random = eval("States.MathRandom(10, 20)").asInt();
        assertThat(random).isBetween(10, 19);
        assertThat(eval("States.MathRandom(1, 1000, 42)")).isEqualTo(eval("States.MathRandom(1, 1000, 42)"));
        assertThatThrownBy(() -> eval("States.MathRandom(5, 5)")).hasMessageContaining("less than");
        assertThatThrownBy(() -> eval("States.MathAdd('1', 2)")).hasMessageContaining("integer");
    }

    @Test
    void stringSplitUsesEveryDelimiterCharacter() {
        assertThat(eval("States.StringSplit($.csv, ',')")).isEqualTo(json("[\"a\",\"b\",\"c\"]"));
        assertThat(eval("States.StringSplit('This.is+a,test=string', '.+,=')"))
                .isEqualTo(json("[\"This\",\"is\",\"a\",\"test\",\"string\"]"));
    }

    @Test
    void uuidIsVersion4AndDrawnFromTheInjectedRandom() {
        String uuid = eval("States.UUID()").asText();
        assertThat(uuid).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat(new IntrinsicFunctions(new Random(7))
                        .evaluate("States.UUID()", p -> null)
                        .asText())
                .isEqualTo(uuid);
    }

    @Test
    void nestedCallsUpToTheDocumentedDepth() {
        JsonNode arn =
                json("{\"ImageRecipe\":{\"Arn\":\"arn:aws:imagebuilder:us-east-1:123:image-recipe/my.recipe/1\"}}");
        JsonNode result = functions.evaluate(
                "States.Format('{}.{}', States.ArrayGetItem(States.StringSplit("
                        + "States.ArrayGetItem(States.StringSplit($.ImageRecipe.Arn, '/'), 1), '.'), 0), "
                        + "States.ArrayGetItem(States.StringSplit(States.ArrayGetItem(States.StringSplit("
                        + "$.ImageRecipe.Arn, '/'), 1), '.'), 1))",
                path -> dev.interlock.statemachine.json.JsonPaths.read(arn, path)
                        .orElseThrow());
        assertThat(result.asText()).isEqualTo("my.recipe");
    }

    @Test
    void unknownFunctionsAndWrongArityFail() {
        assertThatThrownBy(() -> eval("States.Nope()")).hasMessageContaining("Unknown intrinsic function States.Nope");
        assertThatThrownBy(() -> eval("States.ArrayLength()")).hasMessageContaining("expects 1 argument");
    }
}
