package dev.interlock.model.trigger;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import dev.interlock.model.json.WireEnum;
import java.io.IOException;
import java.util.Iterator;
import java.util.Map;

/**
 * Picks the trigger record from {@code type}. Hand-written because Jackson's type ids are case-sensitive and its
 * unknown-id message does not name the field or the allowed values.
 */
final class TriggerConfigDeserializer extends StdDeserializer<TriggerConfig> {
    private static final long serialVersionUID = 1L;

    TriggerConfigDeserializer() {
        super(TriggerConfig.class);
    }

    @Override
    public TriggerConfig deserialize(JsonParser parser, DeserializationContext ctxt) throws IOException {
        JsonNode node = ctxt.readTree(parser);
        if (!node.isObject()) {
            throw JsonMappingException.from(
                    parser, "trigger must be an object with a 'type' (" + WireEnum.allowed(TriggerType.class) + ")");
        }
        JsonNode typeNode = typeField(node);
        TriggerType type;
        try {
            if (typeNode == null || typeNode.isNull()) {
                throw new IllegalArgumentException(
                        "trigger.type is required; allowed: " + WireEnum.allowed(TriggerType.class));
            }
            if (!typeNode.isTextual()) {
                throw new IllegalArgumentException(
                        "trigger.type must be a string; allowed: " + WireEnum.allowed(TriggerType.class));
            }
            type = TriggerType.fromJson(typeNode.asText());
        } catch (IllegalArgumentException e) {
            JsonMappingException error = JsonMappingException.from(parser, e.getMessage());
            error.prependPath(new JsonMappingException.Reference(TriggerConfig.class, "type"));
            throw error;
        }
        return ctxt.readTreeAsValue(node, recordOf(type));
    }

    static Class<? extends TriggerConfig> recordOf(TriggerType type) {
        return switch (type) {
            case HTTP -> HttpTrigger.class;
            case AIRFLOW -> AirflowTrigger.class;
            case GLUE -> GlueTrigger.class;
            case EMR -> EmrTrigger.class;
            case EMR_SERVERLESS -> EmrServerlessTrigger.class;
            case STEP_FUNCTION -> StepFunctionTrigger.class;
            case DATABRICKS -> DatabricksTrigger.class;
            case LAMBDA -> LambdaTrigger.class;
        };
    }

    private static JsonNode typeField(JsonNode node) {
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (field.getKey().equalsIgnoreCase("type")) {
                return field.getValue();
            }
        }
        return null;
    }
}
