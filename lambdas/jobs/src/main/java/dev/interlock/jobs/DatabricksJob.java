package dev.interlock.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.RetryMode;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Starts a Databricks run — {@code jobs/run-now} for a job id, {@code jobs/runs/submit} for a one-time run by name —
 * and follows it ({@code jobs/runs/get}), sending the trigger's headers on both calls.
 */
final class DatabricksJob {

    /** Databricks' limit on {@code idempotency_token}. */
    private static final int MAX_IDEMPOTENCY_TOKEN = 64;

    private final HttpCalls calls;

    DatabricksJob(HttpCalls calls) {
        this.calls = calls;
    }

    TriggerResult start(DatabricksTrigger trigger, TriggerRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            if (trigger.jobId() == null
                    && (trigger.jobName() == null || trigger.jobName().isBlank())) {
                throw JobFailure.permanent("databricks trigger needs 'jobId' or 'jobName'");
            }
            String workspace = Metadata.requireField(
                            HttpCalls.plain(rendering, trigger.workspaceUrl(), "workspaceUrl"),
                            "databricks",
                            "workspaceUrl")
                    .replaceAll("/+$", "");
            ObjectNode body = InterlockJson.json().createObjectNode();
            String path;
            if (trigger.jobId() != null) {
                path = "/api/2.1/jobs/run-now";
                body.put("job_id", trigger.jobId());
            } else {
                path = "/api/2.1/jobs/runs/submit";
                body.put("run_name", trigger.jobName());
            }
            if (!trigger.notebookParams().isEmpty()) {
                body.set("notebook_params", InterlockJson.json().valueToTree(trigger.notebookParams()));
            }
            // Databricks returns the existing run for a repeated token, so a retried trigger never starts a second run.
            if (request.runId() != null && !request.runId().isBlank()) {
                String token = request.runId();
                body.put(
                        "idempotency_token",
                        token.length() > MAX_IDEMPOTENCY_TOKEN ? token.substring(0, MAX_IDEMPOTENCY_TOKEN) : token);
            }
            URI uri = HttpCalls.uri(workspace, "workspaceUrl", "databricks", path);
            Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
            JsonNode answer = calls.sendForJson(new OutboundRequest(
                            "POST",
                            uri,
                            HttpCalls.jsonHeaders(rendering, trigger.headers(), uri),
                            body.toString(),
                            timeout,
                            timeout,
                            RetryMode.START_ONCE)
                    .withHosts(rendering.hosts()));
            JsonNode runId = answer.get("run_id");
            if (runId == null || !runId.canConvertToLong() || runId.asLong() <= 0) {
                throw new JobFailure("databricks answered without a run_id", FailureCategory.TRANSIENT, null);
            }
            TriggerResult started = TriggerResult.running(Map.of(
                    Metadata.DATABRICKS_WORKSPACE_URL,
                    workspace,
                    Metadata.DATABRICKS_RUN_ID,
                    Long.toString(runId.asLong())));
            return request.resumed() && body.has("idempotency_token")
                    ? started.withEarlierStart(EarlierStart.byToken("databricks idempotency_token "
                            + body.get("idempotency_token").asText()))
                    : started;
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            List<String> ids = Metadata.require(
                    request.metadata(), "databricks", Metadata.DATABRICKS_WORKSPACE_URL, Metadata.DATABRICKS_RUN_ID);
            URI uri = HttpCalls.uri(
                    ids.get(0),
                    Metadata.DATABRICKS_WORKSPACE_URL,
                    "databricks",
                    "/api/2.1/jobs/runs/get?run_id=" + HttpCalls.segment(ids.get(1)));
            JsonNode answer = calls.sendForJson(OutboundRequest.get(uri)
                    .withHeaders(HttpCalls.pollHeaders(rendering, request.headers(), uri))
                    .withHosts(rendering.hosts()));
            JsonNode state = answer.path("state");
            String life = state.path("life_cycle_state").asText("");
            if (life.isEmpty()) {
                throw new JobFailure("databricks run has no state.life_cycle_state", FailureCategory.TRANSIENT, null);
            }
            return map(
                    life,
                    state.path("result_state").asText(""),
                    state.path("state_message").asText(""));
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    /** Cancels the run ({@code jobs/runs/cancel}); cancelling a run that already ended is accepted too. */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            List<String> ids = Metadata.require(
                    request.metadata(), "databricks", Metadata.DATABRICKS_WORKSPACE_URL, Metadata.DATABRICKS_RUN_ID);
            URI uri = HttpCalls.uri(
                    ids.get(0), Metadata.DATABRICKS_WORKSPACE_URL, "databricks", "/api/2.1/jobs/runs/cancel");
            ObjectNode body = InterlockJson.json().createObjectNode();
            body.put("run_id", Long.parseLong(ids.get(1)));
            calls.send(new OutboundRequest(
                            "POST",
                            uri,
                            HttpCalls.jsonHeaders(rendering, request.headers(), uri),
                            body.toString(),
                            null,
                            null,
                            RetryMode.IDEMPOTENT)
                    .withHosts(rendering.hosts()));
            return JobCanceller.Cancellation.requested("databricks run " + ids.get(1) + " cancel requested");
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    /**
     * life_cycle_state QUEUED, PENDING, RUNNING, TERMINATING, BLOCKED, WAITING_FOR_RETRY → running; TERMINATED is
     * judged by result_state; SKIPPED and INTERNAL_ERROR end the run.
     */
    static RunCheck map(String lifeCycle, String result, String stateMessage) {
        String message = lifeCycle + "/" + result + (stateMessage.isBlank() ? "" : ": " + stateMessage);
        return switch (lifeCycle.toUpperCase(Locale.ROOT)) {
            case "TERMINATED" ->
                switch (result.toUpperCase(Locale.ROOT)) {
                    case "SUCCESS", "SUCCESS_WITH_FAILURES" -> RunCheck.succeeded(message);
                    case "TIMEDOUT" -> RunCheck.failed(message, FailureCategory.TIMEOUT);
                    case "CANCELED" -> RunCheck.stopped("CANCELED", message);
                    case "EXCLUDED", "DISABLED" -> RunCheck.failed(message, FailureCategory.PERMANENT);
                    default -> RunCheck.failed(message, FailureCategory.TRANSIENT);
                };
            case "SKIPPED" -> RunCheck.failed(message, FailureCategory.PERMANENT);
            case "INTERNAL_ERROR" -> RunCheck.failed(message, FailureCategory.TRANSIENT);
            case "QUEUED", "PENDING", "RUNNING", "TERMINATING", "BLOCKED", "WAITING_FOR_RETRY" ->
                RunCheck.running(message);
            default -> RunCheck.running("unrecognised databricks state " + message);
        };
    }
}
