package dev.interlock.api;

import dev.interlock.store.Provider;
import java.util.Map;

/**
 * What happened to a pipeline: runs, run logs, events, reruns and trait results, each a paginated listing. A pipeline
 * that was deleted keeps its history readable, so these do not require the pipeline to exist.
 */
final class HistoryRoutes {

    private final Provider provider;

    HistoryRoutes(Provider provider) {
        this.provider = provider;
    }

    ApiResponse runs(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.runs().listByPipeline(PathIds.pipelineId(path.get("id")), Paging.of(request)));
    }

    ApiResponse run(ApiRequest request, Map<String, String> path) {
        String runId = PathIds.runId(path.get("runId"));
        return provider.runs()
                .get(runId)
                .map(run -> ApiResponse.json(200, run))
                .orElseThrow(() -> ProblemException.of(ProblemType.NOT_FOUND, "no run '" + runId + "'"));
    }

    ApiResponse runLogs(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.runLogs().listByPipeline(PathIds.pipelineId(path.get("id")), Paging.of(request)));
    }

    /** Oldest first, continuing after the cursor: a client polls with the last cursor to follow new events. */
    ApiResponse events(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.events().read(PathIds.pipelineId(path.get("id")), Paging.of(request)));
    }

    /** Newest request first, each with the status the workflow keeps (PENDING, STARTED, COMPLETED, FAILED, SKIPPED). */
    ApiResponse reruns(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.reruns().listByPipeline(PathIds.pipelineId(path.get("id")), Paging.of(request)));
    }

    ApiResponse traits(ApiRequest request, Map<String, String> path) {
        return Paging.list(provider.traits().listByPipeline(PathIds.pipelineId(path.get("id")), Paging.of(request)));
    }
}
