package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The schema {@link LineageEndToEndTest} judges events by does reject what the spec forbids. */
class LineageSchemaTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final String VALID = """
            {"eventType": "START", "eventTime": "2026-03-03T12:00:00Z",
             "producer": "urn:dev.interlock:interlock-java:test",
             "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent",
             "run": {"runId": "3f2b9c2e-8a41-3d0b-9c55-2f6a7e1d4b10",
                     "facets": {"interlock_readiness": {"_producer": "urn:x:y", "_schemaURL": "urn:x:z", "verdict": "READY"}}},
             "job": {"namespace": "interlock", "name": "gold"}}
            """;

    private static JsonNode event(String json) throws Exception {
        return JSON.readTree(json);
    }

    @Test
    void aWellFormedRunEventPasses() throws Exception {
        assertThat(LineageReceiver.RUN_EVENT.validate(event(VALID))).isEmpty();
    }

    @Test
    void aRunIdThatIsNoUuidAFacetWithoutItsProducerAndAnUnknownTypeAreRejected() throws Exception {
        assertThat(LineageReceiver.RUN_EVENT.validate(
                        event(VALID.replace("3f2b9c2e-8a41-3d0b-9c55-2f6a7e1d4b10", "run-1"))))
                .isNotEmpty();
        assertThat(LineageReceiver.RUN_EVENT.validate(event(VALID.replace("\"_producer\": \"urn:x:y\", ", ""))))
                .isNotEmpty();
        assertThat(LineageReceiver.RUN_EVENT.validate(event(VALID.replace("\"START\"", "\"BEGIN\""))))
                .isNotEmpty();
        assertThat(LineageReceiver.RUN_EVENT.validate(event(VALID.replace("\"name\": \"gold\"", "\"nom\": \"gold\""))))
                .isNotEmpty();
    }
}
