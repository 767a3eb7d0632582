package dev.interlock.testing;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.runtime.aws.AwsRequestHook;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;

/**
 * Runs a function's deployable jar for real: a fresh JVM whose class path is only that jar and the directory holding
 * {@link JarLauncher}, an environment holding only what is given (and {@code PATH}), and a list of events handed to
 * the handler in order. Used by the {@code *LambdaJarIT} tests, which run after the jar is built. When the test JVM
 * records AWS requests (IAM conformance), the function JVM does too: the recorder (lambdas/aws-recorder, in no
 * function's jar) joins its class path.
 */
public final class LambdaJarRun {

    private static final long TIMEOUT_SECONDS = 180;

    private final Path jar;
    private final String handler;
    private final Map<String, String> environment;
    private final Map<String, String> events = new LinkedHashMap<>();
    private final List<Path> runtimeLibraries = new ArrayList<>();

    private LambdaJarRun(Path jar, String handler, Map<String, String> environment) {
        this.jar = jar;
        this.handler = handler;
        this.environment = Map.copyOf(environment);
    }

    /** A run of {@code handler} (a class with a no-argument constructor) from {@code jar}. */
    public static LambdaJarRun of(Path jar, String handler, Map<String, String> environment) {
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar.toAbsolutePath() + " does not exist: build it with `package` first");
        }
        return new LambdaJarRun(jar, handler, environment);
    }

    /** Adds an event; events are handed to the handler in the order added. */
    public LambdaJarRun event(String name, String json) {
        events.put(name, json);
        return this;
    }

    /**
     * Puts Lambda's Java runtime's event serialization ({@code aws-lambda-java-serialization}, with its mixins for
     * {@code DynamodbEvent}, {@code APIGatewayProxyRequestEvent} …) on the class path after the jar, as Lambda's Java
     * runtime has it: a typed handler's JSON event becomes its class. The library is found on this test's class path
     * (it comes with {@code aws-lambda-java-tests}); it is never in a function's jar.
     */
    public LambdaJarRun withLambdaEventSerialization() {
        try {
            Class<?> serializers =
                    Class.forName("com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers");
            runtimeLibraries.add(Path.of(serializers
                    .getProtectionDomain()
                    .getCodeSource()
                    .getLocation()
                    .toURI()));
        } catch (ClassNotFoundException | URISyntaxException e) {
            throw new IllegalStateException(
                    "Lambda's event serialization is not on the test class path: declare aws-lambda-java-tests (test)",
                    e);
        }
        return this;
    }

    /** Starts the JVM, waits for it to handle every event, and returns what each invocation answered. */
    public Answers run(Path work) {
        try {
            Path launcherDir = Files.createDirectories(work.resolve("launcher"));
            String launcherFile = JarLauncher.class.getName().replace('.', '/') + ".class";
            Path launcherClass = launcherDir.resolve(launcherFile);
            Files.createDirectories(launcherClass.getParent());
            try (InputStream in = JarLauncher.class.getClassLoader().getResourceAsStream(launcherFile)) {
                Files.copy(in, launcherClass);
            }
            Path eventDir = Files.createDirectories(work.resolve("events"));
            int i = 0;
            List<String> order = new ArrayList<>();
            for (Map.Entry<String, String> e : events.entrySet()) {
                String file = String.format("%02d-%s", i++, e.getKey());
                order.add(file);
                Files.writeString(eventDir.resolve(file + ".json"), e.getValue(), StandardCharsets.UTF_8);
            }
            Path answerDir = work.resolve("answers");
            Path log = work.resolve("jvm.log");

            List<String> command = List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xshare:auto",
                    "-Xmx512m",
                    "-classpath",
                    classPath(launcherDir),
                    JarLauncher.class.getName(),
                    handler,
                    eventDir.toString(),
                    answerDir.toString());
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(work.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Map<String, String> env = builder.environment();
            String path = env.getOrDefault("PATH", "/usr/bin:/bin");
            env.clear();
            env.put("PATH", path);
            env.putAll(recording());
            env.putAll(environment);
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("the function JVM did not finish within " + TIMEOUT_SECONDS + " s; log:\n"
                        + Files.readString(log));
            }
            String output = Files.readString(log);
            if (process.exitValue() != 0) {
                throw new AssertionError("the function JVM exited with " + process.exitValue() + "; log:\n" + output);
            }
            Map<String, Answer> answers = new LinkedHashMap<>();
            List<String> names = new ArrayList<>(events.keySet());
            for (int n = 0; n < order.size(); n++) {
                Path ok = answerDir.resolve(order.get(n) + ".json");
                Path error = answerDir.resolve(order.get(n) + ".error");
                answers.put(
                        names.get(n),
                        new Answer(
                                Files.exists(ok) ? Optional.of(Files.readString(ok)) : Optional.empty(),
                                Files.exists(error) ? Optional.of(Files.readString(error)) : Optional.empty()));
            }
            return new Answers(answers, output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The function's jar, the recorder's when this run records (it is in no function's jar), the launcher's directory
     * and the runtime libraries.
     */
    private String classPath(Path launcherDir) {
        List<String> entries = new ArrayList<>();
        entries.add(jar.toAbsolutePath().toString());
        if (records()) {
            entries.add(recorderLocation().toString());
        }
        entries.add(launcherDir.toString());
        runtimeLibraries.forEach(l -> entries.add(l.toAbsolutePath().toString()));
        return String.join(java.io.File.pathSeparator, entries);
    }

    private static boolean records() {
        String dir = System.getProperty(AwsRequestHook.DIR_PROPERTY);
        return dir != null && !dir.isBlank();
    }

    /**
     * Where this test JVM loads the recorder from (its jar, or its classes in a reactor build): the code source of the
     * {@link AwsRequestHook} provider on the test class path, which the function JVM then finds the same way.
     */
    private static Path recorderLocation() {
        Class<?> provider = ServiceLoader.load(AwsRequestHook.class).stream()
                .findFirst()
                .map(ServiceLoader.Provider::type)
                .orElseThrow(() -> new AssertionError("this test records AWS requests (-D" + AwsRequestHook.DIR_PROPERTY
                        + ") but lambdas/aws-recorder is not on its class path: declare it with test scope"));
        try {
            return Path.of(
                    provider.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * When this test JVM records AWS requests for the IAM conformance check, the function JVM records its own into the
     * same directory, named after the function whose handler it runs (as Lambda names it).
     */
    private Map<String, String> recording() {
        if (!records()) {
            return Map.of();
        }
        String dir = System.getProperty(AwsRequestHook.DIR_PROPERTY);
        String function = java.util.Arrays.stream(InterlockFunction.values())
                .filter(f -> f.handlerClass().equals(handler))
                .map(InterlockFunction::moduleName)
                .findFirst()
                .orElse(System.getProperty(AwsRequestHook.FUNCTION_PROPERTY, ""));
        return Map.of(
                EnvVar.INTERLOCK_AWS_REQUEST_LOG_DIR.name(), dir, EnvVar.AWS_LAMBDA_FUNCTION_NAME.name(), function);
    }

    /** What one invocation produced: the handler's answer, or the stack trace of what it threw. */
    public record Answer(Optional<String> json, Optional<String> error) {}

    /** Every invocation's answer, by event name, and the JVM's whole output (the handlers' logs). */
    public record Answers(Map<String, Answer> byEvent, String log) {

        /** The answer to one event; fails, with the JVM's output, when the handler threw or never answered. */
        public String json(String event) {
            Answer answer = byEvent.get(event);
            if (answer == null || answer.json().isEmpty()) {
                throw new AssertionError("no answer to " + event
                        + (answer != null && answer.error().isPresent()
                                ? "; the handler threw:\n" + answer.error().get()
                                : "")
                        + "\nJVM output:\n" + log);
            }
            return answer.json().get();
        }
    }
}
