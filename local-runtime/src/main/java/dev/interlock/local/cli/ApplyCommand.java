package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code interlock apply -f <file|dir>}: registers every pipeline, archetype and calendar document found (YAML with
 * several documents, or JSON), archetypes and calendars first so pipelines that use them validate.
 */
@Command(name = "apply", description = "Register pipelines, archetypes and calendars from YAML or JSON files or directories.")
final class ApplyCommand implements Callable<Integer> {

    @Mixin
    ApiOptions api;

    @Option(names = {"-f", "--file"}, required = true, description = "A file or a directory (searched recursively for .yaml, .yml, .json).")
    List<Path> paths;

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** One document to register. */
    record Document(Path source, String kind, String name, JsonNode body) {
        int order() {
            return switch (kind) {
                case "calendar" -> 0;
                case "archetype" -> 1;
                default -> 2;
            };
        }
    }

    @Override
    public Integer call() throws Exception {
        List<Document> docs = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (Path p : paths) {
            for (Path file : files(p)) {
                try {
                    docs.addAll(read(file));
                } catch (IOException | IllegalArgumentException e) {
                    unreadable.add(file + ": " + e.getMessage());
                }
            }
        }
        unreadable.forEach(u -> System.err.println("cannot read " + u));
        docs.sort(Comparator.comparingInt(Document::order));
        ApiClient client = api.client();
        int failed = unreadable.size();
        for (Document d : docs) {
            String path = "/" + d.kind() + "s/" + ApiClient.segment(d.name());
            ApiClient.Answer a = client.put(path, "application/json", Output.JSON.writeValueAsString(d.body()));
            if (a.ok()) {
                System.out.println(d.kind() + " " + d.name() + " registered (" + d.source() + ")");
            } else {
                failed++;
                Output.problem(System.err, d.kind() + " " + d.name() + " rejected (" + d.source() + ")", a);
            }
        }
        if (docs.isEmpty() && unreadable.isEmpty()) {
            System.err.println("no .yaml, .yml or .json documents found in " + paths);
            return 2;
        }
        return failed == 0 ? 0 : 1;
    }

    static List<Path> files(Path p) throws IOException {
        if (!Files.exists(p)) {
            throw new IllegalArgumentException(p + " does not exist");
        }
        if (Files.isRegularFile(p)) {
            return List.of(p);
        }
        try (Stream<Path> s = Files.walk(p)) {
            return s.filter(Files::isRegularFile)
                    .filter(f -> f.toString().endsWith(".yaml") || f.toString().endsWith(".yml") || f.toString().endsWith(".json"))
                    .sorted().toList();
        }
    }

    static List<Document> read(Path file) throws IOException {
        List<Document> out = new ArrayList<>();
        try (MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(Files.newBufferedReader(file))) {
            while (it.hasNext()) {
                JsonNode node = it.next();
                if (node == null || node.isNull() || node.isMissingNode()) {
                    continue;
                }
                if (!node.isObject()) {
                    throw new IllegalArgumentException("each document must be an object");
                }
                ObjectNode body = (ObjectNode) node.deepCopy();
                String kind = kindOf(body);
                body.remove("kind");
                String name = body.path("name").asText("");
                if (name.isEmpty()) {
                    throw new IllegalArgumentException("a " + kind + " document has no name");
                }
                out.add(new Document(file, kind, name, body));
            }
        }
        return out;
    }

    /** An explicit {@code kind} wins; otherwise the shape tells. */
    static String kindOf(ObjectNode body) {
        if (body.hasNonNull("kind")) {
            String k = body.get("kind").asText().toLowerCase(java.util.Locale.ROOT);
            if (!List.of("pipeline", "archetype", "calendar").contains(k)) {
                throw new IllegalArgumentException("kind must be pipeline, archetype or calendar, got '" + k + "'");
            }
            return k;
        }
        if (body.has("requiredTraits")) {
            return "archetype";
        }
        if (body.has("trigger") || body.has("archetype") || body.has("traits")) {
            return "pipeline";
        }
        if (body.has("days") || body.has("dates")) {
            return "calendar";
        }
        return "pipeline";
    }
}
