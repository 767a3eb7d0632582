package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.PrintStream;

/** How the CLI prints answers: JSON pretty-printed, API problems as readable lines with their field paths. */
final class Output {

    static final ObjectMapper JSON = new ObjectMapper();

    private Output() {
    }

    static JsonNode parse(String body) {
        try {
            return body == null || body.isBlank() ? JSON.nullNode() : JSON.readTree(body);
        } catch (IOException e) {
            return JSON.getNodeFactory().textNode(body);
        }
    }

    static void pretty(PrintStream out, String body) {
        try {
            out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(parse(body)));
        } catch (IOException e) {
            out.println(body);
        }
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
        JsonNode p = parse(answer.body());
        err.println(what + ": HTTP " + answer.status() + (p.hasNonNull("title") ? " " + p.get("title").asText() : ""));
        if (p.hasNonNull("detail")) {
            err.println("  " + p.get("detail").asText());
        }
        for (JsonNode e : p.path("errors")) {
            err.println("  " + e.path("path").asText() + ": " + e.path("message").asText());
        }
        if (!p.has("title") && !p.has("errors")) {
            err.println("  " + answer.body());
        }
    }
}
