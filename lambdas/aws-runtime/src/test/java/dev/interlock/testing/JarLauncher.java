package dev.interlock.testing;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The main class of the JVM that {@link LambdaJarRun} starts on a deployable jar: creates the handler once with its
 * no-argument constructor (as Lambda does) and feeds it every {@code *.json} event of a directory in name order,
 * writing each answer to {@code <name>.json} or, when the handler throws, the stack trace to {@code <name>.error}.
 *
 * <p>{@link LambdaJarRun} copies this one class file into a directory of its own, so the JVM's class path is that
 * directory and the jar: it must stay a single class (no nested classes) using nothing but the JDK, and reaches the
 * handler only by reflection.
 */
public final class JarLauncher {

    private JarLauncher() {}

    /** {@code <handler class> <events dir> <answers dir>}. */
    public static void main(String[] args) throws Exception {
        Object handler = Class.forName(args[0]).getConstructor().newInstance();
        Class<?> context = Class.forName("com.amazonaws.services.lambda.runtime.Context");
        Method handle = handler.getClass().getMethod("handleRequest", InputStream.class, OutputStream.class, context);
        Path answers = Files.createDirectories(Path.of(args[2]));
        List<Path> events;
        try (Stream<Path> list = Files.list(Path.of(args[1]))) {
            events = list.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        for (Path event : events) {
            String name = event.getFileName().toString().replaceFirst("\\.json$", "");
            System.out.println("=== invoking " + args[0] + " with " + name);
            ByteArrayOutputStream answer = new ByteArrayOutputStream();
            try (InputStream in = Files.newInputStream(event)) {
                handle.invoke(handler, in, answer, null);
                Files.write(answers.resolve(name + ".json"), answer.toByteArray());
            } catch (InvocationTargetException e) {
                StringWriter trace = new StringWriter();
                e.getCause().printStackTrace(new PrintWriter(trace));
                Files.writeString(answers.resolve(name + ".error"), trace.toString(), StandardCharsets.UTF_8);
                System.out.println("=== " + name + " threw " + e.getCause());
            }
        }
    }
}
