package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What ships is what a newcomer can read alone: no source or build file points at an issue tracker or at a document
 * outside the repository (a reader of the code has neither), and the repository carries its licence and changelog.
 */
class RepositoryHygieneTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** "issue 25", "issue #4", "Issue 26 item 2"; the team's brief and specification documents; a path out of the repo. */
    private static final Pattern OUTSIDE_POINTER = Pattern.compile(
            "(?i:\\bissues? #?\\d+\\b)|\\b(SPEC|ARCHITECTURE|TOOLCHAIN|DEVELOPERS)\\.md\\b|\\.\\./shared/|interlock-go-v\\d");

    private static final List<String> SOURCE_SUFFIXES =
            List.of(".java", ".js", ".ts", ".py", ".sh", ".xml", ".yaml", ".yml", ".json", ".html", ".css");

    @Test
    void noSourceFilePointsAtAnIssueTrackerOrADocumentOutsideTheRepository() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            files.filter(Files::isRegularFile)
                    .filter(RepositoryHygieneTest::isSource)
                    .forEach(p -> scan(p, found));
        }
        assertThat(found).as("lines that point outside the repository").isEmpty();
    }

    /** The longest a product class may be. */
    private static final int MAX_LINES = 400;

    /** A product class allowed past {@link #MAX_LINES}: at most {@code lines} long, and why it is still whole. */
    private record Ceiling(int lines, String reason) {}

    /**
     * Product classes still over {@link #MAX_LINES}, each at most as long as it is now (a ratchet: the list only shrinks,
     * a class on it may not grow, and a new one may not join), each with its reason. Splitting them is the open part of
     * the restructuring; a class that is split leaves the list.
     */
    private static final java.util.Map<String, Ceiling> KNOWN_OVER = java.util.Map.ofEntries(
            java.util.Map.entry(
                    "model/status/StatusDerivation.java",
                    new Ceiling(800, "the one place that derives a day's status; to be split by the status families")),
            java.util.Map.entry(
                    "model/validation/PipelineValidation.java",
                    new Ceiling(
                            727,
                            "every registration check of a pipeline; to be split by the config sections, as postRun"
                                    + " (PostRunValidation) was")),
            java.util.Map.entry(
                    "bench/cost/CostBenchmark.java",
                    new Ceiling(712, "a benchmark main (numbers, not product), kept whole on purpose")),
            java.util.Map.entry(
                    "store/dynamodb/SingleTable.java",
                    new Ceiling(
                            657, "every DynamoDB request shape with its retry and paging; to be split by operation")),
            java.util.Map.entry(
                    "infra/DeploymentOptions.java",
                    new Ceiling(
                            594,
                            "every CDK context key read and validated in one place (grown by the OpenLineage options,"
                                    + " openLineageEventBus the last: a key costs its component, name, list entry,"
                                    + " read and pattern);"
                                    + " to be split by group")),
            java.util.Map.entry(
                    "model/keys/TableKeys.java",
                    new Ceiling(
                            555,
                            "the one spelling of every PK, SK and GSI1 key (grown by the lineage sensor keys); to be"
                                    + " split by entity")),
            java.util.Map.entry(
                    "runtime/LocalRuntime.java",
                    new Ceiling(
                            531,
                            "wires the whole local system (grown by the metrics and OpenLineage wiring); to be split by"
                                    + " the services it starts")),
            java.util.Map.entry(
                    "store/dynamodb/DynamoDbProvider.java",
                    new Ceiling(511, "the store port on one table; to be split by the stores it implements")),
            java.util.Map.entry(
                    "trigger/RunTrigger.java",
                    new Ceiling(485, "the trigger's claim, start and failure paths; to be split by path")),
            java.util.Map.entry(
                    "cli/QueryCommands.java",
                    new Ceiling(469, "the CLI's API-reading commands; to be split by command group")),
            java.util.Map.entry(
                    "runchecker/RunPoll.java",
                    new Ceiling(451, "one poll of a job with its following rules; to be split by run state")),
            java.util.Map.entry(
                    "cli/StatusCommands.java",
                    new Ceiling(438, "status and why, as tables and prose; to be split by command")),
            java.util.Map.entry(
                    "infra/conformance/IamConformanceCheck.java",
                    new Ceiling(416, "IAM's matching of actions, resources and conditions; to be split by matcher")),
            java.util.Map.entry(
                    "orchestrator/ResolvePipeline.java",
                    new Ceiling(
                            411,
                            "resolving a run's pipeline and its permanent failures (grown by postRunChecks); to be"
                                    + " split by failure")),
            java.util.Map.entry(
                    "model/validation/TemplateValidation.java",
                    new Ceiling(402, "the checks of every template; to be split by placeholder, credential and URL")));

    @Test
    void noProductClassGrowsPastItsSize() throws IOException {
        List<String> over = new ArrayList<>();
        List<String> fits = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(Files::isRegularFile)
                    .filter(RepositoryHygieneTest::isSource)
                    .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .toList()) {
                int lines = Files.readAllLines(p).size();
                String path = p.toString().replace('\\', '/');
                Integer ceiling = KNOWN_OVER.entrySet().stream()
                        .filter(e -> path.endsWith("/" + e.getKey()))
                        .map(e -> e.getValue().lines())
                        .findFirst()
                        .orElse(MAX_LINES);
                if (lines > ceiling) {
                    over.add(ROOT.relativize(p) + ": " + lines + " lines (at most " + ceiling + ")");
                }
                KNOWN_OVER.keySet().stream()
                        .filter(known -> path.endsWith("/" + known) && lines <= MAX_LINES)
                        .forEach(known -> fits.add(known + ": " + lines + " lines, within " + MAX_LINES));
            }
        }
        assertThat(over)
                .as("product classes longer than they may be: split them by what they hold")
                .isEmpty();
        assertThat(fits)
                .as("classes on the list of exceptions that no longer need to be: take them off it")
                .isEmpty();
    }

    @Test
    void theRepositoryHasItsLicenceAndChangelog() throws IOException {
        assertThat(Files.readString(ROOT.resolve("LICENSE")))
                .contains("Apache License")
                .contains("Version 2.0");
        assertThat(Files.readString(ROOT.resolve("CHANGELOG.md")))
                .contains("## Wave 1")
                .contains("## Wave 3");
    }

    /** A Jackson mapper built in place rather than taken from the one configuration. */
    private static final Pattern OWN_MAPPER =
            // With or without the package (a fully qualified name once slipped past), and as a constructor reference.
            Pattern.compile("new ([\\w.]+[.])?(ObjectMapper|JsonMapper|YAMLMapper)[(]"
                    + "|([\\w.]+[.])?(JsonMapper|YAMLMapper)[.]builder[(]|(ObjectMapper|JsonMapper|YAMLMapper)::new");

    /**
     * Where a mapper of its own is the point, with the reason: the codecs that speak someone else's wire format, and
     * the one configuration itself. The {@code statemachine} module depends on none of ours (its JSON is the ASL data
     * flow's), so it is outside the rule.
     */
    private static final java.util.Map<String, String> OWN_MAPPER_ALLOWED = java.util.Map.of(
            "shared-model/src/main/java/dev/interlock/model/json/InterlockJson.java", "the one configuration",
            "local-runtime/src/main/java/dev/interlock/local/aws/AwsJson.java",
                    "AWS's JSON protocols: timestamps as epoch seconds, as the SDK clients read them",
            "local-runtime/src/main/java/dev/interlock/local/aws/LocalFunction.java",
                    "the Lambda runtime's own mapping of its event classes, which the handlers receive on AWS");

    @Test
    void jsonGoesThroughTheOneConfiguration() throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(ROOT)) {
            for (Path p : files.filter(Files::isRegularFile)
                    .filter(RepositoryHygieneTest::isSource)
                    .filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/main/java/"))
                    .toList()) {
                String relative = ROOT.relativize(p).toString().replace('\\', '/');
                if (relative.startsWith("statemachine/") || OWN_MAPPER_ALLOWED.containsKey(relative)) {
                    continue;
                }
                List<String> lines = Files.readAllLines(p);
                for (int i = 0; i < lines.size(); i++) {
                    if (OWN_MAPPER.matcher(lines.get(i)).find()) {
                        found.add(relative + ":" + (i + 1) + ": " + lines.get(i).strip());
                    }
                }
            }
        }
        assertThat(found)
                .as("Jackson mappers built outside InterlockJson (use InterlockJson.json() or .yaml())")
                .isEmpty();
    }

    private static boolean isSource(Path p) {
        Path relative = ROOT.relativize(p);
        for (Path part : relative) {
            String name = part.toString();
            if (name.equals("target") || name.equals("node_modules") || name.startsWith(".")) {
                return false;
            }
        }
        String name = p.getFileName().toString();
        return SOURCE_SUFFIXES.stream().anyMatch(name::endsWith) && !name.equals("package-lock.json");
    }

    private static void scan(Path p, List<String> found) {
        if (p.getFileName().toString().equals("RepositoryHygieneTest.java")) {
            return;
        }
        try {
            List<String> lines = Files.readAllLines(p);
            for (int i = 0; i < lines.size(); i++) {
                if (OUTSIDE_POINTER.matcher(lines.get(i)).find()) {
                    found.add(ROOT.relativize(p) + ":" + (i + 1) + ": "
                            + lines.get(i).strip());
                }
            }
        } catch (IOException e) {
            // A binary or non-UTF-8 file among the sources is not prose.
            if (!(e instanceof java.nio.charset.MalformedInputException)) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
