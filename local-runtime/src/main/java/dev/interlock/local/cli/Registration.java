package dev.interlock.local.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What {@code apply} and {@code validate} share: read every document, have the API validate each one (writing
 * nothing), and only when all of them are valid register them — calendars, then archetypes, then pipelines — so a
 * mistake in one file never leaves half of a directory registered.
 */
final class Registration {

    private final ApiClient api;
    private final PrintStream out;
    private final PrintStream err;

    Registration(ApiClient api, PrintStream out, PrintStream err) {
        this.api = api;
        this.out = out;
        this.err = err;
    }

    /** Validates everything under {@code paths}; registers it too unless {@code dryRun}. */
    void run(List<Path> paths, boolean dryRun) {
        run(paths, dryRun, false);
    }

    /**
     * Validates everything under {@code paths}; registers it too unless {@code dryRun}; with {@code prune}, then
     * deletes every registered pipeline the files do not define (downstreams first), so the system holds what the
     * files say. A file pipeline that waits for one prune would delete stops everything before anything is written.
     */
    void run(List<Path> paths, boolean dryRun, boolean prune) {
        List<DocumentFiles.Document> docs = read(paths);
        List<String> pruned = prune ? pruned(docs) : List.of();
        List<DocumentFiles.Document> invalid = new ArrayList<>();
        for (DocumentFiles.Document d : docs) {
            if (!valid(d, docs)) {
                invalid.add(d);
            }
        }
        if (!invalid.isEmpty()) {
            throw new CliFailure(
                    invalid.size() + " of " + docs.size() + " document(s) invalid; nothing was registered");
        }
        if (dryRun) {
            docs.forEach(d -> out.println(d.kind() + " " + d.name() + " is valid (" + d.source() + ")"));
            pruned.forEach(name -> out.println("pipeline " + name + " would be deleted (--prune: in no file)"));
            out.println(docs.size() + " document(s) valid; nothing was registered (dry run)");
            return;
        }
        int registered = 0;
        for (DocumentFiles.Document d : docs) {
            ApiClient.Answer a = api.put(resource(d), "application/json", json(withoutKind(d.body())));
            if (!a.ok()) {
                Output.problem(err, d.kind() + " " + d.name() + " refused (" + d.source() + ")", a, d::locate);
                throw new CliFailure("registered " + registered + " of " + docs.size() + " document(s); stopped at "
                        + d.kind() + " " + d.name());
            }
            registered++;
            out.println(d.kind() + " " + d.name() + (a.status() == 201 ? " created" : " updated") + " (" + d.source()
                    + ")");
            // Re-registering a pipeline runs again the days a PERMANENT evaluator error stopped; say which.
            for (JsonNode started : Output.parse(a.body()).path("evaluations")) {
                out.println("  evaluation started: "
                        + started.path("marker").path("scheduleId").asText() + " "
                        + started.path("marker").path("date").asText() + " (execution "
                        + started.path("executionName").asText() + ")");
            }
        }
        int deleted = 0;
        for (String name : pruned) {
            ApiClient.Answer a = api.delete("/pipelines/" + ApiClient.segment(name));
            if (!a.ok() && a.status() != 404) {
                Output.problem(err, "pipeline " + name + " could not be pruned", a);
                throw new CliFailure("registered " + registered + " document(s) and pruned " + deleted + " of "
                        + pruned.size() + " pipeline(s); stopped at pipeline " + name);
            }
            deleted++;
            out.println("pipeline " + name
                    + (a.status() == 404
                            ? " was already deleted"
                            : " deleted (--prune: in no file; its history stays readable)"));
        }
    }

    /**
     * The registered pipelines no file defines, downstreams before their upstreams; refuses (before anything is
     * written) when a pipeline of the files waits for one of them, as it would wait for a pipeline that is gone.
     */
    List<String> pruned(List<DocumentFiles.Document> docs) {
        Map<String, DocumentFiles.Document> defined = new LinkedHashMap<>();
        docs.stream().filter(d -> d.kind().equals("pipeline")).forEach(d -> defined.put(d.name(), d));
        List<JsonNode> registered = QueryCommands.registeredPipelines(api);
        PipelineGraph graph = PipelineGraph.of(registered);
        List<String> gone = new ArrayList<>(graph.upstreamsFirst());
        gone.removeIf(defined::containsKey);
        List<String> problems = new ArrayList<>();
        for (DocumentFiles.Document d : defined.values()) {
            for (String upstream : PipelineGraph.upstreamsOf(d.body())) {
                if (gone.contains(upstream)) {
                    problems.add(d.locate(upstreamPath(d.body(), upstream)) + ": pipeline " + d.name()
                            + " waits for " + upstream + ", which is registered but in no file, so --prune would"
                            + " delete it; add " + upstream + " to the files or stop waiting for it");
                }
            }
        }
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            throw new CliFailure(problems.size() + " pipeline(s) wait for pipelines --prune would delete; nothing"
                    + " was registered or deleted");
        }
        return gone.reversed();
    }

    /** Every document of every file, in registration order; any file that cannot be read stops everything. */
    List<DocumentFiles.Document> read(List<Path> paths) {
        List<String> problems = new ArrayList<>();
        List<DocumentFiles.Document> docs = new ArrayList<>();
        for (Path p : paths) {
            try {
                for (Path file : DocumentFiles.files(p)) {
                    try {
                        docs.addAll(DocumentFiles.read(file));
                    } catch (DocumentFiles.Unreadable e) {
                        problems.add(e.getMessage());
                    }
                }
            } catch (DocumentFiles.Unreadable e) {
                problems.add(e.getMessage());
            }
        }
        Map<String, DocumentFiles.Document> seen = new HashMap<>();
        for (DocumentFiles.Document d : docs) {
            DocumentFiles.Document first = seen.putIfAbsent(d.kind() + "/" + d.name(), d);
            if (first != null) {
                problems.add(d.locate("$.name") + ": " + d.kind() + " '" + d.name() + "' is also defined at "
                        + first.locate("$.name"));
            }
        }
        if (problems.size() == 1) {
            throw new CliFailure(problems.getFirst() + "\n  nothing was registered");
        }
        if (!problems.isEmpty()) {
            problems.forEach(err::println);
            throw new CliFailure(problems.size() + " problems in the files above; nothing was registered");
        }
        if (docs.isEmpty()) {
            throw new CliFailure("no pipeline, archetype or calendar documents (.yaml, .yml, .json) in "
                    + paths.stream().map(Path::toString).collect(Collectors.joining(", ")));
        }
        docs.sort(Comparator.comparingInt(DocumentFiles.Document::order));
        return upstreamsFirst(docs);
    }

    /**
     * The documents with each pipeline after the pipelines of the batch it waits for, so the API knows an upstream when
     * its downstream is registered; a cycle among them stops everything, naming it, as the API would refuse its last
     * pipeline only after the others were registered.
     */
    private static List<DocumentFiles.Document> upstreamsFirst(List<DocumentFiles.Document> docs) {
        Map<String, DocumentFiles.Document> pipelines = new LinkedHashMap<>();
        docs.stream().filter(d -> d.kind().equals("pipeline")).forEach(d -> pipelines.put(d.name(), d));
        PipelineGraph graph = PipelineGraph.of(
                pipelines.values().stream().map(d -> (JsonNode) d.body()).toList());
        Optional<List<String>> cycle = graph.cycle();
        if (cycle.isPresent()) {
            List<String> names = cycle.get();
            DocumentFiles.Document first = pipelines.get(names.getFirst());
            throw new CliFailure(first.locate(upstreamPath(first.body(), names.get(1))) + ": pipelines wait for each"
                    + " other in a cycle: " + String.join(" -> ", names)
                    + " (each waits for the next)\n  nothing was registered");
        }
        List<DocumentFiles.Document> ordered = new ArrayList<>(
                docs.stream().filter(d -> !d.kind().equals("pipeline")).toList());
        graph.upstreamsFirst().forEach(name -> ordered.add(pipelines.get(name)));
        return ordered;
    }

    /** The JSON path of the trait field by which {@code pipeline} waits for {@code upstream}. */
    private static String upstreamPath(JsonNode pipeline, String upstream) {
        for (var it = field(pipeline, "traits").fields(); it.hasNext(); ) {
            var trait = it.next();
            JsonNode named = field(trait.getValue(), "config").path("upstreamPipeline");
            if (named.isTextual() && named.asText().trim().equals(upstream)) {
                return "$.traits." + trait.getKey() + ".config.upstreamPipeline";
            }
        }
        return "$.name";
    }

    /**
     * Asks the API; prints the document's problems when it refuses it. A reference to an archetype or calendar that
     * is itself part of this batch is not a problem: it will exist by the time the pipeline is registered.
     */
    private boolean valid(DocumentFiles.Document d, List<DocumentFiles.Document> batch) {
        ApiClient.Answer a = api.post(resource(d) + "/validate", json(withoutKind(d.body())));
        if (a.ok()) {
            return true;
        }
        if (a.status() == 400) {
            JsonNode problem = Output.parse(a.body());
            JsonNode errors = problem.path("errors");
            List<JsonNode> remaining = new ArrayList<>();
            errors.forEach(e -> {
                if (!definedInBatch(d, e.path("path").asText(), batch)) {
                    remaining.add(e);
                }
            });
            if (remaining.isEmpty() && !errors.isEmpty()) {
                return true;
            }
            ObjectNode rest = problem.deepCopy();
            rest.putArray("errors").addAll(remaining);
            a = new ApiClient.Answer(a.status(), rest.toString());
        }
        Output.problem(err, d.kind() + " " + d.name() + " is invalid (" + d.source() + ")", a, d::locate);
        return false;
    }

    private static boolean definedInBatch(DocumentFiles.Document d, String path, List<DocumentFiles.Document> batch) {
        if (!d.kind().equals("pipeline")) {
            return false;
        }
        String traitsPrefix = "$.traits.";
        String upstreamSuffix = ".config.upstreamPipeline";
        if (path.startsWith(traitsPrefix) && path.endsWith(upstreamSuffix)) {
            // An upstream of the batch is registered before its downstream, and checked against it then.
            String trait = path.substring(traitsPrefix.length(), path.length() - upstreamSuffix.length());
            JsonNode upstream =
                    field(field(field(d.body(), "traits"), trait), "config").path("upstreamPipeline");
            return upstream.isTextual()
                    && batch.stream()
                            .anyMatch(b -> b.kind().equals("pipeline")
                                    && b.name().equals(upstream.asText().trim()));
        }
        String referencedKind = switch (path) {
            case "$.archetype" -> "archetype";
            case "$.exclusions.calendar" -> "calendar";
            default -> null;
        };
        if (referencedKind == null) {
            return false;
        }
        JsonNode value = path.equals("$.archetype")
                ? field(d.body(), "archetype")
                : field(field(d.body(), "exclusions"), "calendar");
        Set<String> names = batch.stream()
                .filter(b -> b.kind().equals(referencedKind))
                .map(DocumentFiles.Document::name)
                .collect(Collectors.toSet());
        return value.isTextual() && names.contains(value.asText());
    }

    private static JsonNode field(JsonNode node, String name) {
        for (var it = node.fields(); it.hasNext(); ) {
            var f = it.next();
            if (f.getKey().equalsIgnoreCase(name)) {
                return f.getValue();
            }
        }
        return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
    }

    static String resource(DocumentFiles.Document d) {
        return "/" + d.kind() + "s/" + ApiClient.segment(d.name());
    }

    /** Older APIs do not know {@code kind}; it only tells the CLI where to send the document. */
    static ObjectNode withoutKind(ObjectNode body) {
        ObjectNode copy = body.deepCopy();
        List<String> kinds = new ArrayList<>();
        copy.fieldNames().forEachRemaining(n -> {
            if (n.equalsIgnoreCase("kind")) {
                kinds.add(n);
            }
        });
        copy.remove(kinds);
        return copy;
    }

    static String json(JsonNode node) {
        try {
            return Output.json().writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a parsed document is always writable as JSON", e);
        }
    }
}
