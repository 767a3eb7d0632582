package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.State;
import dev.interlock.statemachine.model.Transition;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * What every state step shares: the execution whose history it records, the engine clock, the data flow, and the
 * context object ($$) it builds for a state.
 */
final class StepSupport {

    static final EventDetails.PayloadDetails NOT_TRUNCATED = EventDetails.PayloadDetails.NOT_TRUNCATED;
    private static final DateTimeFormatter CONTEXT_TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

    final Execution execution;
    final EngineClock clock;
    final DataFlow data;
    private final ObjectNode contextBase;

    StepSupport(Execution execution, ObjectNode contextBase, EngineClock clock, DataFlow data) {
        this.execution = execution;
        this.contextBase = contextBase;
        this.clock = clock;
        this.data = data;
    }

    /** The context object ($$) for a state. */
    ObjectNode context(String stateName, Instant entered, int retryCount, Frame f) {
        ObjectNode context = contextBase.deepCopy();
        ObjectNode state = context.putObject("State");
        state.put("EnteredTime", CONTEXT_TIME.format(entered));
        state.put("Name", stateName);
        state.put("RetryCount", retryCount);
        if (f.mapItem != null) {
            context.putObject("Map").set("Item", f.mapItem);
        }
        return context;
    }

    static String contextTime(Instant instant) {
        return CONTEXT_TIME.format(instant);
    }

    void emit(Frame f, HistoryEventType type, EventDetails details) {
        f.lastEventId = execution.emit(type, details, f.lastEventId, f.topLevel, null, false);
    }

    /** Records that {@code state} exited with {@code output}; a top-level exit journals the next state (or the end). */
    StateStep.Exit exit(Frame f, State state, JsonNode output, String next) {
        f.lastEventId = execution.emit(
                HistoryEventType.exited(state.type()),
                new EventDetails.StateExited(state.name(), output.toString(), NOT_TRUNCATED),
                f.lastEventId,
                f.topLevel,
                next,
                next == null);
        return new StateStep.Exit(output, next);
    }

    static String next(Transition transition) {
        return transition instanceof Transition.Next n ? n.state() : null;
    }
}
