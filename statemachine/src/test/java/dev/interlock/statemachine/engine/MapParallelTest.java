package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class MapParallelTest {

    private final Harness h = new Harness();

    @Test
    void mapRunsTheProcessorForEveryItemAndKeepsOrder() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.items","ResultPath":"$.out",
                  "ItemProcessor":{"ProcessorConfig":{"Mode":"INLINE"},"StartAt":"Double","States":{
                    "Double":{"Type":"Pass","Parameters":{"v.$":"States.MathAdd($.n, $.n)"},"End":true}}},
                  "End":true}}}""", "{\"items\":[{\"n\":1},{\"n\":2},{\"n\":3}]}");
        assertThat(json(d.output()).get("out")).isEqualTo(json("[{\"v\":2},{\"v\":4},{\"v\":6}]"));
    }

    @Test
    void itemSelectorSeesTheMapInputAndTheItemContext() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.items",
                  "ItemSelector":{"index.$":"$$.Map.Item.Index","value.$":"$$.Map.Item.Value","shared.$":"$.shared"},
                  "ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},
                  "End":true}}}""", "{\"items\":[\"a\",\"b\"],\"shared\":\"s\"}");
        assertThat(json(d.output()))
                .isEqualTo(
                        json(
                                "[{\"index\":0,\"value\":\"a\",\"shared\":\"s\"},{\"index\":1,\"value\":\"b\",\"shared\":\"s\"}]"));
    }

    @Test
    void legacyIteratorAndParametersStillWork() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.items",
                  "Parameters":{"i.$":"$$.Map.Item.Index"},
                  "Iterator":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},
                  "ResultSelector":{"count.$":"States.ArrayLength($)"},
                  "End":true}}}""", "{\"items\":[1,2,3]}");
        assertThat(json(d.output())).isEqualTo(json("{\"count\":3}"));
    }

    @Test
    void emptyItemsGiveAnEmptyArray() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map",
                  "ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}}""", "[]");
        assertThat(json(d.output())).isEqualTo(json("[]"));
    }

    @Test
    void itemsPathThatIsNotAnArrayIsStatesRuntime() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","ItemsPath":"$.x",
                  "ItemProcessor":{"StartAt":"P","States":{"P":{"Type":"Pass","End":true}}},"End":true}}}""", "{\"x\":{}}");
        assertThat(d.error()).isEqualTo("States.Runtime");
    }

    @Test
    void maxConcurrencyLimitsIterationsInFlight() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        h.resources.resource("arn:test:work", inv -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            inv.clock().sleep(Duration.ofSeconds(10));
            inFlight.decrementAndGet();
            return inv.payload();
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":2,
                  "ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:work","End":true}}},
                  "End":true}}}""", "[1,2,3,4,5]");
        assertThat(json(d.output())).isEqualTo(json("[1,2,3,4,5]"));
        assertThat(peak.get()).isEqualTo(2);
        // Five ten-second items, two at a time: three rounds.
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(30));
    }

    @Test
    void unlimitedConcurrencyRunsAllItemsTogether() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        h.resources.resource("arn:test:work", inv -> {
            peak.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            inv.clock().sleep(Duration.ofSeconds(10));
            inFlight.decrementAndGet();
            return inv.payload();
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":0,
                  "ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:work","End":true}}},
                  "End":true}}}""", "[1,2,3,4,5]");
        assertThat(peak.get()).isEqualTo(5);
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(10));
    }

    @Test
    void aFailingIterationFailsTheMapWithItsErrorAndCanBeCaught() {
        h.resources.resource("arn:test:work", inv -> {
            if (inv.payload().asInt() == 2) {
                throw new TaskFailedException("Item.Bad", "item 2");
            }
            return inv.payload();
        });
        String asl = """
                {"StartAt":"M","States":{"M":{"Type":"Map","MaxConcurrency":1,
                  "ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:work","End":true}}},
                  %s"End":true},"Handled":{"Type":"Pass","End":true}}}""";
        ExecutionDescription failed = h.run(asl.formatted(""), "[1,2,3]");
        assertThat(failed.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(failed.error()).isEqualTo("Item.Bad");
        assertThat(failed.cause()).isEqualTo("item 2");

        Harness again = new Harness();
        again.resources.resource("arn:test:work", inv -> {
            if (inv.payload().asInt() == 2) {
                throw new TaskFailedException("Item.Bad", "item 2");
            }
            return inv.payload();
        });
        StateMachine machine =
                again.machine(asl.formatted("\"Catch\":[{\"ErrorEquals\":[\"Item.Bad\"],\"Next\":\"Handled\"}],"));
        Execution execution = machine.start("caught", "[1,2,3]");
        ExecutionDescription caught = Harness.await(execution);
        assertThat(caught.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(json(caught.output())).isEqualTo(json("{\"Error\":\"Item.Bad\",\"Cause\":\"item 2\"}"));
        assertThat(Harness.types(execution.history()))
                .contains(HistoryEventType.MapIterationFailed, HistoryEventType.MapStateFailed)
                .doesNotContain(HistoryEventType.MapStateSucceeded);
    }

    @Test
    void aFailureAbortsSiblingIterationsThatAreStillWaiting() {
        h.resources.resource("arn:test:work", inv -> {
            if (inv.payload().asInt() == 1) {
                throw new TaskFailedException("Fast.Fail", "now");
            }
            inv.clock().sleep(Duration.ofHours(1));
            return inv.payload();
        });
        StateMachine machine = h.machine("""
                {"StartAt":"M","States":{"M":{"Type":"Map",
                  "ItemProcessor":{"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:work","End":true}}},
                  "End":true}}}""");
        Execution execution = machine.start("abort-siblings", "[0,1,2]");
        ExecutionDescription d = Harness.await(execution);
        assertThat(d.error()).isEqualTo("Fast.Fail");
        assertThat(d.stopDate()).isEqualTo(T0);
        assertThat(Harness.types(execution.history())).contains(HistoryEventType.MapIterationAborted);
    }

    @Test
    void parallelCollectsBranchOutputsInBranchOrder() {
        ExecutionDescription d = h.run("""
                {"StartAt":"P","States":{"P":{"Type":"Parallel","Parameters":{"x.$":"$.x"},"ResultPath":"$.r",
                  "Branches":[
                    {"StartAt":"Slow","States":{"Slow":{"Type":"Wait","Seconds":5,"Next":"A"},
                       "A":{"Type":"Pass","Parameters":{"a.$":"$.x"},"End":true}}},
                    {"StartAt":"B","States":{"B":{"Type":"Pass","Result":"b","End":true}}}],
                  "End":true}}}""", "{\"x\":1}");
        assertThat(json(d.output())).isEqualTo(json("{\"x\":1,\"r\":[{\"a\":1},\"b\"]}"));
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(5));
    }

    @Test
    void parallelFailsWithTheBranchErrorWhichCanBeRetriedAndCaught() {
        AtomicInteger attempts = new AtomicInteger();
        h.resources.resource("arn:test:work", inv -> {
            attempts.incrementAndGet();
            throw new TaskFailedException("Branch.Error", "from branch");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"P","States":{"P":{"Type":"Parallel",
                  "Branches":[
                    {"StartAt":"Ok","States":{"Ok":{"Type":"Pass","End":true}}},
                    {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:work","End":true}}}],
                  "Retry":[{"ErrorEquals":["Branch.Error"],"MaxAttempts":1,"IntervalSeconds":3}],
                  "Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":"$.error","Next":"Handled"}],
                  "End":true},
                 "Handled":{"Type":"Pass","End":true}}}""", "{}");
        assertThat(attempts.get()).isEqualTo(2);
        assertThat(json(d.output()))
                .isEqualTo(json("{\"error\":{\"Error\":\"Branch.Error\",\"Cause\":\"from branch\"}}"));
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(3));
    }

    @Test
    void failStateInsideABranchFailsTheParallel() {
        ExecutionDescription d = h.run("""
                {"StartAt":"P","States":{"P":{"Type":"Parallel","End":true,"Branches":[
                    {"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Custom","Cause":"in branch"}}},
                    {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":60,"End":true}}}]}}}""", "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("Custom");
        assertThat(d.stopDate()).isEqualTo(T0);
    }

    @Test
    void succeedInsideAMapEndsOnlyThatIteration() {
        ExecutionDescription d = h.run("""
                {"StartAt":"M","States":{"M":{"Type":"Map","Next":"After",
                  "ItemProcessor":{"StartAt":"S","States":{"S":{"Type":"Succeed"}}}},
                 "After":{"Type":"Pass","Result":"after","End":true}}}""", "[1]");
        assertThat(json(d.output()).asText()).isEqualTo("after");
    }

    @Test
    void aBranchFailingWithoutAnErrorNameIsBranchFailed() {
        ExecutionDescription d = h.run("""
                {"StartAt":"P","States":{"P":{"Type":"Parallel","End":true,
                  "Catch":[{"ErrorEquals":["States.BranchFailed"],"Next":"Handled"}],"Branches":[
                    {"StartAt":"F","States":{"F":{"Type":"Fail","Cause":"no name"}}}]},
                 "Handled":{"Type":"Pass","End":true}}}""", "{}");
        assertThat(json(d.output())).isEqualTo(json("{\"Error\":\"States.BranchFailed\",\"Cause\":\"no name\"}"));
    }
}
