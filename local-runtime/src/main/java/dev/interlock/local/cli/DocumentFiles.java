package dev.interlock.local.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.util.TokenBuffer;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.nio.charset.MalformedInputException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the pipeline, archetype and calendar documents of files and directories (YAML with several documents, or
 * JSON). Everything a person can get wrong in a file — a missing path, an unreadable file, a syntax error, a
 * document without a name — is one line that starts with {@code file:line:column}.
 */
final class DocumentFiles {

    /** One document to register: where it came from, what it is, and where each of its fields starts. */
    record Document(Path source, int index, String kind, String name, ObjectNode body, Map<String, Integer> lines) {
        int order() {
            return switch (kind) {
                case "calendar" -> 0;
                case "archetype" -> 1;
                default -> 2;
            };
        }

        /** {@code file:line} of the field a JSON path such as {@code $.schedules[0].deadline} names, else the file. */
        String locate(String jsonPath) {
            Integer line = null;
            for (JsonPointer p = pointer(jsonPath); p != null && line == null; p = p.head()) {
                line = lines.get(p.toString().toLowerCase(Locale.ROOT));
            }
            return source + (line == null ? "" : ":" + line);
        }
    }

    /** What could not be read, already phrased for a person. */
    static final class Unreadable extends Exception {
        private static final long serialVersionUID = 1L;

        Unreadable(String message) {
            super(message);
        }
    }

    private static final List<String> KINDS = List.of("pipeline", "archetype", "calendar");

    private DocumentFiles() {}

    /** The document files under {@code path}: itself if it is a file, else every .yaml/.yml/.json below it, sorted. */
    static List<Path> files(Path path) throws Unreadable {
        if (!Files.exists(path)) {
            throw new Unreadable(path + ": no such file or directory");
        }
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> s = Files.walk(path)) {
            return s.filter(Files::isRegularFile)
                    .filter(DocumentFiles::isDocument)
                    .sorted()
                    .toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new Unreadable(path + ": cannot list the directory (" + e.getMessage() + ")");
        }
    }

    private static boolean isDocument(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".yaml") || name.endsWith(".yml") || name.endsWith(".json");
    }

    /** Every document of one file, in order. */
    static List<Document> read(Path file) throws Unreadable {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new Unreadable(file + ": no such file");
        } catch (AccessDeniedException e) {
            throw new Unreadable(file + ": permission denied");
        } catch (MalformedInputException e) {
            throw new Unreadable(file + ": not UTF-8 text");
        } catch (IOException e) {
            throw new Unreadable(file + ": cannot read it (" + e.getMessage() + ")");
        }
        boolean json = file.getFileName().toString().toLowerCase(Locale.ROOT).endsWith(".json");
        JsonFactory factory = json
                ? JsonFactory.builder()
                        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                        .build()
                : YAMLFactory.builder()
                        .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                        .build();
        ObjectMapper mapper = InterlockJson.json();
        List<Document> out = new ArrayList<>();
        try (JsonParser parser = factory.createParser(text)) {
            for (int index = 0; ; index++) {
                Map<String, Integer> lines = new HashMap<>();
                JsonNode node = readOne(mapper, parser, lines);
                if (node == null) {
                    break;
                }
                if (node.isNull() || node.isMissingNode()) {
                    continue;
                }
                if (json && index > 0) {
                    throw new Unreadable(
                            file + ":" + lineOf(parser) + ": JSON syntax error: content after the document");
                }
                out.add(document(file, index, node, lines));
            }
        } catch (JsonProcessingException e) {
            throw new Unreadable(syntaxError(file, json ? "JSON" : "YAML", e));
        } catch (IOException e) {
            throw new Unreadable(file + ": cannot read it (" + e.getMessage() + ")");
        }
        return out;
    }

    /**
     * Reads the next document's tree, recording the line where each field and list element starts (the API answers
     * with JSON paths; the CLI turns them into lines of the file). Null at the end of the input.
     */
    private static JsonNode readOne(ObjectMapper mapper, JsonParser parser, Map<String, Integer> lines)
            throws IOException {
        JsonToken first = parser.nextToken();
        if (first == null) {
            return null;
        }
        // Walk the document once for line numbers, then again (buffered) to build the tree.
        TokenBuffer buffer = new TokenBuffer(parser);
        int depth = 0;
        JsonToken token = first;
        while (true) {
            if (!token.isStructEnd()) {
                lines.putIfAbsent(
                        parser.getParsingContext().pathAsPointer().toString().toLowerCase(Locale.ROOT),
                        parser.currentTokenLocation().getLineNr());
            }
            buffer.copyCurrentEvent(parser);
            if (token.isStructStart()) {
                depth++;
            } else if (token.isStructEnd()) {
                depth--;
            }
            if (depth == 0) {
                break;
            }
            token = parser.nextToken();
            if (token == null) {
                break;
            }
        }
        try (JsonParser replay = buffer.asParser(mapper)) {
            return mapper.readTree(replay);
        }
    }

    private static Document document(Path file, int index, JsonNode node, Map<String, Integer> lines)
            throws Unreadable {
        String where = file + (lines.isEmpty() ? "" : ":" + firstLine(lines));
        if (!node.isObject()) {
            throw new Unreadable(where + ": a document must be an object (a pipeline, archetype or calendar), got "
                    + node.getNodeType().name().toLowerCase(Locale.ROOT));
        }
        ObjectNode body = (ObjectNode) node;
        String kind = kindOf(body)
                .orElseThrow(() -> new Unreadable(where + ": kind must be pipeline, archetype or calendar, got '"
                        + body.get("kind").asText() + "'"));
        String name = body.path("name").asText("");
        if (name.isBlank()) {
            throw new Unreadable(where + ": the " + kind + " has no name");
        }
        return new Document(file, index, kind, name, body, Map.copyOf(lines));
    }

    private static int firstLine(Map<String, Integer> lines) {
        return lines.values().stream().min(Integer::compare).orElse(1);
    }

    /** An explicit {@code kind} wins (empty when it names no kind); otherwise the shape tells. */
    static Optional<String> kindOf(ObjectNode body) {
        for (var it = body.fields(); it.hasNext(); ) {
            var field = it.next();
            if (field.getKey().equalsIgnoreCase("kind") && !field.getValue().isNull()) {
                String k = field.getValue().asText().trim().toLowerCase(Locale.ROOT);
                return KINDS.contains(k) ? Optional.of(k) : Optional.empty();
            }
        }
        if (body.has("requiredTraits")) {
            return Optional.of("archetype");
        }
        if (body.has("trigger") || body.has("archetype") || body.has("traits")) {
            return Optional.of("pipeline");
        }
        if (body.has("days") || body.has("dates")) {
            return Optional.of("calendar");
        }
        return Optional.of("pipeline");
    }

    /** {@code file:line:column: YAML syntax error: what}, with the construct it was in when the parser says. */
    static String syntaxError(Path file, String format, JsonProcessingException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
                Mark at = yaml.getProblemMark();
                String context = yaml.getContext() == null
                        ? ""
                        : " (" + yaml.getContext()
                                + (yaml.getContextMark() == null
                                        ? ""
                                        : " that starts at line "
                                                + (yaml.getContextMark().getLine() + 1) + ", column "
                                                + (yaml.getContextMark().getColumn() + 1))
                                + ")";
                return file + ":" + (at.getLine() + 1) + ":" + (at.getColumn() + 1) + ": " + format + " syntax error: "
                        + yaml.getProblem() + context;
            }
        }
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 0 ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
        String message = e.getOriginalMessage() == null
                ? e.getClass().getSimpleName()
                : e.getOriginalMessage().lines().findFirst().orElse("");
        return file + where + ": " + format + " syntax error: " + message;
    }

    private static int lineOf(JsonParser parser) {
        return parser.currentTokenLocation().getLineNr();
    }

    /** {@code $.schedules[0].deadline} → {@code /schedules/0/deadline}; bracketed names are read too. */
    static JsonPointer pointer(String jsonPath) {
        if (jsonPath == null || !jsonPath.startsWith("$")) {
            return null;
        }
        StringBuilder out = new StringBuilder();
        int i = 1;
        while (i < jsonPath.length()) {
            char c = jsonPath.charAt(i);
            if (c == '.') {
                int end = i + 1;
                while (end < jsonPath.length() && jsonPath.charAt(end) != '.' && jsonPath.charAt(end) != '[') {
                    end++;
                }
                out.append('/').append(escape(jsonPath.substring(i + 1, end)));
                i = end;
            } else if (c == '[') {
                int end = jsonPath.indexOf(']', i);
                if (end < 0) {
                    return null;
                }
                String inside = jsonPath.substring(i + 1, end);
                if (inside.startsWith("'") && inside.endsWith("'") && inside.length() >= 2) {
                    inside = inside.substring(1, inside.length() - 1).replace("\\'", "'");
                }
                out.append('/').append(escape(inside));
                i = end + 1;
            } else {
                return null;
            }
        }
        return JsonPointer.compile(out.toString());
    }

    private static String escape(String segment) {
        return segment.replace("~", "~0").replace("/", "~1");
    }
}
