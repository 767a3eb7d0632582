package dev.interlock.infra.conformance;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.json.InterlockJson;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * One AWS request a function made while the tests ran, as {@code AwsRequestRecorder} ({@code lambdas/aws-recorder}) wrote it:
 * the IAM action and the resource ARN it is authorised on ({@code null} when the recorder could not name it), the
 * region and account the ARN was formed in, the IAM condition keys the request sets, and the function's configuration
 * ({@code TABLE_NAME=…}), which binds the template resources the function's environment refers to.
 */
public record RecordedRequest(
        String function,
        String service,
        String operation,
        String action,
        String resource,
        String region,
        String account,
        Map<String, String> context,
        Map<String, String> configuration) {

    private static final ObjectMapper JSON = InterlockJson.json();

    public RecordedRequest {
        context = Map.copyOf(context);
        configuration = Map.copyOf(configuration);
    }

    /** Whether the resource is itself a pattern (a request that names its resource only opaquely, e.g. by a task token). */
    boolean resourceIsPattern() {
        return resource != null && (resource.contains("*") || resource.contains("?"));
    }

    /** {@code function action on resource}, the way a violation names a request. */
    String describe() {
        return function + ": " + action + " on " + (resource == null ? "(resource unknown to the recorder)" : resource);
    }

    /** Every request in the {@code *.jsonl} files of these directories (a missing directory holds none), without repeats. */
    public static List<RecordedRequest> readAll(Collection<Path> directories) {
        Set<RecordedRequest> all = new LinkedHashSet<>();
        for (Path dir : directories) {
            if (!Files.isDirectory(dir)) {
                continue;
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".jsonl"))
                        .sorted()
                        .toList()) {
                    for (String line : Files.readAllLines(file)) {
                        if (!line.isBlank()) {
                            all.add(parse(line));
                        }
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the recorded AWS requests in " + dir, e);
            }
        }
        return new ArrayList<>(all);
    }

    static RecordedRequest parse(String line) {
        try {
            JsonNode n = JSON.readTree(line);
            return new RecordedRequest(
                    n.path("function").asText(),
                    n.path("service").asText(),
                    n.path("operation").asText(),
                    n.path("action").asText(),
                    n.path("resource").isTextual() ? n.path("resource").asText() : null,
                    n.path("region").asText(),
                    n.path("account").asText(),
                    strings(n.path("context")),
                    strings(n.path("configuration")));
        } catch (IOException e) {
            throw new IllegalArgumentException("not a recorded AWS request: " + line, e);
        }
    }

    private static Map<String, String> strings(JsonNode node) {
        if (node.isMissingNode() || node.isNull()) {
            return Map.of();
        }
        return new TreeMap<>(JSON.convertValue(node, new TypeReference<Map<String, String>>() {}));
    }
}
