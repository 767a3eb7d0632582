package dev.interlock.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.InterlockFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * The build gate that keeps test code out of what is deployed: no function's deployable jar may contain a class
 * compiled from any module's test sources (the in-memory store, the request counter, DynamoDB Local's launcher, the
 * fixtures), DynamoDB Local itself or a test library. The enforcer keeps test-jars and test libraries out of the
 * functions' compile and runtime scopes; this reads the jars that were actually built, so a double that moves back
 * into main code, or a jar assembled some other way, fails too.
 *
 * <p>It reads {@code lambdas/<function>/target/<function>-lambda.jar} of every function, which the reactor packages
 * before this module's tests. Run it alone with
 * {@code ./mvnw -B -ntp -pl integration-tests -am verify -Dtest=FunctionJarContentsTest -Dsurefire.failIfNoSpecifiedTests=false -DskipITs}.
 */
class FunctionJarContentsTest {

    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

    /** The test doubles by name, so the failure says what came back, whatever module's tests it now lives in. */
    private static final Set<String> DOUBLES = Set.of(
            "dev/interlock/store/memory/InMemoryProvider.class",
            "dev/interlock/store/memory/MemoryTable.class",
            "dev/interlock/store/memory/MemoryConfigStores.class",
            "dev/interlock/store/dynamodb/RequestCounter.class",
            "dev/interlock/store/dynamodb/LocalDynamoDb.class",
            "dev/interlock/store/dynamodb/FaultInjection.class");

    /**
     * The recorder's classes by name (where they lived in the function jars before, and where they live now), so the
     * test fails even when lambdas/aws-recorder has not been compiled here.
     */
    private static final Set<String> RECORDER = Set.of(
            "dev/interlock/runtime/aws/AwsRequestRecorder.class",
            "dev/interlock/runtime/aws/IamRequests.class",
            "dev/interlock/runtime/aws/IamRequests$IamRequest.class",
            "dev/interlock/recorder/AwsRequestRecorder.class",
            "dev/interlock/recorder/IamRequests.class",
            "dev/interlock/recorder/RecordingHook.class");

    /** Libraries only tests use: DynamoDB Local, SQLite's native store, JUnit, AssertJ, jqwik, Mockito, Selenium. */
    private static final List<String> TEST_LIBRARIES = List.of(
            "com/amazonaws/services/dynamodbv2/local/",
            "com/almworks/sqlite4java/",
            "org/junit/",
            "org/assertj/",
            "net/jqwik/",
            "org/mockito/",
            "org/openqa/selenium/");

    /** The most a function's deployable jar may weigh: each carries only what it runs. */
    @Test
    void noFunctionJarContainsTestCodeOrATestLibrary() throws IOException {
        Set<String> testClasses = classesCompiledFromTestSources();
        assertThat(testClasses)
                .as("classes of the modules' test sources")
                .contains(
                        "dev/interlock/store/memory/InMemoryProvider.class",
                        "dev/interlock/store/dynamodb/RequestCounter.class");
        for (InterlockFunction function : InterlockFunction.values()) {
            Path jar = function.deployableJar(ROOT);
            assertThat(jar)
                    .as("deployable jar of %s: build it first (run with -am)", function.moduleName())
                    .isRegularFile();
            List<String> entries = entries(jar);
            assertThat(entries).as("entries of %s", jar).contains("dev/interlock/wiring/Deps.class");
            assertThat(entries).as("test doubles in %s", jar).doesNotContainAnyElementsOf(DOUBLES);
            assertThat(entries.stream().filter(testClasses::contains).toList())
                    .as("classes compiled from test sources in %s", jar)
                    .isEmpty();
            assertThat(entries.stream()
                            .filter(startsWithAny(TEST_LIBRARIES))
                            .limit(5)
                            .toList())
                    .as("test libraries in %s", jar)
                    .isEmpty();
        }
    }

    /**
     * The IAM request recorder (lambdas/aws-recorder) is what tests and the local runtime add to record every AWS request
     * for the IAM conformance check; a deployed function never records, so its jar holds only the hook the recorder
     * fills ({@code AwsRequestHook}, found through {@code ServiceLoader} when recording is asked for) and no class of
     * the recorder, nor a provider file that would name one. {@code LambdaJarRun} adds the recorder's jar to a jar run's
     * class path when its test records.
     */
    @Test
    void noFunctionJarContainsTheRequestRecorder() throws IOException {
        Set<String> recorderClasses = new TreeSet<>(RECORDER);
        Path recorderOutput = ROOT.resolve("lambdas/aws-recorder/target/classes");
        if (Files.isDirectory(recorderOutput)) {
            try (Stream<Path> files = Files.walk(recorderOutput)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .map(f -> recorderOutput.relativize(f).toString().replace('\\', '/'))
                        .forEach(recorderClasses::add);
            }
        }
        for (InterlockFunction function : InterlockFunction.values()) {
            Path jar = function.deployableJar(ROOT);
            assertThat(jar)
                    .as("deployable jar of %s: build it first (run with -am)", function.moduleName())
                    .isRegularFile();
            List<String> entries = entries(jar);
            assertThat(entries).as("entries of %s", jar).contains("dev/interlock/runtime/aws/AwsRequestHook.class");
            assertThat(entries.stream().filter(recorderClasses::contains).toList())
                    .as("request recorder classes in %s", jar)
                    .isEmpty();
            assertThat(entries)
                    .as("entries of %s", jar)
                    .doesNotContain("META-INF/services/dev.interlock.runtime.aws.AwsRequestHook");
        }
    }

    /**
     * The functions that start or check no job carry no job adapter. Only the trigger, the run-checker and
     * the orchestrator (the watchdog's callback checks) build trigger runners, each in its own handler; Deps, which
     * every function shares, holds the AWS runtime (lambdas/aws-runtime) and not lambdas/jobs.
     */
    @Test
    void onlyTheFunctionsThatStartOrCheckJobsCarryTheJobAdapters() throws IOException {
        for (InterlockFunction function :
                List.of(InterlockFunction.API, InterlockFunction.STREAM_ROUTER, InterlockFunction.EVALUATOR)) {
            Path jar = function.deployableJar(ROOT);
            assertThat(jar)
                    .as("deployable jar of %s: build it first (run with -am)", function.moduleName())
                    .isRegularFile();
            List<String> entries = entries(jar);
            assertThat(entries).as("entries of %s", jar).contains("dev/interlock/runtime/aws/AwsClients.class");
            assertThat(entries.stream()
                            .filter(e -> e.startsWith("dev/interlock/jobs/"))
                            .limit(5)
                            .toList())
                    .as("job adapters in %s", jar)
                    .isEmpty();
        }
        for (InterlockFunction function : List.of(InterlockFunction.TRIGGER, InterlockFunction.RUN_CHECKER)) {
            assertThat(entries(function.deployableJar(ROOT)))
                    .as("entries of %s", function.moduleName())
                    .contains("dev/interlock/jobs/TriggerRunners.class");
        }
    }

    /**
     * Each function jar carries only what it runs and stays under 15 MB (Lambda's limit for a jar is
     * 50 MB zipped, this project's 20 MiB). ProGuard keeps the requests of the operations the code calls and no other
     * (lambdas/proguard/README.md, the request builders): the trigger starts Glue jobs and never creates one. Of the
     * stream router's OpenLineage client only the HTTP transport and the run-event model it builds are left.
     */
    @Test
    void everyFunctionJarIsUnder15MegabytesAndHoldsOnlyTheRequestsItSends() throws IOException {
        for (InterlockFunction function : InterlockFunction.values()) {
            Path jar = function.deployableJar(ROOT);
            assertThat(Files.size(jar)).as("size of %s", jar).isLessThan(InterlockFunction.MAX_DEPLOYABLE_JAR_BYTES);
        }
        List<String> trigger = entries(InterlockFunction.TRIGGER.deployableJar(ROOT));
        assertThat(trigger)
                .as("entries of the trigger's jar")
                .contains("software/amazon/awssdk/services/glue/model/StartJobRunRequest.class")
                .doesNotContain(
                        "software/amazon/awssdk/services/glue/model/CreateJobRequest.class",
                        "software/amazon/awssdk/services/glue/model/CreateJobRequest$BuilderImpl.class",
                        "software/amazon/awssdk/services/ssm/model/CreateDocumentRequest.class");
        assertThat(entries(InterlockFunction.STREAM_ROUTER.deployableJar(ROOT)))
                .as("entries of the stream router's jar")
                .contains(
                        "io/openlineage/client/transports/HttpTransport.class",
                        "io/openlineage/client/OpenLineage$RunEvent.class")
                .doesNotContain(
                        "io/openlineage/client/transports/KafkaTransport.class",
                        "io/openlineage/client/OpenLineage$SchemaDatasetFacet.class",
                        "org/apache/hc/core5/http2/impl/nio/ClientH2StreamMultiplexer.class");
    }

    private static Set<String> classesCompiledFromTestSources() throws IOException {
        Set<String> classes = new TreeSet<>();
        List<Path> testOutputs = new ArrayList<>();
        try (Stream<Path> modules = Files.walk(ROOT, 4)) {
            modules.filter(p -> p.getFileName().toString().equals("test-classes")
                            && p.getParent().getFileName().toString().equals("target"))
                    .forEach(testOutputs::add);
        }
        for (Path output : testOutputs) {
            try (Stream<Path> files = Files.walk(output)) {
                files.filter(f -> f.toString().endsWith(".class"))
                        .map(f -> output.relativize(f).toString().replace('\\', '/'))
                        .forEach(classes::add);
            }
        }
        return classes;
    }

    private static List<String> entries(Path jar) throws IOException {
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            return zip.stream().map(ZipEntry::getName).toList();
        }
    }

    private static Predicate<String> startsWithAny(List<String> prefixes) {
        return entry -> prefixes.stream().anyMatch(entry::startsWith);
    }
}
