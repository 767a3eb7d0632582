package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code lineage}: posts OpenLineage run events from files to {@code POST /lineage} — one event per file, or one per
 * line (what OpenLineage's file transport writes) — and says what each started or why it started nothing.
 */
@Command(
        name = "lineage",
        description = {
            "Post OpenLineage run events (a JSON file with one event, or JSON lines as OpenLineage's file transport",
            "writes them) to POST /lineage. A COMPLETE event starts the evaluations of the pipelines whose",
            "builtin:lineage-complete trait waits for its job or outputs; each answer says what started or why not."
        })
final class LineageCommand implements Callable<Integer> {
    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "Files of OpenLineage run events.")
    List<Path> files;

    @Override
    public Integer call() {
        int failed = 0;
        for (Path file : files) {
            List<String> events;
            try {
                events = eventsIn(Files.readString(file, StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new CliFailure("cannot read " + file + ": " + e.getMessage(), CliFailure.USAGE, e);
            }
            for (int i = 0; i < events.size(); i++) {
                String where = events.size() == 1 ? file.toString() : file + " line " + (i + 1);
                ApiClient.Answer a = api.client().post("/lineage", events.get(i));
                if (!a.ok() || format.json()) {
                    failed += QueryCommands.print(a, "posting the event of " + where) == 0 ? 0 : 1;
                    continue;
                }
                System.out.println(where + ": " + summary(Output.parse(a.body())));
            }
        }
        return failed == 0 ? 0 : CliFailure.FAILED;
    }

    /** One event per line when every non-blank line is a JSON object (JSON lines), else the text is one event. */
    static List<String> eventsIn(String text) {
        List<String> lines = text.lines().filter(l -> !l.isBlank()).toList();
        boolean jsonLines =
                !lines.isEmpty() && lines.stream().allMatch(l -> Output.parse(l).isObject());
        return jsonLines ? new ArrayList<>(lines) : List.of(text.strip());
    }

    private static String summary(JsonNode r) {
        StringBuilder line = new StringBuilder(r.path("eventType").asText())
                .append(" of job ")
                .append(r.at("/job/namespace").asText())
                .append('/')
                .append(r.at("/job/name").asText())
                .append(" for ")
                .append(r.path("day").asText());
        for (JsonNode e : r.path("evaluations")) {
            line.append("\n  started ")
                    .append(e.path("pipelineId").asText())
                    .append(' ')
                    .append(e.path("scheduleId").asText())
                    .append(' ')
                    .append(e.path("date").asText());
        }
        for (JsonNode s : r.path("skipped")) {
            line.append("\n  skipped ")
                    .append(s.path("pipelineId").asText())
                    .append(s.hasNonNull("date") ? " " + s.path("date").asText() : "")
                    .append(": ")
                    .append(s.path("reason").asText());
        }
        if (r.hasNonNull("reason")) {
            line.append("\n  ").append(r.path("reason").asText());
        }
        return line.toString();
    }
}
