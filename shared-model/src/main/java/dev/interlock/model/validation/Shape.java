package dev.interlock.model.validation;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The expected JSON type of each part of a document. Checking a raw tree against it names every wrong type by
 * path and removes the offending nodes, so the rest can still be bound and validated in the same pass (Jackson
 * alone stops at the first problem). Field names match case-insensitively, like the codec.
 */
sealed interface Shape {

    /** A scalar read as text; {@code check} may reject the value by throwing {@link IllegalArgumentException}. */
    record Text(Consumer<String> check) implements Shape {}

    /** A whole number that fits the Java type of the field. */
    record Whole(long min, long max) implements Shape {}

    /** Any number. */
    record Decimal() implements Shape {}

    /** true/false. */
    record Flag() implements Shape {}

    /**
     * An object with known fields; any other key is refused with the closest known one. {@code noun} names the object
     * in that message when the document has several kinds of it (an "http trigger").
     */
    record Obj(Map<String, Shape> fields, String noun) implements Shape {}

    /**
     * An object whose fields depend on the value of its {@code tag} field (a trigger's {@code type}). A tag that fails
     * its check drops the whole object, since the other fields mean nothing without it; an absent tag is left to the
     * binding, which names it as required.
     */
    record Tagged(String tag, Text tagCheck, Function<String, String> variantOf, Map<String, Obj> variants)
            implements Shape {}

    /** An object with arbitrary keys whose values all have one shape. */
    record MapOf(Shape values) implements Shape {}

    /** A list whose elements all have one shape. */
    record ListOf(Shape elements) implements Shape {}

    /** Any JSON value. */
    record Anything() implements Shape {}

    static Shape text() {
        return new Text(s -> {});
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
        return new Obj(fields, null);
    }

    /**
     * What a check found: the errors in document order, and the paths of the fields that misspelt keys most likely
     * meant (a semantic "is required" there only echoes the misspelling).
     */
    record Findings(List<ValidationError> errors, List<String> meantPaths) {
        Findings() {
            this(new ArrayList<>(), new ArrayList<>());
        }

        void add(ValidationError error) {
            errors.add(error);
        }
    }

    /**
     * Checks {@code node} (at {@code path}) and returns whether it may stay; a false answer means the caller
     * removes it. Errors are appended in document order.
     */
    static boolean check(Shape shape, JsonNode node, String path, Findings errors) {
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
                if (!whole
                        || number.compareTo(BigDecimal.valueOf(w.min())) < 0
                        || number.compareTo(BigDecimal.valueOf(w.max())) > 0) {
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
                boolean flag = node.isBoolean()
                        || (node.isTextual()
                                && (node.asText().equalsIgnoreCase("true")
                                        || node.asText().equalsIgnoreCase("false")));
                if (!flag) {
                    errors.add(new ValidationError(path, "expected true or false, got " + describe(node)));
                }
                yield flag;
            }
            case Obj o -> checkObject(o, node, path, errors);
            case Tagged t -> checkTagged(t, node, path, errors);
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

    private static boolean checkObject(Obj shape, JsonNode node, String path, Findings errors) {
        if (!node.isObject()) {
            errors.add(new ValidationError(path, "expected an object, got " + kind(node)));
            return false;
        }
        List<String> drop = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            String known = knownName(shape, entry.getKey());
            if (known == null) {
                errors.add(
                        new ValidationError(JsonPath.field(path, entry.getKey()), unknownField(shape, entry.getKey())));
                ClosestName.among(entry.getKey(), shape.fields().keySet())
                        .ifPresent(meant -> errors.meantPaths().add(JsonPath.field(path, meant)));
                drop.add(entry.getKey());
            } else if (!check(shape.fields().get(known), entry.getValue(), JsonPath.field(path, known), errors)) {
                drop.add(entry.getKey());
            }
        }
        ((ObjectNode) node).remove(drop);
        return true;
    }

    private static boolean checkTagged(Tagged shape, JsonNode node, String path, Findings errors) {
        if (!node.isObject()) {
            errors.add(new ValidationError(path, "expected an object, got " + kind(node)));
            return false;
        }
        JsonNode tag = null;
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> entry = it.next();
            if (entry.getKey().equalsIgnoreCase(shape.tag())) {
                tag = entry.getValue();
            }
        }
        if (tag == null || tag.isNull()) {
            return true;
        }
        if (!check(shape.tagCheck(), tag, JsonPath.field(path, shape.tag()), errors)) {
            return false;
        }
        Obj variant = shape.variants().get(shape.variantOf().apply(tag.asText()));
        return variant == null || checkObject(variant, node, path, errors);
    }

    /** The declared spelling of {@code key} (fields match case-insensitively, like the codec), or null. */
    private static String knownName(Obj shape, String key) {
        for (String name : shape.fields().keySet()) {
            if (name.equalsIgnoreCase(key)) {
                return name;
            }
        }
        return null;
    }

    private static String unknownField(Obj shape, String key) {
        String what = shape.noun() == null ? "unknown field" : "unknown field of " + shape.noun();
        return ClosestName.among(key, shape.fields().keySet())
                .map(name -> what + "; did you mean '" + name + "'?")
                .orElseGet(() -> what + "; known fields: "
                        + String.join(", ", shape.fields().keySet()));
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
