package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WaitAndTimeoutTest {

    private final Harness h = new Harness();

    private static String waitThenReport(String waitFields) {
        return """
                {"StartAt":"W","States":{
                  "W":{"Type":"Wait",%s,"Next":"Report"},
                  "Report":{"Type":"Pass","Parameters":{"entered.$":"$$.State.EnteredTime"},"End":true}}}""".formatted(waitFields);
    }

    @Test
    void anHourLongWaitFinishesAtOnceAndMovesTheClockByAnHour() {
        long realStart = System.nanoTime();
        ExecutionDescription d = h.run(waitThenReport("\"Seconds\":3600"), "{}");
        assertThat(Duration.ofNanos(System.nanoTime() - realStart)).isLessThan(Duration.ofSeconds(10));
        assertThat(json(d.output()).get("entered").asText()).isEqualTo("2026-03-01T01:00:00.000Z");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(3600));
    }

    @Test
    void secondsPathReadsTheDelayFromTheInput() {
        ExecutionDescription d = h.run(waitThenReport("\"SecondsPath\":\"$.delay\""), "{\"delay\":90}");
        assertThat(json(d.output()).get("entered").asText()).isEqualTo("2026-03-01T00:01:30.000Z");
    }

    @Test
    void timestampAndTimestampPathWaitUntilThatInstant() {
        ExecutionDescription literal = h.run(waitThenReport("\"Timestamp\":\"2026-03-02T12:00:00Z\""), "{}");
        assertThat(json(literal.output()).get("entered").asText()).isEqualTo("2026-03-02T12:00:00.000Z");

        ExecutionDescription path =
                new Harness().run(waitThenReport("\"TimestampPath\":\"$.at\""), "{\"at\":\"2026-03-01T00:00:05Z\"}");
        assertThat(json(path.output()).get("entered").asText()).isEqualTo("2026-03-01T00:00:05.000Z");
    }

    @Test
    void aTimestampInThePastDoesNotWait() {
        ExecutionDescription d = h.run(waitThenReport("\"Timestamp\":\"2020-01-01T00:00:00Z\""), "{}");
        assertThat(json(d.output()).get("entered").asText()).isEqualTo("2026-03-01T00:00:00.000Z");
    }

    @Test
    void invalidSecondsPathIsStatesRuntime() {
        assertThat(h.run(waitThenReport("\"SecondsPath\":\"$.delay\""), "{\"delay\":\"soon\"}")
                        .error())
                .isEqualTo("States.Runtime");
        assertThat(new Harness()
                        .run(waitThenReport("\"SecondsPath\":\"$.delay\""), "{}")
                        .error())
                .isEqualTo("States.Runtime");
    }

    @Test
    void waitPassesItsInputThrough() {
        ExecutionDescription d = h.run("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":1,"OutputPath":"$.keep","End":true}}}""", "{\"keep\":{\"a\":1},\"drop\":2}");
        assertThat(json(d.output())).isEqualTo(json("{\"a\":1}"));
    }

    @Test
    void taskTimeoutSecondsRaisesStatesTimeoutAtTheDeadline() throws InterruptedException {
        CountDownLatch interrupted = new CountDownLatch(1);
        h.resources.resource("arn:test:slow", inv -> {
            try {
                inv.clock().sleep(Duration.ofSeconds(100));
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
            return json("1");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{
                  "T":{"Type":"Task","Resource":"arn:test:slow","TimeoutSeconds":10,
                       "Catch":[{"ErrorEquals":["States.Timeout"],"ResultPath":"$.e","Next":"After"}],"End":true},
                  "After":{"Type":"Pass","Parameters":{"e.$":"$.e.Error","at.$":"$$.State.EnteredTime"},"End":true}}}""", "{}");
        assertThat(json(d.output())).isEqualTo(json("{\"e\":\"States.Timeout\",\"at\":\"2026-03-01T00:00:10.000Z\"}"));
        // The abandoned call learns of the timeout on its own thread, possibly after the execution ended.
        assertThat(interrupted.await(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aTaskFinishingBeforeItsTimeoutSucceeds() {
        h.resources.resource("arn:test:slow", inv -> {
            inv.clock().sleep(Duration.ofSeconds(9));
            return json("\"in time\"");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:slow","TimeoutSeconds":10,
                  "End":true}}}""", "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(9));
    }

    @Test
    void timeoutsCanBeRetried() {
        int[] calls = {0};
        h.resources.resource("arn:test:slow", inv -> {
            calls[0]++;
            inv.clock().sleep(Duration.ofSeconds(calls[0] == 1 ? 60 : 1));
            return json("\"second time\"");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:slow","TimeoutSeconds":5,
                  "Retry":[{"ErrorEquals":["States.Timeout"],"IntervalSeconds":2}],"End":true}}}""", "{}");
        assertThat(json(d.output()).asText()).isEqualTo("second time");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(5 + 2 + 1));
    }

    @Test
    void timeoutSecondsPathReadsTheTimeoutFromTheInput() {
        h.resources.resource("arn:test:slow", inv -> {
            inv.clock().sleep(Duration.ofSeconds(100));
            return json("1");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:slow",
                  "TimeoutSecondsPath":"$.t","End":true}}}""", "{\"t\":7}");
        assertThat(d.error()).isEqualTo("States.Timeout");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(7));
    }

    @Test
    void machineTimeoutSecondsEndsTheExecutionTimedOut() {
        StateMachine machine = h.machine("""
                {"TimeoutSeconds":300,"StartAt":"W","States":{
                  "W":{"Type":"Wait","Seconds":100,"Next":"W2"},
                  "W2":{"Type":"Wait","Seconds":1000,"Next":"Done"},
                  "Done":{"Type":"Succeed"}}}""");
        Execution execution = machine.start("slow", "{}");
        ExecutionDescription d = Harness.await(execution);
        assertThat(d.status()).isEqualTo(ExecutionStatus.TIMED_OUT);
        assertThat(d.error()).isEqualTo("States.Timeout");
        assertThat(d.stopDate()).isEqualTo(T0.plusSeconds(300));
        assertThat(Harness.types(execution.history()))
                .containsExactly(
                        HistoryEventType.ExecutionStarted,
                        HistoryEventType.WaitStateEntered,
                        HistoryEventType.WaitStateExited,
                        HistoryEventType.WaitStateEntered,
                        HistoryEventType.ExecutionTimedOut);
    }

    @Test
    void anExecutionFinishingInTimeIsNotTimedOutLater() {
        StateMachine machine = h.machine("""
                {"TimeoutSeconds":300,"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":10,"End":true}}}""");
        Execution first = machine.start("quick", "{}");
        assertThat(Harness.await(first).status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        // A second, longer execution on the same clock makes the first one's deadline pass.
        StateMachine longer = h.machine("""
                {"StartAt":"W","States":{"W":{"Type":"Wait","Seconds":1000,"End":true}}}""");
        Harness.await(longer.start("long", "{}"));
        assertThat(first.describe().status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(Harness.types(first.history())).last().isEqualTo(HistoryEventType.ExecutionSucceeded);
    }
}
