package dev.interlock.local.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.json.InterlockJson;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The task instances of the fake Airflow's DAG runs ({@link FakeJobServer}): which tasks a run's {@code conf} says
 * failed ({@value #FAILED_TASKS_KEY}), and Airflow's {@code GET …/dagRuns/{id}/taskInstances} answer with its
 * {@code state}, {@code limit} and {@code offset} parameters.
 */
final class FakeTaskInstances {

    /**
     * The DAG run {@code conf} key naming the task instances that failed in a run that still ends {@code success}:
     * task ids separated by commas or new lines, each optionally followed by {@code :state} ({@code failed}, the
     * default, or {@code upstream_failed}).
     */
    static final String FAILED_TASKS_KEY = "--fake-failed-tasks";
    /** The task of every fake DAG that ends as the run does (a leaf). */
    static final String LEAF_TASK = "done";
    /** Airflow's own page limit for list endpoints (its {@code maximum_page_limit} default). */
    private static final int PAGE_LIMIT = 100;

    private FakeTaskInstances() {}

    /**
     * The {@value #FAILED_TASKS_KEY} value as task id → state; absent or empty: none.
     *
     * @throws IllegalArgumentException naming the key, for a value that is not text or a state the fake does not play
     */
    static Map<String, String> failedTasks(JsonNode value) {
        Map<String, String> tasks = new LinkedHashMap<>();
        if (value == null || value.isMissingNode() || value.isNull()) {
            return tasks;
        }
        if (!value.isTextual()) {
            throw new IllegalArgumentException(FAILED_TASKS_KEY + " must be text: task ids separated by commas");
        }
        for (String entry : value.asText().split("[,\\n]")) {
            String trimmed = entry.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            int colon = trimmed.indexOf(':');
            String task = colon < 0 ? trimmed : trimmed.substring(0, colon).strip();
            String state = colon < 0 ? "failed" : trimmed.substring(colon + 1).strip();
            if (task.isEmpty() || !(state.equals("failed") || state.equals("upstream_failed"))) {
                throw new IllegalArgumentException(FAILED_TASKS_KEY + " entries are task_id or task_id:state (failed or"
                        + " upstream_failed); got '" + trimmed + "'");
            }
            tasks.put(task, state);
        }
        return tasks;
    }

    /** Airflow's TaskInstanceCollection: the run's task instances ({@code tasks}) in the asked states, one page. */
    static String page(String dag, String dagRunId, Map<String, String> tasks, URI uri) {
        Set<String> states = new HashSet<>();
        int limit = PAGE_LIMIT;
        int offset = 0;
        String query = uri.getRawQuery();
        for (String pair : query == null ? new String[0] : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            switch (key) {
                case "state" -> states.add(value);
                case "limit" -> limit = Math.min(PAGE_LIMIT, Integer.parseInt(value));
                case "offset" -> offset = Integer.parseInt(value);
                default -> {
                    // Airflow answers 400 for a parameter it does not know; the fake ignores it.
                }
            }
        }
        List<Map.Entry<String, String>> matching = tasks.entrySet().stream()
                .filter(t -> states.isEmpty() || states.contains(t.getValue()))
                .toList();
        ObjectNode out = InterlockJson.json().createObjectNode();
        ArrayNode list = out.putArray("task_instances");
        for (int i = offset; i < Math.min(matching.size(), offset + limit); i++) {
            list.addObject()
                    .put("task_id", matching.get(i).getKey())
                    .put("dag_id", dag)
                    .put("dag_run_id", dagRunId)
                    .put("state", matching.get(i).getValue())
                    .put("map_index", -1)
                    .put("try_number", 1);
        }
        out.put("total_entries", matching.size());
        return out.toString();
    }
}
