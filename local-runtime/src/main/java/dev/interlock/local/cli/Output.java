package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.schedule.ReadableTime;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** How the CLI prints answers: tables for people, JSON on request, API problems as lines with their field paths. */
final class Output {

    private Output() {}

    /**
     * The one home of {@code --output} (a mixin every command that prints an answer takes): a table for people by
     * default, or {@code json} for scripts: the API's answer as it is (a listing read page by page as one
     * {@code {"items": [...]}}).
     */
    static final class Format {
        enum Kind {
            table,
            json
        }

        @Option(
                names = {"-o", "--output"},
                defaultValue = "table",
                paramLabel = "<format>",
                description = "table (default, for people) or json (the API's answer, for scripts).")
        Kind kind = Kind.table;

        boolean json() {
            return kind == Kind.json;
        }
    }

    /** Prints a JSON value pretty-printed. */
    static void pretty(PrintStream out, JsonNode node) {
        try {
            out.println(json().writerWithDefaultPrettyPrinter().writeValueAsString(node));
        } catch (IOException e) {
            out.println(node);
        }
    }

    /** {@code {"items": [...]}}: what a listing read page by page prints as JSON. */
    static JsonNode items(java.util.List<JsonNode> items) {
        com.fasterxml.jackson.databind.node.ObjectNode all = json().createObjectNode();
        all.putArray("items").addAll(items);
        return all;
    }

    /**
     * An instant field as a person reads it in {@code zone} ({@code 2026-11-19 17:45 -08:00}, {@link ReadableTime}),
     * {@code -} when it is missing; text that is not an instant is shown as it is.
     */
    static String time(JsonNode node, String field, ZoneId zone) {
        String raw = text(node, field);
        return raw.equals("-") ? raw : time(raw, zone);
    }

    /** An instant's text as a person reads it in {@code zone}; text that is not an instant is shown as it is. */
    static String time(String instant, ZoneId zone) {
        try {
            return ReadableTime.of(Instant.parse(instant), zone);
        } catch (DateTimeParseException e) {
            return instant;
        }
    }

    /** A text field, or {@code -} when it is missing or null (so a table cell is never empty). */
    static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isMissingNode() || v.isNull() || v.asText().isEmpty() ? "-" : v.asText();
    }

    /** Created on first use: commands that print no JSON never load Jackson's databind. */
    static ObjectMapper json() {
        return Holder.JSON;
    }

    private static final class Holder {
        static final ObjectMapper JSON = InterlockJson.json();
    }

    static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? json().nullNode() : json().readTree(body);
        } catch (IOException e) {
            return json().getNodeFactory().textNode(body);
        }
    }

    static void pretty(PrintStream out, String body) {
        pretty(out, parse(body));
    }

    /** Prints rows as left-aligned columns; the first row is the header. Only the last column is left unpadded. */
    static void table(PrintStream out, java.util.List<String[]> rows) {
        int columns = rows.stream().mapToInt(r -> r.length).max().orElse(0);
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int i = 0; i < row.length - 1; i++) {
                widths[i] = Math.max(widths[i], row[i] == null ? 0 : row[i].length());
            }
        }
        for (String[] row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.length; i++) {
                String cell = row[i] == null ? "" : row[i];
                line.append(i == row.length - 1 ? cell : cell + " ".repeat(widths[i] - cell.length() + 2));
            }
            out.println(line.toString().stripTrailing());
        }
    }

    /** Prints a failed answer; problem+json bodies list each error with its path. */
    static void problem(PrintStream err, String what, ApiClient.Answer answer) {
        problem(err, what, answer, path -> path);
    }

    /**
     * Prints a failed answer: the problem's title and detail, then each error as {@code where: path: message}, where
     * {@code locate} turns a JSON path into a place in the user's file. Bodies that are not problems (API Gateway's
     * {@code {"message": …}}, plain text) are shown as they are.
     */
    static void problem(PrintStream err, String what, ApiClient.Answer answer, UnaryOperator<String> locate) {
        JsonNode p = parse(answer.body());
        String title = p.hasNonNull("title")
                ? p.get("title").asText()
                : p.hasNonNull("message") ? p.get("message").asText() : null;
        err.println(what + ": HTTP " + answer.status() + (title == null ? "" : " " + title));
        if (p.hasNonNull("detail") && p.path("errors").isEmpty()) {
            err.println("  " + p.get("detail").asText());
        }
        for (JsonNode e : p.path("errors")) {
            String path = e.path("path").asText();
            String where = locate.apply(path);
            err.println("  " + (where.equals(path) ? "" : where + "  ") + path + ": "
                    + e.path("message").asText());
        }
        if (title == null
                && !p.has("errors")
                && answer.body() != null
                && !answer.body().isBlank()) {
            err.println("  " + answer.body().strip());
        }
    }
}
