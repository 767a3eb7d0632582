package dev.interlock.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The build gate against package cycles: no package of the main code of any module may reach itself again through
 * the packages it depends on. Packages in a cycle are one unit that can only be understood, tested and split
 * together.
 *
 * <p>It reads the compiled main classes of every module of the root pom (this module is built after all of them), so
 * test code is outside it. The cycles that existed when the gate was introduced are listed in {@link #KNOWN_CYCLES}:
 * a new cycle, or a package joining a known one, fails; a known cycle that shrinks or disappears fails too, until the
 * list is updated, so the list only ever gets shorter. Run it alone with
 * {@code ./mvnw -B -ntp -pl integration-tests -am verify -Dtest=PackageCycleTest -Dsurefire.failIfNoSpecifiedTests=false -DskipITs}.
 */
class PackageCycleTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final String OURS = "dev.interlock.";

    /** Each a set of packages (below dev.interlock) that reach each other; removing one is the goal, adding one is not. */
    private static final Set<Set<String>> KNOWN_CYCLES = Set.of(
            // The local AWS endpoints and the local jobs and EventBridge they feed refer to each other.
            Set.of("local.aws", "local.events", "local.jobs"));

    private static JavaClasses mainClasses;

    @BeforeAll
    static void importMainClasses() throws IOException {
        List<Path> classDirs = new ArrayList<>();
        for (String module : defaultModules()) {
            // This module has only test code; coverage-report only aggregates the others' coverage.
            if (module.equals("integration-tests") || module.equals("coverage-report")) {
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
    void mainCodeHasNoPackageCycleBeyondTheKnownOnes() {
        Map<String, Set<String>> graph = packageGraph(mainClasses);
        Set<Set<String>> cycles = stronglyConnectedPackages(graph);
        Set<Set<String>> unexpected =
                cycles.stream().filter(c -> !KNOWN_CYCLES.contains(c)).collect(Collectors.toSet());
        assertThat(unexpected)
                .as(
                        "package cycles in main code that are not in KNOWN_CYCLES (each with the edges that close it):%n%s",
                        describe(unexpected, graph))
                .isEmpty();
        assertThat(KNOWN_CYCLES)
                .as("known cycles that no longer exist as listed: shorten KNOWN_CYCLES to what is left")
                .isSubsetOf(cycles);
    }

    @Test
    void scansTheMainCodeOfEveryModule() {
        assertThat(mainClasses.containPackage("dev.interlock.model")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.wiring")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.jobs")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.store.dynamodb")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.infra")).isTrue();
        assertThat(mainClasses.containPackage("dev.interlock.local.runtime")).isTrue();
        assertThat(packageGraph(mainClasses)).hasSizeGreaterThan(30);
    }

    @Test
    void findsACycleAndOnlyTheCycle() {
        Map<String, Set<String>> graph =
                Map.of("a", Set.of("b"), "b", Set.of("c"), "c", Set.of("a", "d"), "d", Set.of(), "e", Set.of("e"));
        assertThat(stronglyConnectedPackages(graph)).containsExactly(Set.of("a", "b", "c"));
    }

    /** Package (below dev.interlock) -> the packages of ours its classes use, self-references left out. */
    private static Map<String, Set<String>> packageGraph(JavaClasses classes) {
        Map<String, Set<String>> graph = new TreeMap<>();
        for (JavaClass origin : classes) {
            String from = ours(origin.getPackageName());
            if (from == null) {
                continue;
            }
            Set<String> targets = graph.computeIfAbsent(from, p -> new TreeSet<>());
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                String to = ours(target.getPackageName());
                if (to != null && !to.equals(from)) {
                    targets.add(to);
                }
            }
        }
        return graph;
    }

    private static String ours(String packageName) {
        return packageName.startsWith(OURS) ? packageName.substring(OURS.length()) : null;
    }

    /** Tarjan's strongly connected components of more than one package. */
    static Set<Set<String>> stronglyConnectedPackages(Map<String, Set<String>> graph) {
        Map<String, Integer> index = new HashMap<>();
        Map<String, Integer> low = new HashMap<>();
        Deque<String> stack = new ArrayDeque<>();
        Set<String> onStack = new TreeSet<>();
        Set<Set<String>> components = new HashSet<>();
        int[] next = {0};
        for (String start : graph.keySet()) {
            if (!index.containsKey(start)) {
                connect(start, graph, index, low, stack, onStack, components, next);
            }
        }
        return components;
    }

    private static void connect(
            String node,
            Map<String, Set<String>> graph,
            Map<String, Integer> index,
            Map<String, Integer> low,
            Deque<String> stack,
            Set<String> onStack,
            Set<Set<String>> components,
            int[] next) {
        index.put(node, next[0]);
        low.put(node, next[0]);
        next[0]++;
        stack.push(node);
        onStack.add(node);
        for (String target : graph.getOrDefault(node, Set.of())) {
            if (!index.containsKey(target)) {
                connect(target, graph, index, low, stack, onStack, components, next);
                low.put(node, Math.min(low.get(node), low.get(target)));
            } else if (onStack.contains(target)) {
                low.put(node, Math.min(low.get(node), index.get(target)));
            }
        }
        if (low.get(node).equals(index.get(node))) {
            Set<String> component = new TreeSet<>();
            String member;
            do {
                member = stack.pop();
                onStack.remove(member);
                component.add(member);
            } while (!member.equals(node));
            if (component.size() > 1) {
                components.add(Set.copyOf(component));
            }
        }
    }

    private static String describe(Set<Set<String>> cycles, Map<String, Set<String>> graph) {
        StringBuilder text = new StringBuilder();
        for (Set<String> cycle : cycles) {
            text.append(new TreeSet<>(cycle)).append(":\n");
            for (String from : new TreeSet<>(cycle)) {
                for (String to : graph.get(from)) {
                    if (cycle.contains(to)) {
                        text.append("    ")
                                .append(from)
                                .append(" -> ")
                                .append(to)
                                .append('\n');
                    }
                }
            }
        }
        return text.toString();
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
