package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The commands about the pipeline graph: show it whole, and delete a pipeline without breaking it unnoticed. */
final class GraphCommands {

    private GraphCommands() {}

    @Command(
            name = "graph",
            description = "Show every registered pipeline with the pipelines it waits for and the ones that wait "
                    + "for it (from every page of GET /pipelines).")
    static final class Graph implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Override
        public Integer call() {
            PipelineGraph graph = PipelineGraph.of(QueryCommands.registeredPipelines(api.client()));
            System.out.printf("%-40s %-40s %s%n", "PIPELINE", "WAITS FOR", "FED TO");
            for (String name : graph.pipelines()) {
                System.out.printf(
                        "%-40s %-40s %s%n",
                        name,
                        names(graph.upstreamsOf(name), graph.pipelines()),
                        names(graph.downstreamsOf(name), graph.pipelines()));
            }
            System.out.println(graph.pipelines().size() + " pipeline(s)");
            graph.cycle()
                    .ifPresent(cycle -> System.out.println(
                            "cycle (registered before registration refused them): " + String.join(" -> ", cycle)));
            return 0;
        }

        /** The names, an upstream nobody registered marked so. */
        private static String names(Set<String> names, Set<String> registered) {
            if (names.isEmpty()) {
                return "-";
            }
            return String.join(
                    ", ",
                    names.stream()
                            .map(n -> registered.contains(n) ? n : n + " (not registered)")
                            .toList());
        }
    }

    @Command(
            name = "delete",
            description = "Delete a registered pipeline (its history stays readable). Refused while other "
                    + "pipelines wait for it, naming them, unless --force.")
    static final class Delete implements Callable<Integer> {
        @Mixin
        ApiOptions api;

        @Parameters(index = "0", description = "The pipeline id.")
        String pipeline;

        @Option(names = "--force", description = "Delete it even though other pipelines wait for it.")
        boolean force;

        @Override
        public Integer call() {
            ApiClient.Answer a =
                    api.client().delete("/pipelines/" + ApiClient.segment(pipeline) + (force ? "?force=true" : ""));
            if (a.ok()) {
                System.out.println("pipeline " + pipeline + " deleted");
                return 0;
            }
            Output.problem(System.err, "deleting pipeline " + pipeline, a);
            if (a.status() == 409) {
                for (JsonNode dependant : Output.parse(a.body()).path("dependants")) {
                    System.err.println("  " + dependant.path("pipelineId").asText() + " waits for it at "
                            + dependant.path("errors").path(0).path("path").asText());
                }
                System.err.println("  re-register or delete those first, or pass --force to delete it anyway");
            }
            return CliFailure.FAILED;
        }
    }
}
