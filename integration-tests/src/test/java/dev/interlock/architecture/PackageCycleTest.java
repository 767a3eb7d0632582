package dev.interlock.architecture;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The build gate against package cycles: no two packages of the main code of any module reach each other, directly or
 * through others. A cycle makes the packages one unit that can only be understood, tested and split together.
 *
 * <p>It reads the compiled main classes of every module of the root pom (this module is built after all of them), so
 * test code and this module are outside it. Run it alone with
 * {@code ./mvnw -B -ntp -pl integration-tests -am verify -Dtest=PackageCycleTest -Dsurefire.failIfNoSpecifiedTests=false -DskipITs}.
 */
class PackageCycleTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The global priming switch: logging and outbound HTTP ask it whether they run inside a SnapStart rehearsal. */
    private static final String PRIMING_SWITCH = "dev.interlock.deps.prime.Priming";

    private static JavaClasses mainClasses;

    @BeforeAll
    static void importMainClasses() throws IOException {
        List<Path> classDirs = new ArrayList<>();
        for (String module : defaultModules()) {
            if (module.equals("integration-tests")) {
                continue;
            }
            Path classes = ROOT.resolve(module).resolve("target/classes");
            assertThat(classes)
                    .as("compiled main classes of module %s: build it first (run with -am)", module)
                    .isDirectory();
            classDirs.add(classes);
        }
        mainClasses = new ClassFileImporter().importPaths(classDirs);
    }

    @Test
    void mainCodeHasNoPackageCycle() {
        // Known and owned by the split of lambdas/deps: the logger and the outbound HTTP client consult the
        // global priming switch, and priming needs the whole Deps wiring, so dev.interlock.deps, deps.log,
        // deps.outbound and deps.prime form one cycle. Only these edges are forgiven; any other edge that closes
        // a cycle, and any new class that consults the switch, fails.
        ArchRule rule = slices().matching("dev.interlock.(**)")
                .namingSlices("dev.interlock.$1")
                .should()
                .beFreeOfCycles()
                .ignoreDependency("dev.interlock.deps.log.StructuredLog", PRIMING_SWITCH)
                .ignoreDependency("dev.interlock.deps.outbound.GuardedHttp", PRIMING_SWITCH);
        rule.check(mainClasses);
    }

    @Test
    void scansTheMainCodeOfEveryModule() {
        assertThat(mainClasses.containPackage("dev.interlock.model")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.deps")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.local.runtime")).isTrue();
        assertThat(mainClasses.contain(PRIMING_SWITCH)).isTrue();
        assertThat(mainClasses.stream().map(c -> c.getPackageName()).distinct().count()).isGreaterThan(30);
    }

    /** The modules a plain {@code ./mvnw verify} builds: the root pom's first {@code <modules>} list. */
    private static List<String> defaultModules() throws IOException {
        String pom = Files.readString(ROOT.resolve("pom.xml"));
        int start = pom.indexOf("<modules>");
        int end = pom.indexOf("</modules>", start);
        Matcher module = Pattern.compile("<module>([^<]+)</module>").matcher(pom.substring(start, end));
        List<String> modules = new ArrayList<>();
        while (module.find()) {
            modules.add(module.group(1).trim());
        }
        assertThat(modules).as("modules of %s", ROOT.resolve("pom.xml")).isNotEmpty();
        return modules;
    }
}
