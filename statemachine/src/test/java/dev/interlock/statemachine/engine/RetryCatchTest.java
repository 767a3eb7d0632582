package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.T0;
import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetryCatchTest {

    private final Harness h = new Harness();
    private final List<Instant> calls = new ArrayList<>();
    private final List<Integer> retryCounts = new ArrayList<>();

    /** A resource that fails with {@code error} the first {@code failures} times, then returns "ok". */
    private void flaky(String error, int failures) {
        h.resources.resource("arn:test:flaky", inv -> {
            calls.add(inv.clock().now());
            retryCounts.add(inv.retryCount());
            if (calls.size() <= failures) {
                throw new TaskFailedException(error, "failure " + calls.size());
            }
            return json("\"ok\"");
        });
    }

    private static String task(String extra) {
        return """
                {"StartAt":"T","States":{
                  "T":{"Type":"Task","Resource":"arn:test:flaky",%s"End":true},
                  "Caught":{"Type":"Pass","End":true},
                  "Other":{"Type":"Pass","Result":"other","End":true}}}""".formatted(extra);
    }

    private List<Long> secondsBetweenCalls() {
        List<Long> gaps = new ArrayList<>();
        for (int i = 1; i < calls.size(); i++) {
            gaps.add(Duration.between(calls.get(i - 1), calls.get(i)).toMillis());
        }
        return gaps;
    }

    @Test
    void retriesWithExponentialBackoffInVirtualTime() {
        flaky("Boom", 3);
        ExecutionDescription d = h.run(task("""
                "Retry":[{"ErrorEquals":["Boom"],"IntervalSeconds":2,"MaxAttempts":3,"BackoffRate":3}],"""), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(json(d.output()).asText()).isEqualTo("ok");
        assertThat(secondsBetweenCalls()).containsExactly(2_000L, 6_000L, 18_000L);
        assertThat(calls.getFirst()).isEqualTo(T0);
        assertThat(retryCounts).containsExactly(0, 1, 2, 3);
    }

    @Test
    void defaultsAreOneSecondThreeAttemptsRateTwo() {
        flaky("Boom", 10);
        ExecutionDescription d = h.run(task("\"Retry\":[{\"ErrorEquals\":[\"Boom\"]}],"), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("Boom");
        assertThat(d.cause()).isEqualTo("failure 4");
        assertThat(secondsBetweenCalls()).containsExactly(1_000L, 2_000L, 4_000L);
    }

    @Test
    void maxDelaySecondsCapsTheBackoff() {
        flaky("Boom", 5);
        h.run(task("""
                "Retry":[{"ErrorEquals":["Boom"],"IntervalSeconds":3,"MaxAttempts":5,"BackoffRate":2,
                          "MaxDelaySeconds":10}],"""), "{}");
        assertThat(secondsBetweenCalls()).containsExactly(3_000L, 6_000L, 10_000L, 10_000L, 10_000L);
    }

    @Test
    void fullJitterStaysWithinTheComputedBackoff() {
        flaky("Boom", 4);
        h.run(task("""
                "Retry":[{"ErrorEquals":["Boom"],"IntervalSeconds":4,"MaxAttempts":4,"BackoffRate":2,
                          "JitterStrategy":"FULL"}],"""), "{}");
        List<Long> gaps = secondsBetweenCalls();
        assertThat(gaps).hasSize(4);
        long[] caps = {4_000, 8_000, 16_000, 32_000};
        for (int i = 0; i < gaps.size(); i++) {
            assertThat(gaps.get(i)).isBetween(0L, caps[i]);
        }
    }

    @Test
    void maxAttemptsZeroNeverRetries() {
        flaky("Boom", 1);
        ExecutionDescription d = h.run(task("\"Retry\":[{\"ErrorEquals\":[\"Boom\"],\"MaxAttempts\":0}],"), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(calls).hasSize(1);
    }

    @Test
    void onlyTheFirstMatchingRetrierApplies() {
        flaky("Boom", 2);
        ExecutionDescription d = h.run(task("""
                "Retry":[{"ErrorEquals":["Boom"],"MaxAttempts":1,"IntervalSeconds":5},
                         {"ErrorEquals":["States.ALL"],"MaxAttempts":5,"IntervalSeconds":1}],"""), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(calls).hasSize(2);
    }

    @Test
    void retriersCountSeparately() {
        List<String> errors = List.of("A", "B", "A");
        h.resources.resource("arn:test:flaky", inv -> {
            calls.add(inv.clock().now());
            if (calls.size() <= errors.size()) {
                throw new TaskFailedException(errors.get(calls.size() - 1), "x");
            }
            return json("1");
        });
        ExecutionDescription d = h.run(task("""
                "Retry":[{"ErrorEquals":["A"],"MaxAttempts":2,"IntervalSeconds":10,"BackoffRate":1},
                         {"ErrorEquals":["B"],"MaxAttempts":1,"IntervalSeconds":1}],"""), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(secondsBetweenCalls()).containsExactly(10_000L, 1_000L, 10_000L);
    }

    @Test
    void catchPutsErrorOutputAtResultPathAndGoesToNext() {
        flaky("Boom", 1);
        ExecutionDescription d = h.run(task("""
                "Catch":[{"ErrorEquals":["Boom"],"ResultPath":"$.error","Next":"Caught"}],"""), "{\"a\":1}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(json(d.output()))
                .isEqualTo(json("{\"a\":1,\"error\":{\"Error\":\"Boom\",\"Cause\":\"failure 1\"}}"));
    }

    @Test
    void catchWithoutResultPathReplacesTheInputWithTheError() {
        flaky("Boom", 1);
        ExecutionDescription d =
                h.run(task("\"Catch\":[{\"ErrorEquals\":[\"States.ALL\"],\"Next\":\"Caught\"}],"), "{\"a\":1}");
        assertThat(json(d.output())).isEqualTo(json("{\"Error\":\"Boom\",\"Cause\":\"failure 1\"}"));
    }

    @Test
    void firstMatchingCatcherWinsInOrder() {
        flaky("Boom", 1);
        ExecutionDescription d = h.run(task("""
                "Catch":[{"ErrorEquals":["Other"],"Next":"Caught"},
                         {"ErrorEquals":["Boom"],"Next":"Other"},
                         {"ErrorEquals":["States.ALL"],"Next":"Caught"}],"""), "{}");
        assertThat(json(d.output()).asText()).isEqualTo("other");
    }

    @Test
    void retriesAreExhaustedBeforeCatching() {
        flaky("Boom", 10);
        ExecutionDescription d = h.run(task("""
                "Retry":[{"ErrorEquals":["Boom"],"MaxAttempts":2}],
                "Catch":[{"ErrorEquals":["Boom"],"ResultPath":"$.e","Next":"Caught"}],"""), "{}");
        assertThat(calls).hasSize(3);
        assertThat(json(d.output()).at("/e/Cause").asText()).isEqualTo("failure 3");
    }

    @Test
    void taskFailedMatchesTaskErrorsButNotTimeouts() {
        flaky("Custom.Error", 1);
        ExecutionDescription caught =
                h.run(task("\"Catch\":[{\"ErrorEquals\":[\"States.TaskFailed\"],\"Next\":\"Other\"}],"), "{}");
        assertThat(json(caught.output()).asText()).isEqualTo("other");

        Harness slow = new Harness();
        slow.resources.resource("arn:test:flaky", inv -> {
            inv.clock().sleep(Duration.ofSeconds(30));
            return json("1");
        });
        ExecutionDescription timedOut = slow.run(task("""
                "TimeoutSeconds":5,"Catch":[{"ErrorEquals":["States.TaskFailed"],"Next":"Other"}],"""), "{}");
        assertThat(timedOut.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(timedOut.error()).isEqualTo("States.Timeout");
    }

    @Test
    void unhandledJavaExceptionsBecomeErrorsNamedByTheirClass() {
        h.resources.resource("arn:test:flaky", inv -> {
            throw new IllegalStateException("bad state");
        });
        ExecutionDescription d = h.run(
                task("\"Catch\":[{\"ErrorEquals\":[\"java.lang.IllegalStateException\"],"
                        + "\"ResultPath\":\"$.e\",\"Next\":\"Caught\"}],"),
                "{}");
        assertThat(json(d.output()).at("/e"))
                .isEqualTo(json("{\"Error\":\"java.lang.IllegalStateException\",\"Cause\":\"bad state\"}"));
    }

    @Test
    void statesRuntimeIsNeitherRetriedNorCaughtByStatesAll() {
        flaky("Boom", 0);
        ExecutionDescription d = h.run(task("""
                "Parameters":{"x.$":"$.missing"},
                "Retry":[{"ErrorEquals":["States.ALL"],"MaxAttempts":3}],
                "Catch":[{"ErrorEquals":["States.ALL"],"Next":"Caught"}],"""), "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("States.Runtime");
        assertThat(calls).isEmpty();
    }

    @Test
    void statesRuntimeIsNotCaughtEvenWhenNamedExplicitly() {
        flaky("Boom", 0);
        ExecutionDescription d = h.run(task("""
                "ResultSelector":{"x.$":"$.nothing"},
                "Catch":[{"ErrorEquals":["States.Runtime"],"Next":"Caught"}],"""), "{}");
        assertThat(d.error()).isEqualTo("States.Runtime");
        assertThat(calls).hasSize(1);
    }

    @Test
    void unknownResourceFailsTheExecutionWithAClearMessage() {
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:nothing:here","End":true,
                  "Catch":[{"ErrorEquals":["States.ALL"],"Next":"C"}]},"C":{"Type":"Succeed"}}}""", "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("States.Runtime");
        assertThat(d.cause()).contains("arn:nothing:here");
    }

    @Test
    void retryCountIsVisibleInTheContextObject() {
        List<Integer> seen = new ArrayList<>();
        h.resources.resource("arn:test:flaky", inv -> {
            seen.add(inv.payload().get("retry").asInt());
            if (seen.size() < 3) {
                throw new TaskFailedException("Boom", "again");
            }
            return json("1");
        });
        h.run(task("""
                "Parameters":{"retry.$":"$$.State.RetryCount"},
                "Retry":[{"ErrorEquals":["Boom"],"MaxAttempts":5}],"""), "{}");
        assertThat(seen).containsExactly(0, 1, 2);
    }
}
