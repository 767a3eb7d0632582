package dev.interlock.orchestrator;

import dev.interlock.model.force.Forced;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.RunLogChange;
import java.time.Instant;
import java.util.List;

/**
 * The run log's change for a run's end, by the attempt-counting rule ({@link AttemptLedger}): a failure counts one
 * attempt and leaves a completed day completed, a completion none; each records what the run went without and who
 * forced its day ready.
 */
final class RunLogChanges {

    private RunLogChanges() {}

    static RunLogChange failedChange(
            ActionRequest request,
            String message,
            FailureCategory category,
            String trait,
            List<String> proceededWithout,
            Instant now) {
        return failedChange(request, message, category, trait, proceededWithout, null, now);
    }

    /**
     * {@link #failedChange(ActionRequest, String, FailureCategory, String, List, Instant)} for a run that started
     * because its day was forced ready ({@code forced}; null: it was not): a FAILED day says so.
     */
    static RunLogChange failedChange(
            ActionRequest request,
            String message,
            FailureCategory category,
            String trait,
            List<String> proceededWithout,
            Forced forced,
            Instant now) {
        return current -> forcedIfFailed(
                AttemptLedger.afterFailure(
                        current,
                        request.pipelineId(),
                        request.date(),
                        request.scheduleId(),
                        request.runId(),
                        request.executionName(),
                        message,
                        category,
                        trait,
                        proceededWithout,
                        now),
                forced);
    }

    private static RunLog forcedIfFailed(RunLog next, Forced forced) {
        // A completed day a failed rerun leaves standing keeps what its completion recorded.
        return next.status() == RunLogStatus.FAILED ? next.withForced(forced) : next;
    }

    static RunLogChange completedChange(ActionRequest request, List<String> proceededWithout, Instant now) {
        return completedChange(request, proceededWithout, null, now);
    }

    /**
     * The run log change of a completed run that went on without {@code proceededWithout}, started because its day was
     * forced ready ({@code forced}; null: it was not).
     */
    static RunLogChange completedChange(
            ActionRequest request, List<String> proceededWithout, Forced forced, Instant now) {
        return current -> AttemptLedger.afterCompletion(
                        current,
                        request.pipelineId(),
                        request.date(),
                        request.scheduleId(),
                        request.runId(),
                        request.executionName(),
                        proceededWithout,
                        now)
                .withForced(forced);
    }
}
