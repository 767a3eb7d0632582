package dev.interlock.bench.cost;

import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import java.util.List;

/**
 * State transitions of one execution as Step Functions Standard bills them: one per state entered, whatever its type
 * (Pass, Choice and Wait included, the states inside each Map iteration included, the terminal Succeed/Fail state
 * included), plus one per retry of a Task.
 */
public final class Transitions {

    private Transitions() {}

    public static long of(List<HistoryEvent> history) {
        long entered = 0;
        long tasksEntered = 0;
        long attempts = 0;
        for (HistoryEvent event : history) {
            HistoryEventType type = event.type();
            if (type.name().endsWith("StateEntered")) {
                entered++;
            }
            if (type == HistoryEventType.TaskStateEntered) {
                tasksEntered++;
            }
            if (type == HistoryEventType.TaskScheduled || type == HistoryEventType.LambdaFunctionScheduled) {
                attempts++;
            }
        }
        return entered + Math.max(0, attempts - tasksEntered);
    }
}
