package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fan-out of a Map or Parallel state: its branches (iterations) run on their own participants of the engine clock,
 * and the first failure cancels the others.
 */
final class FanOut {

    private final StepSupport support;

    FanOut(StepSupport support) {
        this.support = support;
    }

    /** One branch (or Map iteration) by its index, under the fan-out's cancellation. */
    @FunctionalInterface
    interface Branch {
        JsonNode run(int index, Cancellation token);
    }

    /**
     * Runs {@code count} branches with at most {@code concurrency} (0 = all) at a time and collects their outputs
     * in order. The first failure cancels the others and is rethrown after {@code failedEvent} is recorded.
     */
    JsonNode run(int count, int concurrency, Frame f, Branch branch, HistoryEventType failedEvent) {
        ArrayNode results = JsonNodeFactory.instance.arrayNode();
        if (count == 0) {
            return results;
        }
        Cancellation group = f.token.child();
        JsonNode[] outputs = new JsonNode[count];
        AtomicReference<StatesError> failure = new AtomicReference<>();
        AtomicInteger nextIndex = new AtomicInteger();
        int workers = concurrency <= 0 ? count : Math.min(concurrency, count);
        AtomicInteger running = new AtomicInteger(workers);
        EngineClock.Gate done = support.clock.newGate();
        for (int w = 0; w < workers; w++) {
            support.clock.start(support.execution.name() + "/fan-out-" + w, () -> {
                try {
                    while (group.reason() == null) {
                        int index = nextIndex.getAndIncrement();
                        if (index >= count) {
                            break;
                        }
                        try {
                            outputs[index] = branch.run(index, group);
                        } catch (StatesError e) {
                            if (failure.compareAndSet(null, e)) {
                                group.cancel(Cancellation.Reason.SIBLING_FAILED);
                            }
                        } catch (Cancellation.Cancelled c) {
                            break;
                        }
                    }
                } catch (RuntimeException unexpected) {
                    failure.compareAndSet(null, StatesError.runtime("Unexpected engine error: " + unexpected));
                    group.cancel(Cancellation.Reason.SIBLING_FAILED);
                } finally {
                    if (running.decrementAndGet() == 0) {
                        done.open();
                    }
                }
            });
        }
        try {
            f.token.await(done, null);
        } finally {
            group.detach();
        }
        StatesError error = failure.get();
        if (error != null) {
            support.emit(f, failedEvent, null);
            throw error;
        }
        for (JsonNode output : outputs) {
            results.add(output);
        }
        return results;
    }
}
