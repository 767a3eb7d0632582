package dev.interlock.orchestrator;

import dev.interlock.model.run.JobCallback;
import dev.interlock.model.run.JobMetadata;
import dev.interlock.model.run.RunState;
import dev.interlock.model.trigger.TriggerType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code awaitJobCompletion}: called by {@code WaitForJobCallback} ({@code lambda:invoke.waitForTaskToken}) for a job
 * that completes by callback. Records job id → (run, task token) and the watchdog's callback check (due in
 * {@link Watchdog#CALLBACK_CHECK_INTERVAL}: if no job-state event ended the wait by then, the watchdog asks the job
 * system and completes it); if the job's terminal event already came (a job faster than this call), completes the wait
 * at once. The machine ignores the answer and waits for the token, at most the job's maximum duration and a poll
 * interval; then its fallback poll asks the run-checker, which cancels a job past its maximum.
 */
public final class AwaitJobCompletion implements Action {

    /** Request payload. */
    record Request(String taskToken, String triggerType, Map<String, Object> metadata) {}

    /** Payload: whether the token was recorded, and whether the wait was completed by this call. */
    public record Awaiting(boolean recorded, boolean completed) {}

    private final Collaborators c;
    private final JobCompletion completion;

    public AwaitJobCompletion(Collaborators collaborators) {
        this.c = collaborators;
        this.completion = new JobCompletion(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request r = request.payload(Request.class);
        if (r.taskToken() == null || r.taskToken().isBlank()) {
            return Outcome.error("payload.taskToken is required", errorPayload());
        }
        if (request.runId() == null || request.executionName() == null) {
            return Outcome.error("runId and executionName are required", errorPayload());
        }
        TriggerType type;
        try {
            type = TriggerType.fromJson(r.triggerType());
        } catch (IllegalArgumentException e) {
            return Outcome.error("payload.triggerType: " + e.getMessage(), errorPayload());
        }
        String jobId = jobId(request, type, r.metadata());
        if (jobId == null) {
            // The trigger has not recorded the job yet (its call was retried): nothing to check it by; the
            // fallback poll at the wait's timeout follows it.
            return Outcome.skip(
                    "no job id recorded for run " + request.runId()
                            + " yet; the fallback poll at the wait's timeout follows it",
                    new Awaiting(false, false));
        }
        JobCallback.Waiter waiter = new JobCallback.Waiter(
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                request.runId(),
                request.executionName(),
                r.taskToken());
        // The watchdog's callback check first: if this call dies after recording the waiter, a lost event is still
        // found; a check with no waiter behind it just goes away.
        c.provider()
                .watchdog()
                .expectJobCallback(
                        request.pipelineId(),
                        request.runId(),
                        type.wireName(),
                        jobId,
                        c.now().plus(Watchdog.CALLBACK_CHECK_INTERVAL));
        JobCallback callback = c.provider().jobCallbacks().await(type, jobId, waiter, expiry());
        if (!callback.complete()) {
            return Outcome.proceed(new Awaiting(true, false));
        }
        try {
            JobCompletion.Completed done = completion.complete(callback);
            return Outcome.proceed(new Awaiting(true, done.delivered()));
        } catch (RuntimeException e) {
            c.log()
                    .warn(
                            request.logContext(),
                            "could not complete the wait; the watchdog's callback check will",
                            Map.of("error", String.valueOf(e.getMessage())));
            return Outcome.proceed(new Awaiting(true, false));
        }
    }

    /** The job's id from the trigger's metadata, else from the run (a retried trigger may answer without it). */
    private String jobId(ActionRequest request, TriggerType type, Map<String, Object> metadata) {
        Map<String, String> text = new LinkedHashMap<>();
        if (metadata != null) {
            metadata.forEach((k, v) -> {
                if (k != null && v != null) {
                    text.put(k, String.valueOf(v));
                }
            });
        }
        String id = JobMetadata.jobId(type, text);
        if (id != null && !id.isBlank()) {
            return id;
        }
        Optional<RunState> run = c.provider().runs().get(request.runId());
        return run.map(value -> JobMetadata.jobId(type, value.metadata()))
                .filter(s -> !s.isBlank())
                .orElse(null);
    }

    private java.time.Instant expiry() {
        // Past the longest execution that could wait for it, and the lock's TTL margin.
        return c.now().plusSeconds(c.settings().executionTimeoutSeconds() + 1800L);
    }

    @Override
    public Awaiting errorPayload() {
        return new Awaiting(false, false);
    }
}
