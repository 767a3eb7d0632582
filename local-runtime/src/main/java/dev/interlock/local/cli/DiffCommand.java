package dev.interlock.local.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code interlock diff -f <file|dir>}: what {@code apply} would change, document by document: new, unchanged, or
 * changed and in which fields. Each document is compared as the API would store it: {@code POST …/validate} answers
 * the document after the API's own normalisation (defaults filled in, names canonical), and that is compared with
 * what {@code GET} answers for the stored one, so a file that only spells a default out is unchanged.
 */
@Command(
        name = "diff",
        description = {
            "Show what 'apply' would change: per pipeline, archetype and calendar, new, unchanged, or changed with "
                    + "the fields that differ. Registers nothing.",
            "Exit 0 when everything is valid (whatever would change; with --exit-code only when nothing would), 1 when"
                    + " a document is invalid, 2 with --exit-code when something would change."
        })
final class DiffCommand implements Callable<Integer> {

    /** With {@code --exit-code}: something would change (as {@code git diff --exit-code} answers 1, but 1 is taken). */
    static final int CHANGES = 2;

    @Option(
            names = "--exit-code",
            description = "Exit 2 when apply would change anything, 0 when nothing (for CI drift checks).")
    boolean exitCode;

    @Option(
            names = "--prune",
            description =
                    "Compare with 'apply --prune': also list the registered pipelines no file defines as deleted.")
    boolean prune;

    @Mixin
    ApiOptions api;

    @Mixin
    Output.Format format;

    @Mixin
    DocumentPaths documents;

    /** One document's change: {@code new}, {@code unchanged}, {@code changed} or {@code invalid}. */
    record Change(String kind, String name, String change, List<String> fields, String source) {}

    @Override
    public Integer call() {
        ApiClient client = api.client();
        Registration registration = new Registration(client, System.out, System.err);
        List<DocumentFiles.Document> docs = registration.read(documents.paths);
        List<Change> changes = new ArrayList<>();
        for (DocumentFiles.Document d : docs) {
            changes.add(change(client, d));
        }
        if (prune) {
            registration
                    .pruned(docs)
                    .forEach(name -> changes.add(
                            new Change("pipeline", name, "deleted", List.of(), "(registered, in no file)")));
        }
        long invalid =
                changes.stream().filter(c -> c.change().equals("invalid")).count();
        if (format.json()) {
            Output.pretty(
                    System.out,
                    Output.items(changes.stream()
                            .map(c -> (JsonNode) Output.json().valueToTree(c))
                            .toList()));
        } else {
            List<String[]> rows = new ArrayList<>();
            rows.add(new String[] {"KIND", "NAME", "CHANGE", "SOURCE", "FIELDS"});
            for (Change c : changes) {
                rows.add(new String[] {c.kind(), c.name(), c.change(), c.source(), String.join(", ", c.fields())});
            }
            Output.table(System.out, rows);
            System.out.println(count(changes, "new") + " new, " + count(changes, "changed") + " changed, "
                    + count(changes, "unchanged") + " unchanged"
                    + (prune ? ", " + count(changes, "deleted") + " deleted" : "")
                    + (invalid == 0 ? "" : ", " + invalid + " invalid") + "; nothing was registered");
        }
        if (invalid > 0) {
            throw new CliFailure(invalid + " of " + docs.size() + " document(s) invalid; see above");
        }
        boolean changing = changes.stream().anyMatch(c -> !c.change().equals("unchanged"));
        return exitCode && changing ? CHANGES : 0;
    }

    private static long count(List<Change> changes, String change) {
        return changes.stream().filter(c -> c.change().equals(change)).count();
    }

    private static Change change(ApiClient client, DocumentFiles.Document d) {
        String resource = Registration.resource(d);
        ApiClient.Answer validated =
                client.post(resource + "/validate", Registration.json(Registration.withoutKind(d.body())));
        if (!validated.ok()) {
            Output.problem(
                    System.err, d.kind() + " " + d.name() + " is invalid (" + d.source() + ")", validated, d::locate);
            return new Change(
                    d.kind(), d.name(), "invalid", List.of(), d.source().toString());
        }
        JsonNode wouldStore = Output.parse(validated.body()).path(d.kind());
        ApiClient.Answer stored = client.get(resource);
        if (stored.status() == 404) {
            return new Change(d.kind(), d.name(), "new", List.of(), d.source().toString());
        }
        if (!stored.ok()) {
            Output.problem(System.err, "reading the registered " + d.kind() + " " + d.name(), stored);
            throw new CliFailure("cannot compare " + d.kind() + " " + d.name() + " with what is registered");
        }
        List<String> fields = new ArrayList<>();
        differences("", Output.parse(stored.body()), wouldStore, fields);
        return new Change(
                d.kind(),
                d.name(),
                fields.isEmpty() ? "unchanged" : "changed",
                fields,
                d.source().toString());
    }

    /** The dotted paths where two documents differ: objects field by field, anything else (lists too) as a whole. */
    static void differences(String prefix, JsonNode before, JsonNode after, List<String> into) {
        if (before instanceof ObjectNode b && after instanceof ObjectNode a) {
            TreeSet<String> names = new TreeSet<>();
            b.fieldNames().forEachRemaining(names::add);
            a.fieldNames().forEachRemaining(names::add);
            for (Iterator<String> it = names.iterator(); it.hasNext(); ) {
                String name = it.next();
                differences(
                        prefix.isEmpty() ? name : prefix + "." + name,
                        present(b.get(name)),
                        present(a.get(name)),
                        into);
            }
            return;
        }
        if (!present(before).equals(present(after))) {
            into.add(prefix.isEmpty() ? "(the whole document)" : prefix);
        }
    }

    /** A field that is absent and one that is null say the same. */
    private static JsonNode present(JsonNode node) {
        return node == null || node.isMissingNode() ? Output.json().nullNode() : node;
    }
}
