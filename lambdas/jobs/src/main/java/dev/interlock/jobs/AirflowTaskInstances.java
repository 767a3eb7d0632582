package dev.interlock.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.runtime.outbound.OutboundRequest;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The task-instance check of an Airflow DAG run that ended {@code success}: {@code GET …/dagRuns/{run}/taskInstances}
 * asking for the states of {@link AirflowTrigger#FAILED_TASK_STATES} (and keeping only those, should an Airflow ignore
 * the filter), page by page. Any such task instance makes the run a {@code FALSE_SUCCESS} naming the failed task ids;
 * none leaves the success standing. A listing that cannot be read is not a success: the poll's usual rules decide (a
 * 5xx is asked again at the next poll, a 403 — the API user may read DAG runs but not task instances — fails the run
 * {@code PERMANENT} naming the call).
 */
final class AirflowTaskInstances {

    /** Airflow's own page limit for list endpoints (its {@code maximum_page_limit} default). */
    static final int PAGE_LIMIT = 100;
    /** Pages read at most (1,000 failed task instances); past this the failure names what it read. */
    static final int MAX_PAGES = 10;
    /** How many failed task ids the failure message names. */
    static final int NAMED_AT_MOST = 10;

    private final HttpCalls calls;

    /** The request of one listing page at its URL (the poll's headers, rendered for it; the poll's hosts). */
    @FunctionalInterface
    interface Request {
        OutboundRequest to(URI uri) throws JobFailure;
    }

    AirflowTaskInstances(HttpCalls calls) {
        this.calls = calls;
    }

    /**
     * The lie the DAG run's task instances tell, or null when they tell none.
     *
     * @param dagRunUri {@code …/dags/{dag}/dagRuns/{run}}, as the poll asked it
     * @param request   the poll's request (headers and allowed hosts), sent again to the listing's URL
     */
    RunCheck check(URI dagRunUri, String dagRunId, Request request) throws JobFailure {
        Map<String, String> failed = new LinkedHashMap<>();
        long total = 0;
        for (int page = 0; page < MAX_PAGES; page++) {
            URI uri = URI.create(dagRunUri + "/taskInstances?" + query(page * PAGE_LIMIT));
            JsonNode answer = calls.sendForJson(request.to(uri));
            JsonNode instances = answer.path("task_instances");
            if (!instances.isArray()) {
                throw new JobFailure(
                        "GET " + HttpCalls.redacted(uri) + " answered without task_instances",
                        FailureCategory.TRANSIENT,
                        null);
            }
            for (JsonNode instance : instances) {
                String state = instance.path("state").asText("").toLowerCase(Locale.ROOT);
                String taskId = instance.path("task_id").asText("");
                if (AirflowTrigger.FAILED_TASK_STATES.contains(state) && !taskId.isBlank()) {
                    // A mapped task has one instance per map index: its id is named once.
                    failed.putIfAbsent(taskId, state);
                }
            }
            total = answer.path("total_entries").asLong(0);
            if (instances.isEmpty() || (long) (page + 1) * PAGE_LIMIT >= total) {
                break;
            }
        }
        if (failed.isEmpty()) {
            return null;
        }
        return RunCheck.failed(
                "airflow dag run " + dagRunId + " ended success, but task instances failed: " + named(failed),
                FailureCategory.FALSE_SUCCESS);
    }

    private static String query(int offset) {
        StringBuilder query = new StringBuilder();
        for (String state : AirflowTrigger.FAILED_TASK_STATES) {
            query.append("state=").append(state).append('&');
        }
        return query.append("limit=")
                .append(PAGE_LIMIT)
                .append("&offset=")
                .append(offset)
                .toString();
    }

    /** {@code load (failed), publish (upstream_failed)}, the first {@value #NAMED_AT_MOST}, then how many more. */
    private static String named(Map<String, String> failed) {
        StringBuilder text = new StringBuilder();
        int shown = 0;
        for (Map.Entry<String, String> task : failed.entrySet()) {
            if (shown == NAMED_AT_MOST) {
                text.append(" and ").append(failed.size() - shown).append(" more");
                break;
            }
            text.append(shown == 0 ? "" : ", ")
                    .append(task.getKey())
                    .append(" (")
                    .append(task.getValue())
                    .append(')');
            shown++;
        }
        return text.toString();
    }
}
