package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.model.MapState;
import java.time.Instant;

/**
 * A Map state: runs its ItemProcessor once per item its ItemsPath selects (at most MaxConcurrency at a time), each
 * iteration on its own line with the item as {@code $$.Map.Item}; its attempts run under its Retry and Catch rules.
 */
final class MapStep implements StateStep<MapState> {

    private final StepSupport support;
    private final DataFlow data;
    private final RetryAndCatch recovery;
    private final FanOut fanOut;
    private final Interpreter interpreter;

    MapStep(StepSupport support, RetryAndCatch recovery, FanOut fanOut, Interpreter interpreter) {
        this.support = support;
        this.data = support.data;
        this.recovery = recovery;
        this.fanOut = fanOut;
        this.interpreter = interpreter;
    }

    @Override
    public Exit run(MapState m, Entry e) {
        return recovery.run(
                m,
                m.transition(),
                e.input(),
                e.frame(),
                e.start(),
                retryCount -> map(m, e.input(), e.entered(), retryCount, e.frame()),
                null);
    }

    private JsonNode map(MapState m, JsonNode input, Instant entered, int retryCount, Frame f) {
        JsonNode context = support.context(m.name(), entered, retryCount, f);
        JsonNode effective = data.inputPath(input, m.inputPath(), context);
        JsonNode items = data.require(m.itemsPath(), effective, context, "ItemsPath");
        if (!items.isArray()) {
            throw StatesError.runtime("Map state '" + m.name() + "': ItemsPath '" + m.itemsPath()
                    + "' must select an array, found " + items);
        }
        int concurrency = m.maxConcurrency();
        if (m.maxConcurrencyPath() != null) {
            JsonNode value = data.require(m.maxConcurrencyPath(), effective, context, "MaxConcurrencyPath");
            if (!value.isIntegralNumber() || value.asInt() < 0) {
                throw StatesError.runtime("MaxConcurrencyPath must select a non-negative integer, found " + value);
            }
            concurrency = value.asInt();
        }
        support.emit(f, HistoryEventType.MapStateStarted, new EventDetails.MapStateStarted(items.size()));
        long startedId = f.lastEventId;
        JsonNode results = fanOut.run(
                items.size(),
                concurrency,
                f,
                (index, token) -> {
                    ObjectNode item = JsonNodeFactory.instance.objectNode();
                    item.put("Index", index);
                    item.set("Value", items.get(index));
                    Frame iteration = Frame.inner(token, startedId, item);
                    EventDetails.MapIteration details = new EventDetails.MapIteration(m.name(), index);
                    support.emit(iteration, HistoryEventType.MapIterationStarted, details);
                    try {
                        JsonNode itemInput = m.itemSelector() != null
                                ? data.template(
                                        m.itemSelector(),
                                        effective,
                                        support.context(m.name(), entered, retryCount, iteration))
                                : items.get(index);
                        JsonNode output = interpreter.run(m.itemProcessor(), itemInput, iteration);
                        support.emit(iteration, HistoryEventType.MapIterationSucceeded, details);
                        return output;
                    } catch (StatesError e) {
                        support.emit(iteration, HistoryEventType.MapIterationFailed, details);
                        throw e;
                    } catch (Cancellation.Cancelled c) {
                        support.emit(iteration, HistoryEventType.MapIterationAborted, details);
                        throw c;
                    }
                },
                HistoryEventType.MapStateFailed);
        support.emit(f, HistoryEventType.MapStateSucceeded, null);
        JsonNode selected = m.resultSelector() != null ? data.template(m.resultSelector(), results, context) : results;
        return data.outputPath(data.resultPath(input, selected, m.resultPath()), m.outputPath(), context);
    }
}
