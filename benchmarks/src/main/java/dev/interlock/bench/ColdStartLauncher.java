package dev.interlock.bench;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * Starts one fresh JVM the way Lambda's java21 runtime does — AWS's runtime interface client as the main class,
 * the function jar on the class path, the handler as its argument, Lambda's environment — hands it one event
 * through a {@link RuntimeApiStub} and times process start → response received.
 */
final class ColdStartLauncher {

    private static final String RUNTIME_MAIN = "com.amazonaws.services.lambda.runtime.api.client.AWSLambda";
    private static final long RUN_TIMEOUT_SECONDS = 180;

    private final String java;
    private final List<String> jvmArgs;
    private final List<Path> runtimeClient;
    private final Map<String, String> functionEnvironment;
    private final Path work;
    private final ClassData classData;

    ColdStartLauncher(
            String java,
            List<String> jvmArgs,
            Path runtimeClientDir,
            Map<String, String> functionEnvironment,
            Path work,
            ClassData classData)
            throws IOException {
        this.java = java;
        this.classData = classData;
        this.jvmArgs = List.copyOf(jvmArgs);
        try (Stream<Path> jars = Files.list(runtimeClientDir)) {
            this.runtimeClient =
                    jars.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
        }
        if (runtimeClient.stream()
                .noneMatch(p -> p.getFileName().toString().startsWith("aws-lambda-java-runtime-interface-client"))) {
            throw new IllegalStateException("no aws-lambda-java-runtime-interface-client jar in " + runtimeClientDir
                    + " (run the build's package phase first)");
        }
        this.functionEnvironment = Map.copyOf(functionEnvironment);
        this.work = work;
    }

    /**
     * One timed cold start (a negative index is a warm-up); the event's answer is checked, and anything but a success
     * is a {@link RunFailure}.
     */
    Measurement run(Scenario scenario, int index) throws Exception {
        Scenario.Prepared prepared = scenario.events().next();
        String functionName = "interlock-" + scenario.name().replaceAll("[^A-Za-z0-9-]", "");
        Path taskRoot = Files.createDirectories(work.resolve("task-root"));
        Path log = work.resolve(functionName + (index < 0 ? "-warmup" + -index : "-run" + (index + 1)) + ".log");
        try (RuntimeApiStub stub = RuntimeApiStub.start(prepared.event(), functionName)) {
            ProcessBuilder builder = new ProcessBuilder(command(scenario, index))
                    // An empty task root: the runtime client's customer class loader finds nothing there, so every
                    // class comes from the class path.
                    .directory(taskRoot.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            String path = env.getOrDefault("PATH", "/usr/bin:/bin");
            env.clear();
            env.put("PATH", path);
            env.putAll(lambdaEnvironment(scenario, functionName, stub.address(), taskRoot));
            env.putAll(functionEnvironment);

            long started = System.nanoTime();
            Process process = builder.start();
            try {
                CompletableFuture<Object> first = CompletableFuture.anyOf(stub.answer(), process.onExit());
                first.get(RUN_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (!stub.answer().isDone()) {
                    throw new RunFailure(
                            scenario.name() + ": the JVM exited with " + process.exitValue() + " before answering",
                            log);
                }
                RuntimeApiStub.Answer answer = stub.answer().join();
                if (answer.kind() != RuntimeApiStub.Answer.Kind.RESPONSE) {
                    throw new RunFailure(
                            scenario.name() + ": " + answer.kind() + " " + answer.errorType() + " " + answer.body(),
                            log);
                }
                var problem = prepared.check().problem(answer.body());
                if (problem.isPresent()) {
                    throw new RunFailure(scenario.name() + ": not a success: " + problem.get(), log);
                }
                long initEnd = stub.nextAtNanos();
                return new Measurement(
                        millis(answer.atNanos() - started),
                        millis(initEnd - started),
                        millis(answer.atNanos() - initEnd));
            } catch (TimeoutException e) {
                throw new RunFailure(scenario.name() + ": no answer within " + RUN_TIMEOUT_SECONDS + " s", log);
            } finally {
                // SIGTERM first: the JVM runs its exit path (a class-data-sharing archive asked for by the JVM
                // flags is written there), then anything still alive is killed.
                process.destroy();
                if (!process.waitFor(20, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    private List<String> command(Scenario scenario, int index) {
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(jvmArgs);
        String jar = scenario.name().replaceAll("[^A-Za-z0-9-]", "");
        switch (classData) {
            case NONE -> {}
            // The warm-up JVM writes the jar's archive at exit; the timed JVMs map it.
            case CDS -> {
                Path archive = work.resolve(jar + ".jsa");
                command.add(index < 0 ? "-XX:ArchiveClassesAtExit=" + archive : "-XX:SharedArchiveFile=" + archive);
            }
            case AOT -> {
                Path cache = work.resolve(jar + ".aot");
                command.add(index < 0 ? "-XX:AOTCacheOutput=" + cache : "-XX:AOTCache=" + cache);
            }
        }
        command.add("-classpath");
        // The runtime client first, as on Lambda, where its own aws-lambda-java-core wins over a bundled copy.
        List<String> classPath =
                new ArrayList<>(runtimeClient.stream().map(Path::toString).toList());
        classPath.add(scenario.jar().toString());
        command.add(String.join(File.pathSeparator, classPath));
        command.add(RUNTIME_MAIN);
        command.add(scenario.handler());
        return command;
    }

    /**
     * Class data the timed JVMs map, written by each jar's warm-up JVM: none; an application class-data-sharing
     * archive ({@code -XX:ArchiveClassesAtExit}, JDK 13+); or an ahead-of-time cache of loaded and linked classes and
     * method profiles ({@code -XX:AOTCacheOutput}, JDK 25).
     */
    enum ClassData {
        NONE,
        CDS,
        AOT
    }

    /** What the Lambda service sets in every java21 sandbox (credentials are dummies; nothing reaches AWS). */
    private static Map<String, String> lambdaEnvironment(
            Scenario scenario, String functionName, String runtimeApi, Path taskRoot) {
        return Map.ofEntries(
                Map.entry("AWS_LAMBDA_RUNTIME_API", runtimeApi),
                Map.entry("_HANDLER", scenario.handler()),
                Map.entry("AWS_LAMBDA_FUNCTION_NAME", functionName),
                Map.entry("AWS_LAMBDA_FUNCTION_VERSION", "$LATEST"),
                Map.entry("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512"),
                Map.entry("AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/" + functionName),
                Map.entry("AWS_LAMBDA_LOG_STREAM_NAME", "2026/01/01/[$LATEST]bench"),
                Map.entry("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand"),
                Map.entry("AWS_EXECUTION_ENV", "AWS_Lambda_java21"),
                Map.entry("LAMBDA_TASK_ROOT", taskRoot.toString()),
                Map.entry("AWS_REGION", "us-east-1"),
                Map.entry("AWS_DEFAULT_REGION", "us-east-1"),
                Map.entry("AWS_ACCESS_KEY_ID", "AKIDBENCHMARK"),
                Map.entry("AWS_SECRET_ACCESS_KEY", "benchmark-secret"),
                Map.entry("AWS_SESSION_TOKEN", "benchmark-token"),
                Map.entry("TZ", ":UTC"),
                Map.entry("LANG", "en_US.UTF-8"));
    }

    private static double millis(long nanos) {
        return nanos / 1_000_000.0;
    }

    /** One cold start: process start → response, and its split at the first {@code next} (end of init). */
    record Measurement(double totalMillis, double initMillis, double invokeMillis) {}

    /** A run that did not end in a successful answer, with the JVM's log for the report. */
    static final class RunFailure extends Exception {
        private final Path log;

        RunFailure(String message, Path log) {
            super(message);
            this.log = log;
        }

        Path log() {
            return log;
        }
    }
}
