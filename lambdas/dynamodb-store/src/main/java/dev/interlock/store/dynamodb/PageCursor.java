package dev.interlock.store.dynamodb;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.store.InvalidCursorException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The opaque page cursor of the DynamoDB Provider: the key attributes of the last item returned, as base64url JSON.
 * Decoding checks the cursor belongs to the partition being listed, so a cursor can neither be forged into another
 * pipeline's items nor turned into an arbitrary ExclusiveStartKey.
 */
final class PageCursor {

    private static final String VERSION = "d1";
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() {};

    private PageCursor() {}

    static String encode(Map<String, AttributeValue> item, List<String> keyAttributes) {
        Map<String, String> key = new LinkedHashMap<>();
        key.put("v", VERSION);
        for (String attribute : keyAttributes) {
            key.put(attribute, item.get(attribute).s());
        }
        return Base64.getUrlEncoder()
                .withoutPadding()
                .encodeToString(InterlockJson.write(key).getBytes(StandardCharsets.UTF_8));
    }

    /**
     * One key attribute a cursor names, unchecked (a listing over several partitions learns from it where to resume;
     * {@link #decode} still checks the cursor against that partition).
     */
    static String attribute(String cursor, String attribute) {
        try {
            String json = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            Map<String, String> key = InterlockJson.json().readValue(json, STRING_MAP);
            return key == null ? null : key.get(attribute);
        } catch (Exception unreadable) {
            throw new InvalidCursorException("invalid page cursor: " + cursor);
        }
    }

    /** The ExclusiveStartKey a cursor stands for, after checking it names {@code partitionValue} of {@code partitionAttribute}. */
    static Map<String, AttributeValue> decode(
            String cursor, List<String> keyAttributes, String partitionAttribute, String partitionValue) {
        Map<String, String> key;
        try {
            String json = new String(Base64.getUrlDecoder().decode(cursor), StandardCharsets.UTF_8);
            key = InterlockJson.json().readValue(json, STRING_MAP);
        } catch (Exception unreadable) {
            throw new InvalidCursorException("invalid page cursor: " + cursor);
        }
        if (key == null
                || !VERSION.equals(key.get("v"))
                || key.size() != keyAttributes.size() + 1
                || !partitionValue.equals(key.get(partitionAttribute))) {
            throw new InvalidCursorException("page cursor does not belong to this listing: " + cursor);
        }
        Map<String, AttributeValue> start = new LinkedHashMap<>();
        for (String attribute : keyAttributes) {
            String value = key.get(attribute);
            if (value == null) {
                throw new InvalidCursorException("page cursor does not belong to this listing: " + cursor);
            }
            start.put(attribute, AttributeValue.fromS(value));
        }
        return start;
    }
}
