package dev.interlock.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.runtime.outbound.OutboundRequest;
import dev.interlock.runtime.outbound.OutboundResponse;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.RetryMode;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Starts an Airflow DAG run ({@code POST /api/v1/dags/{dag}/dagRuns}) and follows it
 * ({@code GET …/dagRuns/{run}}), sending the trigger's headers on both calls. A DAG run that ends {@code success} is
 * not taken at its word: unless its trigger turned the check off, failed task instances make it a
 * {@code FALSE_SUCCESS} ({@link AirflowTaskInstances}).
 */
final class AirflowJob {

    private final HttpCalls calls;
    private final AirflowTaskInstances taskInstances;

    AirflowJob(HttpCalls calls) {
        this.calls = calls;
        this.taskInstances = new AirflowTaskInstances(calls);
    }

    TriggerResult start(AirflowTrigger trigger, TriggerRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            String dagId = Metadata.requireField(trigger.dagId(), "airflow", "dagId");
            String base = Metadata.requireField(HttpCalls.plain(rendering, trigger.url(), "url"), "airflow", "url");
            URI uri = HttpCalls.uri(base, "url", "airflow", "/api/v1/dags/" + HttpCalls.segment(dagId) + "/dagRuns");
            ObjectNode body = InterlockJson.json().createObjectNode();
            body.set("conf", conf(trigger, rendering, uri));
            // Named after our run, so the DAG run is recognisable in Airflow and a repeated trigger is refused by
            // Airflow (409) instead of starting the DAG twice.
            String ourRunId =
                    request.runId() == null || request.runId().isBlank() ? null : "interlock__" + request.runId();
            if (ourRunId != null) {
                body.put("dag_run_id", ourRunId);
            }
            Duration timeout = Duration.ofSeconds(trigger.timeoutSeconds());
            OutboundRequest post = new OutboundRequest(
                            "POST",
                            uri,
                            HttpCalls.jsonHeaders(rendering, trigger.headers(), uri),
                            body.toString(),
                            timeout,
                            timeout,
                            RetryMode.START_ONCE)
                    .withHosts(rendering.hosts());
            OutboundResponse response = calls.exchange(post);
            String how = "airflow dag_run_id " + ourRunId;
            if (response.status() == 409 && ourRunId != null) {
                // This run's DAG run already exists: an earlier attempt started it and its answer was lost.
                return running(trigger, ourRunId, dagId, base).withEarlierStart(EarlierStart.found(how));
            }
            JsonNode answer =
                    HttpCalls.json(HttpCalls.requireSuccess(response, post), "POST " + HttpCalls.redacted(uri));
            JsonNode runId = answer.get("dag_run_id");
            if (runId == null || !runId.isTextual() || runId.asText().isBlank()) {
                throw new JobFailure("airflow answered without a dag_run_id", FailureCategory.TRANSIENT, null);
            }
            TriggerResult started = running(trigger, runId.asText(), dagId, base);
            return request.resumed() && ourRunId != null ? started.withEarlierStart(EarlierStart.none(how)) : started;
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    /**
     * The ids a poll needs; the URL as rendered (it never holds a credential: those go in headers); whether the poll
     * checks a {@code success} run's task instances.
     */
    private static TriggerResult running(AirflowTrigger trigger, String dagRunId, String dagId, String url) {
        return TriggerResult.running(Map.of(
                Metadata.AIRFLOW_DAG_RUN_ID,
                dagRunId,
                Metadata.AIRFLOW_DAG_ID,
                dagId,
                Metadata.AIRFLOW_URL,
                url.trim().replaceAll("/+$", ""),
                Metadata.AIRFLOW_FAILED_TASK_CHECK,
                Boolean.toString(trigger.failedTasksChecked())));
    }

    RunCheck check(RunCheckRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            List<String> ids = Metadata.require(
                    request.metadata(),
                    "airflow",
                    Metadata.AIRFLOW_URL,
                    Metadata.AIRFLOW_DAG_ID,
                    Metadata.AIRFLOW_DAG_RUN_ID);
            URI uri = HttpCalls.uri(
                    ids.get(0),
                    Metadata.AIRFLOW_URL,
                    "airflow",
                    "/api/v1/dags/" + HttpCalls.segment(ids.get(1)) + "/dagRuns/" + HttpCalls.segment(ids.get(2)));
            JsonNode answer = calls.sendForJson(poll(rendering, request, uri));
            JsonNode state = answer.get("state");
            if (state == null || !state.isTextual()) {
                throw new JobFailure("airflow dag run has no state", FailureCategory.TRANSIENT, null);
            }
            RunCheck check = map(state.asText());
            // Runs started before the check existed recorded no flag: their success stands.
            if (check.state() == RunCheckState.SUCCEEDED
                    && "true".equals(request.metadata().get(Metadata.AIRFLOW_FAILED_TASK_CHECK))) {
                RunCheck lie = taskInstances.check(uri, ids.get(2), listing -> poll(rendering, request, listing));
                if (lie != null) {
                    return lie;
                }
            }
            return check;
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    /** A GET of {@code uri} with the trigger's headers, rendered for it, to the hosts the rendering allows. */
    private static OutboundRequest poll(OutboundTemplates.Rendering rendering, RunCheckRequest request, URI uri)
            throws JobFailure {
        return OutboundRequest.get(uri)
                .withHeaders(HttpCalls.pollHeaders(rendering, request.headers(), uri))
                .withHosts(rendering.hosts());
    }

    /**
     * Marks the DAG run failed ({@code PATCH …/dagRuns/{run}} with {@code state: failed}, Airflow 2.2+): Airflow then
     * stops its running task instances. Repeating it is harmless.
     */
    JobCanceller.Cancellation cancel(RunCheckRequest request) throws JobFailure {
        OutboundTemplates.Rendering rendering = calls.rendering(request.templateValues());
        try {
            List<String> ids = Metadata.require(
                    request.metadata(),
                    "airflow",
                    Metadata.AIRFLOW_URL,
                    Metadata.AIRFLOW_DAG_ID,
                    Metadata.AIRFLOW_DAG_RUN_ID);
            URI uri = HttpCalls.uri(
                    ids.get(0),
                    Metadata.AIRFLOW_URL,
                    "airflow",
                    "/api/v1/dags/" + HttpCalls.segment(ids.get(1)) + "/dagRuns/" + HttpCalls.segment(ids.get(2)));
            OutboundRequest patch = new OutboundRequest(
                            "PATCH",
                            uri,
                            HttpCalls.jsonHeaders(rendering, request.headers(), uri),
                            "{\"state\":\"failed\"}",
                            null,
                            null,
                            RetryMode.IDEMPOTENT)
                    .withHosts(rendering.hosts());
            JsonNode answer = calls.sendForJson(patch);
            return JobCanceller.Cancellation.requested("airflow dag run " + ids.get(2) + " marked failed (state now "
                    + answer.path("state").asText("unknown") + ")");
        } catch (JobFailure e) {
            throw e.scrubbed(rendering);
        }
    }

    /** Airflow's DagRunState: queued, running, success, failed. */
    static RunCheck map(String state) {
        return switch (state.toLowerCase(Locale.ROOT)) {
            case "success" -> RunCheck.succeeded(state);
            case "failed" -> RunCheck.failed(state, FailureCategory.TRANSIENT);
            case "queued", "running" -> RunCheck.running(state);
            // A state this version does not know is not an end: keep polling until the poll limit decides.
            default -> RunCheck.running("unrecognised airflow state '" + state + "'");
        };
    }

    /**
     * {@code conf} from the structured field (execution values already expanded), else from the JSON {@code body}
     * rendered for the request (credentials included), else empty.
     */
    private static JsonNode conf(AirflowTrigger trigger, OutboundTemplates.Rendering rendering, URI target)
            throws JobFailure {
        if (!trigger.conf().isEmpty()) {
            return InterlockJson.json().valueToTree(trigger.conf());
        }
        if (trigger.body() == null || trigger.body().isBlank()) {
            return InterlockJson.json().createObjectNode();
        }
        try {
            JsonNode parsed = InterlockJson.json().readTree(HttpCalls.text(rendering, trigger.body(), target, "body"));
            if (!parsed.isObject()) {
                throw JobFailure.permanent("airflow 'body' must be a JSON object (it becomes the DAG run's conf)");
            }
            return parsed;
        } catch (JsonProcessingException e) {
            // The parser's message would quote the rendered body, credentials included.
            throw JobFailure.permanent(
                    "airflow 'body' is not valid JSON once rendered (it becomes the DAG run's conf)");
        }
    }
}
