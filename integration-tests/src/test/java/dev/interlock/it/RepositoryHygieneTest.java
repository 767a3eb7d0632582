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

    @Test
    void theRepositoryHasItsLicenceAndChangelog() throws IOException {
        assertThat(Files.readString(ROOT.resolve("LICENSE")))
                .contains("Apache License")
                .contains("Version 2.0");
        assertThat(Files.readString(ROOT.resolve("CHANGELOG.md")))
                .contains("## Wave 1")
                .contains("## Wave 3");
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
