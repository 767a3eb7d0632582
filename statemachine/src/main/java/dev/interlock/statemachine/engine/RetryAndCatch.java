package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.statemachine.model.Catcher;
import dev.interlock.statemachine.model.Retrier;
import dev.interlock.statemachine.model.State;
import dev.interlock.statemachine.model.Transition;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * The recovery of a Task, Map or Parallel state: runs its attempts, applying its Retry rules (with their backoff) and
 * then its Catch rules to each failure. A top-level state journals each granted retry, so a resumed execution goes on
 * with the retries already granted.
 */
final class RetryAndCatch {

    private final StepSupport support;
    private final RandomGenerator random;

    RetryAndCatch(StepSupport support, RandomGenerator random) {
        this.support = support;
        this.random = random;
    }

    /**
     * How a state's attempts begin: fresh, or as a resumed execution left them (the retries granted so far, a planned
     * retry's time, a failure not yet handled, or a Task result not yet applied, or a callback wait to continue).
     */
    record Start(
            int[] attemptsPerRetrier,
            int retryCount,
            Instant retryAt,
            StatesError pendingFailure,
            JsonNode taskResult,
            TaskStep.ResumedWait resumedWait) {
        static final Start FRESH = new Start(null, 0, null, null, null, null);
    }

    /** One attempt of the state, numbered by the retries made before it; it fails by throwing StatesError. */
    @FunctionalInterface
    interface Attempt {
        JsonNode run(int retryCount);
    }

    /** Finishes a Task state with a result its attempt had already produced (a resumed execution). */
    @FunctionalInterface
    interface Completion {
        JsonNode complete(JsonNode result, int retryCount);
    }

    /**
     * Runs attempts of {@code state} until one succeeds, a Catch rule handles a failure, or a failure is left unhandled
     * (thrown). A resumed state starts from {@code start}: the retries already granted, a planned retry's time, a
     * failure to handle first, or a Task result to finish with ({@code completion}, null for Map and Parallel).
     */
    <S extends State & State.Recoverable> StateStep.Exit run(
            S state,
            Transition transition,
            JsonNode input,
            Frame f,
            Start start,
            Attempt attempt,
            Completion completion) {
        List<Retrier> retriers = state.retry();
        List<Catcher> catchers = state.catchers();
        EngineClock clock = support.clock;
        int[] attemptsPerRetrier =
                start.attemptsPerRetrier() != null && start.attemptsPerRetrier().length == retriers.size()
                        ? start.attemptsPerRetrier().clone()
                        : new int[retriers.size()];
        int retryCount = start.retryCount();
        if (start.taskResult() != null && completion != null) {
            return support.exit(
                    f, state, completion.complete(start.taskResult(), retryCount), StepSupport.next(transition));
        }
        if (start.retryAt() != null && start.retryAt().isAfter(clock.now())) {
            f.token.sleepUntil(clock, start.retryAt());
        }
        StatesError pending = start.pendingFailure();
        while (true) {
            try {
                if (pending != null) {
                    StatesError first = pending;
                    pending = null;
                    throw first;
                }
                return support.exit(f, state, attempt.run(retryCount), StepSupport.next(transition));
            } catch (StatesError e) {
                if (e.terminal()) {
                    throw e;
                }
                int r = firstMatch(retriers, e);
                if (r >= 0 && attemptsPerRetrier[r] < retriers.get(r).maxAttempts()) {
                    Duration delay = RetryBackoff.delay(retriers.get(r), attemptsPerRetrier[r], random);
                    attemptsPerRetrier[r]++;
                    retryCount++;
                    Instant at = clock.now().plus(delay);
                    if (f.topLevel) {
                        support.execution.checkpoint(new JournalEntry.RetryPlanned(
                                Arrays.stream(attemptsPerRetrier).boxed().toList(), retryCount, at));
                    }
                    f.token.sleepUntil(clock, at);
                    continue;
                }
                for (Catcher catcher : catchers) {
                    if (e.matches(catcher.errorEquals())) {
                        return support.exit(
                                f,
                                state,
                                support.data.resultPath(input, e.asOutput(), catcher.resultPath()),
                                catcher.next());
                    }
                }
                throw e;
            }
        }
    }

    private static int firstMatch(List<Retrier> retriers, StatesError e) {
        for (int i = 0; i < retriers.size(); i++) {
            if (e.matches(retriers.get(i).errorEquals())) {
                return i;
            }
        }
        return -1;
    }
}
