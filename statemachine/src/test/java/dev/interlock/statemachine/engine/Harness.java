package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.statemachine.model.StateMachineDefinition;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;

/** Builds machines from ASL snippets on a virtual clock and runs them to completion. */
final class Harness {

    static final Instant T0 = Instant.parse("2026-03-01T00:00:00Z");
    static final ObjectMapper MAPPER = new ObjectMapper();

    final VirtualClock clock = new VirtualClock(T0);
    final TaskResources.Builder resources = TaskResources.builder();

    StateMachine machine(String asl) {
        return StateMachine.builder("test", StateMachineDefinition.parse(asl))
                .clock(clock)
                .resources(resources.build())
                .random(new Random(42))
                .accountId("123456789012")
                // Feature snippets keep spare Catch targets; validation has its own tests.
                .validate(false)
                .build();
    }

    ExecutionDescription run(String asl, String input) {
        return await(machine(asl).start("run-1", input));
    }

    static ExecutionDescription await(Execution execution) {
        try {
            return execution.await(Duration.ofSeconds(20));
        } catch (Exception e) {
            throw new AssertionError("execution did not finish: " + execution.describe(), e);
        }
    }

    static JsonNode json(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(e);
        }
    }

    static List<HistoryEventType> types(List<HistoryEvent> events) {
        return events.stream().map(HistoryEvent::type).toList();
    }

    /** A one-state machine: a Pass state with the given body fields, ending the execution. */
    static String pass(String fields) {
        return """
                {"StartAt":"P","States":{"P":{"Type":"Pass",%s"End":true}}}
                """.formatted(fields.isBlank() ? "" : fields + ",");
    }
}
