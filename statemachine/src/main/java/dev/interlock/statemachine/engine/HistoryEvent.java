package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.time.Instant;

/**
 * One entry of an execution's history, serialised exactly like a GetExecutionHistory event:
 * {@code {"id","previousEventId","timestamp","type","<type>EventDetails":{…}}}.
 */
@JsonSerialize(using = HistoryEvent.Serializer.class)
@JsonDeserialize(using = HistoryEvent.Deserializer.class)
public record HistoryEvent(
        long id, long previousEventId, Instant timestamp, HistoryEventType type, EventDetails details) {

    /** Writes the details under the type's own field name. */
    static final class Serializer extends JsonSerializer<HistoryEvent> {
        @Override
        public void serialize(HistoryEvent event, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeStartObject();
            gen.writeNumberField("id", event.id());
            gen.writeNumberField("previousEventId", event.previousEventId());
            gen.writeFieldName("timestamp");
            provider.defaultSerializeValue(event.timestamp(), gen);
            gen.writeStringField("type", event.type().name());
            if (event.details() != null && event.type().detailsField() != null) {
                gen.writeFieldName(event.type().detailsField());
                provider.defaultSerializeValue(event.details(), gen);
            }
            gen.writeEndObject();
        }
    }

    /** Reads what {@link Serializer} writes (and what AWS returns for the same event types). */
    static final class Deserializer extends JsonDeserializer<HistoryEvent> {
        @Override
        public HistoryEvent deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            JsonNode node = parser.readValueAsTree();
            HistoryEventType type = HistoryEventType.valueOf(node.path("type").asText());
            EventDetails details = null;
            if (type.detailsField() != null && node.hasNonNull(type.detailsField())) {
                details = context.readTreeAsValue(node.get(type.detailsField()), type.detailsType());
            }
            return new HistoryEvent(
                    node.path("id").asLong(),
                    node.path("previousEventId").asLong(),
                    context.readTreeAsValue(node.get("timestamp"), Instant.class),
                    type,
                    details);
        }
    }
}
