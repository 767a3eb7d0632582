package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a failed run tells: its events (the run's FAILED change, then a scheduled retry, exhausted retries or an
 * exhausted validation) and, when no retry follows, its alert. Written by {@code logResult} and by the day's
 * completion ({@link DayCompletion}) alike.
 */
final class FailureNotices {

    private final Collaborators collaborators;

    FailureNotices(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    List<Event> failureEvents(
            ActionRequest request,
            LogResult.Request body,
            FailureCategory category,
            String message,
            int attempt,
            boolean retryable,
            RetryPolicy policy,
            boolean completionStands) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("attemptNumber", attempt);
        details.put("failureCategory", category.wireName());
        if (body.phase() != null) {
            details.put("phase", body.phase());
        }
        if (body.blocking() != null && !body.blocking().isEmpty()) {
            details.put("blocking", body.blocking());
        }
        if (body.pollCount() != null) {
            details.put("pollCount", body.pollCount());
        }
        if (body.stoppingTrait() != null) {
            details.put("trait", body.stoppingTrait());
        }
        List<Event> events = new ArrayList<>();
        events.add(collaborators.event(
                request, EventKind.RUN_STATE_CHANGED, RunStatus.FAILED.wireName(), message, details));
        if (category == FailureCategory.VALIDATION_EXHAUSTED) {
            events.add(collaborators.event(
                    request,
                    EventKind.VALIDATION_EXHAUSTED,
                    RunLogStatus.FAILED.wireName(),
                    completionStands ? message + "; the day stays COMPLETED" : message,
                    details));
        } else if (retryable) {
            events.add(collaborators.event(
                    request,
                    EventKind.RETRY_SCHEDULED,
                    "RETRY",
                    "retry after " + policy.backoff(attempt).getSeconds() + " s",
                    details));
        } else if (policy.isRetryable(category)) {
            events.add(collaborators.event(
                    request,
                    EventKind.RETRY_EXHAUSTED,
                    RunLogStatus.FAILED.wireName(),
                    attempt + " of " + policy.maxAttempts() + " attempts failed",
                    details));
        }
        return events;
    }

    void alertFailure(
            ActionRequest request,
            LogResult.Request body,
            FailureCategory category,
            String message,
            int attempt,
            boolean retryable,
            RetryPolicy policy,
            boolean pipelineKnown) {
        // A wait a trait's PERMANENT error stopped was alerted once already, as that trait's TRAIT_ERROR.
        if (retryable || body.stoppingTrait() != null) {
            return;
        }
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("runId", request.runId());
        details.put("attemptNumber", attempt);
        details.put("failureCategory", category.wireName());
        if (body.phase() != null) {
            details.put("phase", body.phase());
        }
        AlertKind kind;
        String text;
        if (category == FailureCategory.VALIDATION_EXHAUSTED) {
            kind = AlertKind.VALIDATION_EXHAUSTED;
            details.put("blocking", body.blocking() == null ? List.of() : body.blocking());
            text = "Validation deadline passed for " + request.pipelineId() + " before every required trait passed";
        } else if (pipelineKnown && policy.isRetryable(category)) {
            kind = AlertKind.RETRY_EXHAUSTED;
            text = "Retries exhausted for " + request.pipelineId() + " after " + attempt + " of " + policy.maxAttempts()
                    + " attempts: " + message;
        } else {
            kind = AlertKind.RUN_FAILED;
            text = "Run failed for " + request.pipelineId() + " (" + category.wireName() + ", not retried): " + message;
        }
        collaborators
                .alerts()
                .raise(
                        kind,
                        AlertLevel.ERROR,
                        request.pipelineId(),
                        request.scheduleId(),
                        request.date(),
                        text,
                        details,
                        request.logContext());
    }
}
