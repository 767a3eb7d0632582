package dev.interlock.model.validation;

import dev.interlock.model.json.JsonPath;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The expected JSON type of each part of a document. Checking a raw tree against it names every wrong type by
 * path and removes the offending nodes, so the rest can still be bound and validated in the same pass (Jackson
 * alone stops at the first problem). Field names match case-insensitively, like the codec.
 */
sealed interface Shape {

    /** A scalar read as text; {@code check} may reject the value by throwing {@link IllegalArgumentException}. */
    record Text(Consumer<String> check) implements Shape {
    }

    /** A whole number that fits the Java type of the field. */
    record Whole(long min, long max) implements Shape {
    }

    /** Any number. */
    record Decimal() implements Shape {
    }

    /** true/false. */
    record Flag() implements Shape {
    }

    /** An object with known fields; a wrong field named in {@code pruneWholeOn} drops the whole object (trigger type). */
    record Obj(Map<String, Shape> fields, List<String> pruneWholeOn) implements Shape {
    }

    /** An object with arbitrary keys whose values all have one shape. */
    record MapOf(Shape values) implements Shape {
    }

    /** A list whose elements all have one shape. */
    record ListOf(Shape elements) implements Shape {
    }

    /** Any JSON value. */
    record Anything() implements Shape {
    }

    static Shape text() {
        return new Text(s -> { });
    }

    static Shape text(Consumer<String> check) {
        return new Text(check);
    }

    static Shape integer() {
        return new Whole(Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    static Shape longInteger() {
        return new Whole(Long.MIN_VALUE, Long.MAX_VALUE);
    }

    static Shape object(Object... nameShapePairs) {
        Map<String, Shape> fields = new LinkedHashMap<>();
        for (int i = 0; i < nameShapePairs.length; i += 2) {
            fields.put((String) nameShapePairs[i], (Shape) nameShapePairs[i + 1]);
        }
        return new Obj(fields, List.of());
    }

    /**
     * Checks {@code node} (at {@code path}) and returns whether it may stay; a false answer means the caller
     * removes it. Errors are appended in document order.
     */
    static boolean check(Shape shape, JsonNode node, String path, List<ValidationError> errors) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return true;
        }
        return switch (shape) {
            case Anything a -> true;
            case Text t -> {
                if (!node.isValueNode()) {
                    errors.add(new ValidationError(path, "expected a text value, got " + kind(node)));
                    yield false;
                }
                try {
                    t.check().accept(node.asText());
                    yield true;
                } catch (IllegalArgumentException e) {
                    errors.add(new ValidationError(path, e.getMessage()));
                    yield false;
                }
            }
            case Whole w -> {
                BigDecimal number = number(node);
                boolean whole = number != null && number.stripTrailingZeros().scale() <= 0;
                if (!whole || number.compareTo(BigDecimal.valueOf(w.min())) < 0 || number.compareTo(BigDecimal.valueOf(w.max())) > 0) {
                    errors.add(new ValidationError(path, "expected a whole number, got " + describe(node)));
                    yield false;
                }
                yield true;
            }
            case Decimal d -> {
                if (number(node) == null) {
                    errors.add(new ValidationError(path, "expected a number, got " + describe(node)));
                    yield false;
                }
                yield true;
            }
            case Flag f -> {
                boolean flag = node.isBoolean() || (node.isTextual() && (node.asText().equalsIgnoreCase("true")
                        || node.asText().equalsIgnoreCase("false")));
                if (!flag) {
                    errors.add(new ValidationError(path, "expected true or false, got " + describe(node)));
                }
                yield flag;
            }
            case Obj o -> checkObject(o, node, path, errors);
            case MapOf m -> {
                if (!node.isObject()) {
                    errors.add(new ValidationError(path, "expected an object, got " + kind(node)));
                    yield false;
                }
                List<String> drop = new ArrayList<>();
                for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> entry = it.next();
                    if (!check(m.values(), entry.getValue(), JsonPath.field(path, entry.getKey()), errors)) {
                        drop.add(entry.getKey());
                    }
                }
                ((ObjectNode) node).remove(drop);
                yield true;
            }
            case ListOf l -> {
                if (!node.isArray()) {
                    errors.add(new ValidationError(path, "expected a list, got " + kind(node)));
                    yield false;
                }
                ArrayNode array = (ArrayNode) node;
                for (int i = 0; i < array.size(); i++) {
                    if (!check(l.elements(), array.get(i), JsonPath.index(path, i), errors)) {
                        array.set(i, (JsonNode) null);
                    }
                }
                yield true;
            }
        };
    }

    private static boolean checkObject(Obj shape, JsonNode node, String path, List<ValidationError> errors) {
        if (!node.isObject()) {
            errors.add(new ValidationError(path, "expected an object, got " + kind(node)));
            return false;
        }
        List<String> drop = new ArrayList<>();
        boolean keep = true;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            for (Map.Entry<String, Shape> field : shape.fields().entrySet()) {
                if (field.getKey().equalsIgnoreCase(entry.getKey())
                        && !check(field.getValue(), entry.getValue(), JsonPath.field(path, field.getKey()), errors)) {
                    drop.add(entry.getKey());
                    if (shape.pruneWholeOn().contains(field.getKey())) {
                        keep = false;
                    }
                }
            }
        }
        ((ObjectNode) node).remove(drop);
        return keep;
    }

    private static BigDecimal number(JsonNode node) {
        if (node.isNumber()) {
            // 1e400 parses to an infinite double, which has no decimal value: it is not a usable number.
            if ((node.isDouble() || node.isFloat()) && !Double.isFinite(node.doubleValue())) {
                return null;
            }
            return node.decimalValue();
        }
        if (node.isTextual()) {
            try {
                return new BigDecimal(node.asText().trim());
            } catch (NumberFormatException e) {
                return null;
            }
        }
        return null;
    }

    private static String describe(JsonNode node) {
        return node.isValueNode() ? kind(node) + " " + node : kind(node);
    }

    private static String kind(JsonNode node) {
        return switch (node.getNodeType()) {
            case ARRAY -> "a list";
            case OBJECT, POJO -> "an object";
            case STRING -> "text";
            case NUMBER -> "a number";
            case BOOLEAN -> "a boolean";
            default -> node.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }
}
