package dev.interlock.bench.cost;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.statemachine.engine.HistoryEvent;
import dev.interlock.statemachine.engine.HistoryEventType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TransitionsTest {

    private static List<HistoryEvent> history(HistoryEventType... types) {
        List<HistoryEvent> events = new ArrayList<>();
        for (HistoryEventType t : types) {
            events.add(new HistoryEvent(events.size() + 1, events.size(), Instant.EPOCH, t, null));
        }
        return events;
    }

    @Test
    void everyStateEnteredCountsWhateverItsTypeInsideMapIterationsToo() {
        List<HistoryEvent> h = history(
                HistoryEventType.ExecutionStarted,
                HistoryEventType.PassStateEntered,
                HistoryEventType.PassStateExited,
                HistoryEventType.MapStateEntered,
                HistoryEventType.MapStateStarted,
                HistoryEventType.MapIterationStarted,
                HistoryEventType.TaskStateEntered,
                HistoryEventType.LambdaFunctionScheduled,
                HistoryEventType.LambdaFunctionSucceeded,
                HistoryEventType.TaskStateExited,
                HistoryEventType.MapIterationSucceeded,
                HistoryEventType.MapStateSucceeded,
                HistoryEventType.MapStateExited,
                HistoryEventType.ChoiceStateEntered,
                HistoryEventType.ChoiceStateExited,
                HistoryEventType.WaitStateEntered,
                HistoryEventType.WaitStateExited,
                HistoryEventType.SucceedStateEntered,
                HistoryEventType.SucceedStateExited,
                HistoryEventType.ExecutionSucceeded);

        assertThat(Transitions.of(h)).isEqualTo(6);
    }

    @Test
    void eachTaskRetryIsOneMoreTransition() {
        List<HistoryEvent> h = history(
                HistoryEventType.TaskStateEntered,
                HistoryEventType.LambdaFunctionScheduled,
                HistoryEventType.LambdaFunctionFailed,
                HistoryEventType.LambdaFunctionScheduled,
                HistoryEventType.LambdaFunctionFailed,
                HistoryEventType.LambdaFunctionScheduled,
                HistoryEventType.LambdaFunctionSucceeded,
                HistoryEventType.TaskStateExited,
                HistoryEventType.TaskStateEntered,
                HistoryEventType.TaskScheduled,
                HistoryEventType.TaskSucceeded,
                HistoryEventType.TaskStateExited,
                HistoryEventType.FailStateEntered);

        assertThat(Transitions.of(h)).isEqualTo(3 + 2);
    }
}
