package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.run.JobCallback;
import dev.interlock.model.trigger.JobStateRule;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code jobStateChange}: the target of the job-state rules ({@link JobStateRule}), invoked by EventBridge with
 * {@code {"action":"jobStateChange","payload":{source, detailType, time, detail}}}. Finds the run waiting for the job
 * by the job's id, records its transition by CAS and ends the machine's wait (SendTaskSuccess / SendTaskFailure). An
 * event that comes before the machine waits is kept on the job's item, and the wait completes as it starts. Throws
 * only when the wait could not be ended (Step Functions unreachable), so EventBridge delivers the event again.
 */
public final class JobStateChange implements Action {

    /** Request payload: the rule's rendering of the event. */
    record Request(String source, String detailType, String time, JsonNode detail) {}

    /** Payload: the job, its state, whether a run waited for it and whether its wait was ended now. */
    public record Handled(String jobId, String state, boolean waiting, boolean completed) {}

    private final Collaborators c;
    private final JobCompletion completion;

    public JobStateChange(Collaborators collaborators) {
        this.c = collaborators;
        this.completion = new JobCompletion(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request r = request.payload(Request.class);
        Optional<JobStateRule> found = JobStateRule.forEvent(r.source(), r.detailType());
        if (found.isEmpty()) {
            return Outcome.error(
                    "payload.source/payload.detailType: not a job-state event Interlock follows (" + r.source() + " / "
                            + r.detailType() + ")",
                    errorPayload());
        }
        JobStateRule rule = found.get();
        String state = text(r.detail(), rule.stateField());
        String jobId = text(r.detail(), rule.jobIdField());
        if (jobId == null) {
            return Outcome.error("payload.detail." + rule.jobIdField() + " is required", errorPayload());
        }
        if (state == null) {
            return Outcome.error("payload.detail." + rule.stateField() + " is required", errorPayload());
        }
        if (!rule.terminalStates().contains(state)) {
            return Outcome.skip("state " + state + " does not end the job", new Handled(jobId, state, false, false));
        }
        JobCallback.JobEnd end = new JobCallback.JobEnd(state, message(r.detail()), time(r.time()));
        JobCallback callback = c.provider()
                .jobCallbacks()
                .ended(
                        rule.triggerType(),
                        jobId,
                        end,
                        c.now().plusSeconds(c.settings().executionTimeoutSeconds() + 1800L));
        if (!callback.complete()) {
            // The machine does not wait yet (or the job is not one of Interlock's): its wait completes as it starts.
            return Outcome.proceed(new Handled(jobId, state, false, false));
        }
        JobCompletion.Completed done = completion.complete(callback);
        c.log()
                .info(
                        request.logContext(),
                        "job state change delivered",
                        Map.of(
                                "jobId",
                                jobId,
                                "state",
                                state,
                                "runId",
                                callback.waiter().runId(),
                                "delivered",
                                done.delivered(),
                                "dayRecorded",
                                done.recorded()));
        return Outcome.proceed(new Handled(jobId, state, true, done.delivered()));
    }

    private static String text(JsonNode detail, String field) {
        JsonNode value = detail == null ? null : detail.get(field);
        return value == null || !value.isValueNode() || value.asText().isBlank() ? null : value.asText();
    }

    /** The job system's own words: Glue's and EMR's {@code message}, Step Functions' {@code error}/{@code cause}. */
    private static String message(JsonNode detail) {
        String message = text(detail, "message");
        if (message != null) {
            return message;
        }
        String error = text(detail, "error");
        String cause = text(detail, "cause");
        return error == null ? (cause == null ? "" : cause) : cause == null ? error : error + ": " + cause;
    }

    private Instant time(String time) {
        try {
            return time == null ? c.now() : Instant.parse(time);
        } catch (DateTimeException e) {
            return c.now();
        }
    }

    @Override
    public Handled errorPayload() {
        return new Handled("", "", false, false);
    }
}
