package dev.interlock.statemachine.intrinsics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.random.RandomGenerator;

/** Evaluates the {@code States.*} intrinsic functions of JSONPath-mode ASL. */
public final class IntrinsicFunctions {

    /** Resolves a {@code $…} or {@code $$…} argument; throws when the path selects nothing. */
    @FunctionalInterface
    public interface PathResolver {
        JsonNode resolve(String path);
    }

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final int MAX_RANGE_LENGTH = 1000;
    private static final Set<String> HASH_ALGORITHMS = Set.of("MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512");

    private final RandomGenerator random;

    /** {@code random} feeds States.UUID and unseeded States.MathRandom, so tests can fix it. */
    public IntrinsicFunctions(RandomGenerator random) {
        this.random = random;
    }

    /** Parses and evaluates one intrinsic call. */
    public JsonNode evaluate(String expression, PathResolver paths) {
        return evaluate(IntrinsicParser.parse(expression), paths);
    }

    private JsonNode evaluate(Intrinsic node, PathResolver paths) {
        return switch (node) {
            case Intrinsic.Call call -> call(call, paths);
            case Intrinsic.PathReference p -> paths.resolve(p.path());
            case Intrinsic.StringLiteral s -> NODES.textNode(s.value());
            case Intrinsic.NumberLiteral n -> number(n.value());
            case Intrinsic.BooleanLiteral b -> NODES.booleanNode(b.value());
            case Intrinsic.NullLiteral n -> NODES.nullNode();
        };
    }

    private JsonNode call(Intrinsic.Call call, PathResolver paths) {
        if (call.function().equals("States.Format")) {
            return format(call, paths);
        }
        List<JsonNode> args = new ArrayList<>();
        for (Intrinsic arg : call.arguments()) {
            args.add(evaluate(arg, paths));
        }
        Args a = new Args(call.function(), args);
        return switch (call.function()) {
            case "States.StringToJson" -> {
                a.count(1);
                try {
                    yield MAPPER.readTree(a.string(0));
                } catch (JsonProcessingException e) {
                    throw a.fail("argument is not valid JSON: " + e.getOriginalMessage());
                }
            }
            case "States.JsonToString" -> {
                a.count(1);
                yield NODES.textNode(args.getFirst().toString());
            }
            case "States.Array" -> {
                ArrayNode array = NODES.arrayNode();
                args.forEach(array::add);
                yield array;
            }
            case "States.ArrayPartition" -> arrayPartition(a);
            case "States.ArrayContains" -> {
                a.count(2);
                yield NODES.booleanNode(containsValue(a.array(0), args.get(1)));
            }
            case "States.ArrayRange" -> arrayRange(a);
            case "States.ArrayGetItem" -> {
                a.count(2);
                ArrayNode array = a.array(0);
                long index = a.integer(1);
                if (index < 0 || index >= array.size()) {
                    throw a.fail("index " + index + " is out of bounds for an array of length " + array.size());
                }
                yield array.get((int) index);
            }
            case "States.ArrayLength" -> {
                a.count(1);
                yield NODES.numberNode(a.array(0).size());
            }
            case "States.ArrayUnique" -> {
                a.count(1);
                Set<JsonNode> unique = new LinkedHashSet<>();
                a.array(0).forEach(unique::add);
                ArrayNode result = NODES.arrayNode();
                unique.forEach(result::add);
                yield result;
            }
            case "States.Base64Encode" -> {
                a.count(1);
                yield NODES.textNode(
                        Base64.getEncoder().encodeToString(a.string(0).getBytes(StandardCharsets.UTF_8)));
            }
            case "States.Base64Decode" -> {
                a.count(1);
                try {
                    yield NODES.textNode(new String(Base64.getDecoder().decode(a.string(0)), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    throw a.fail("argument is not Base64: " + e.getMessage());
                }
            }
            case "States.Hash" -> hash(a);
            case "States.JsonMerge" -> jsonMerge(a);
            case "States.MathRandom" -> mathRandom(a);
            case "States.MathAdd" -> {
                a.count(2);
                long sum = a.integer(0) + a.integer(1);
                yield sum == (int) sum ? NODES.numberNode((int) sum) : NODES.numberNode(sum);
            }
            case "States.StringSplit" -> stringSplit(a);
            case "States.UUID" -> {
                a.count(0);
                yield NODES.textNode(uuid().toString());
            }
            default -> throw new IntrinsicException("Unknown intrinsic function " + call.function());
        };
    }

    private JsonNode format(Intrinsic.Call call, PathResolver paths) {
        if (call.arguments().isEmpty()) {
            throw new IntrinsicException("States.Format: needs a template argument");
        }
        // The raw text keeps \{ apart from {, so escaped braces are not taken for placeholders.
        String template = switch (call.arguments().getFirst()) {
            case Intrinsic.StringLiteral s -> s.raw();
            case Intrinsic other -> {
                JsonNode value = evaluate(other, paths);
                if (!value.isTextual()) {
                    throw new IntrinsicException("States.Format: the template must be a string, got " + value);
                }
                yield value.asText();
            }
        };
        List<JsonNode> values = new ArrayList<>();
        for (Intrinsic arg : call.arguments().subList(1, call.arguments().size())) {
            values.add(evaluate(arg, paths));
        }
        StringBuilder out = new StringBuilder();
        int next = 0;
        for (int i = 0; i < template.length(); i++) {
            char c = template.charAt(i);
            if (c == '\\' && i + 1 < template.length()) {
                out.append(template.charAt(++i));
            } else if (c == '{' && i + 1 < template.length() && template.charAt(i + 1) == '}') {
                if (next >= values.size()) {
                    throw new IntrinsicException(
                            "States.Format: more placeholders than arguments in '" + template + "'");
                }
                JsonNode value = values.get(next++);
                out.append(value.isTextual() ? value.asText() : value.toString());
                i++;
            } else {
                out.append(c);
            }
        }
        if (next != values.size()) {
            throw new IntrinsicException(
                    "States.Format: " + values.size() + " arguments for " + next + " placeholders");
        }
        return NODES.textNode(out.toString());
    }

    private JsonNode arrayPartition(Args a) {
        a.count(2);
        ArrayNode array = a.array(0);
        long size = a.integer(1);
        if (size <= 0) {
            throw a.fail("chunk size must be positive, got " + size);
        }
        ArrayNode result = NODES.arrayNode();
        ArrayNode chunk = null;
        for (int i = 0; i < array.size(); i++) {
            if (i % size == 0) {
                chunk = result.addArray();
            }
            chunk.add(array.get(i));
        }
        return result;
    }

    private JsonNode arrayRange(Args a) {
        a.count(3);
        long start = a.integer(0);
        long end = a.integer(1);
        long step = a.integer(2);
        if (step == 0) {
            throw a.fail("step must not be 0");
        }
        ArrayNode result = NODES.arrayNode();
        for (long v = start; step > 0 ? v <= end : v >= end; v += step) {
            if (result.size() == MAX_RANGE_LENGTH) {
                throw a.fail("the range has more than " + MAX_RANGE_LENGTH + " items");
            }
            result.add(v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v));
        }
        return result;
    }

    private JsonNode hash(Args a) {
        a.count(2);
        JsonNode data = a.args().get(0);
        String algorithm = a.string(1);
        if (!HASH_ALGORITHMS.contains(algorithm)) {
            throw a.fail("unsupported algorithm '" + algorithm + "'; use one of " + HASH_ALGORITHMS);
        }
        String text = data.isTextual() ? data.asText() : data.toString();
        try {
            byte[] digest = MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8));
            return NODES.textNode(HexFormat.of().formatHex(digest));
        } catch (NoSuchAlgorithmException e) {
            throw a.fail("algorithm " + algorithm + " is not available in this JVM");
        }
    }

    private JsonNode jsonMerge(Args a) {
        a.count(3);
        JsonNode left = a.args().get(0);
        JsonNode right = a.args().get(1);
        JsonNode deep = a.args().get(2);
        if (!left.isObject() || !right.isObject()) {
            throw a.fail("both arguments must be JSON objects");
        }
        if (!deep.isBoolean()) {
            throw a.fail("the third argument must be a boolean");
        }
        if (deep.asBoolean()) {
            // Step Functions only implements the shallow mode and rejects true.
            throw a.fail("only shallow merging (false) is supported");
        }
        ObjectNode merged = ((ObjectNode) left).deepCopy();
        merged.setAll((ObjectNode) right.deepCopy());
        return merged;
    }

    private JsonNode mathRandom(Args a) {
        if (a.args().size() != 2 && a.args().size() != 3) {
            throw a.fail("expects 2 or 3 arguments, got " + a.args().size());
        }
        long start = a.integer(0);
        long end = a.integer(1);
        if (start >= end) {
            throw a.fail("start " + start + " must be less than end " + end);
        }
        RandomGenerator source = a.args().size() == 3 ? new Random(a.integer(2)) : random;
        long value = source.nextLong(start, end);
        return value == (int) value ? NODES.numberNode((int) value) : NODES.numberNode(value);
    }

    private JsonNode stringSplit(Args a) {
        a.count(2);
        String text = a.string(0);
        String delimiters = a.string(1);
        ArrayNode result = NODES.arrayNode();
        StringBuilder token = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (delimiters.indexOf(c) >= 0) {
                addToken(result, token);
            } else {
                token.append(c);
            }
        }
        addToken(result, token);
        return result;
    }

    private static void addToken(ArrayNode result, StringBuilder token) {
        // Consecutive delimiters do not produce empty strings.
        if (!token.isEmpty()) {
            result.add(token.toString());
            token.setLength(0);
        }
    }

    private UUID uuid() {
        long most = (random.nextLong() & ~0xF000L) | 0x4000L;
        long least = (random.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(most, least);
    }

    private static boolean containsValue(ArrayNode array, JsonNode value) {
        for (JsonNode item : array) {
            if (item.equals(value)) {
                return true;
            }
        }
        return false;
    }

    private static JsonNode number(BigDecimal value) {
        try {
            return NODES.numberNode(value.intValueExact());
        } catch (ArithmeticException notInt) {
            try {
                return NODES.numberNode(value.longValueExact());
            } catch (ArithmeticException notLong) {
                return NODES.numberNode(value.doubleValue());
            }
        }
    }

    /** Evaluated arguments of one call, with typed accessors that fail with the function's name. */
    private record Args(String function, List<JsonNode> args) {

        void count(int expected) {
            if (args.size() != expected) {
                throw fail("expects " + expected + " argument(s), got " + args.size());
            }
        }

        String string(int i) {
            JsonNode n = args.get(i);
            if (!n.isTextual()) {
                throw fail("argument " + (i + 1) + " must be a string, got " + n);
            }
            return n.asText();
        }

        ArrayNode array(int i) {
            JsonNode n = args.get(i);
            if (!n.isArray()) {
                throw fail("argument " + (i + 1) + " must be an array, got " + n);
            }
            return (ArrayNode) n;
        }

        long integer(int i) {
            JsonNode n = args.get(i);
            if (!n.isNumber() || (!n.isIntegralNumber() && n.asDouble() != Math.rint(n.asDouble()))) {
                throw fail("argument " + (i + 1) + " must be an integer, got " + n);
            }
            return n.asLong();
        }

        IntrinsicException fail(String message) {
            return new IntrinsicException(function + ": " + message);
        }
    }
}
