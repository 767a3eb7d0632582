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
 *
 * <p>A {@code RequestStreamHandler} gets each event's bytes. A typed {@code RequestHandler} (the stream router's
 * {@code DynamodbEvent}) gets the event the way Lambda's Java runtime makes it: through the runtime's own
 * {@code aws-lambda-java-serialization} (its mixins for the Lambda event classes, else its plain Jackson), which
 * {@link LambdaJarRun#withLambdaEventSerialization} puts on the class path beside the jar, as Lambda's runtime is beside the
 * function's code.
 */
public final class JarLauncher {

    private JarLauncher() {}

    /** {@code <handler class> <events dir> <answers dir>}. */
    public static void main(String[] args) throws Exception {
        Object handler = Class.forName(args[0]).getConstructor().newInstance();
        Class<?> context = Class.forName("com.amazonaws.services.lambda.runtime.Context");
        Method handle = null;
        for (Method m : handler.getClass().getMethods()) {
            if (m.getName().equals("handleRequest")
                    && m.getParameterCount() >= 2
                    && m.getParameterTypes()[m.getParameterCount() - 1] == context
                    && !m.isBridge()
                    && (handle == null || m.getParameterCount() == 3)) {
                handle = m;
            }
        }
        if (handle == null) {
            throw new IllegalArgumentException(args[0] + " has no handleRequest method");
        }
        boolean typed = handle.getParameterCount() == 2;
        Object input = typed ? serializer(handle.getParameterTypes()[0], handler) : null;
        Object output = typed ? serializer(handle.getReturnType(), handler) : null;
        Class<?> pojo =
                typed ? Class.forName("com.amazonaws.services.lambda.runtime.serialization.PojoSerializer") : null;
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
                if (typed) {
                    Object result = handle.invoke(
                            handler,
                            pojo.getMethod("fromJson", InputStream.class).invoke(input, in),
                            null);
                    pojo.getMethod("toJson", Object.class, OutputStream.class).invoke(output, result, answer);
                } else {
                    handle.invoke(handler, in, answer, null);
                }
                Files.write(answers.resolve(name + ".json"), answer.toByteArray());
            } catch (InvocationTargetException e) {
                StringWriter trace = new StringWriter();
                e.getCause().printStackTrace(new PrintWriter(trace));
                Files.writeString(answers.resolve(name + ".error"), trace.toString(), StandardCharsets.UTF_8);
                System.out.println("=== " + name + " threw " + e.getCause());
            }
        }
    }

    /** The serializer Lambda's Java runtime uses for {@code type}: its event mixins for a Lambda event, else Jackson. */
    private static Object serializer(Class<?> type, Object handler) throws Exception {
        Class<?> events =
                Class.forName("com.amazonaws.services.lambda.runtime.serialization.events.LambdaEventSerializers");
        if ((Boolean) events.getMethod("isLambdaSupportedEvent", String.class).invoke(null, type.getName())) {
            return events.getMethod("serializerFor", Class.class, ClassLoader.class)
                    .invoke(null, type, handler.getClass().getClassLoader());
        }
        Class<?> jackson =
                Class.forName("com.amazonaws.services.lambda.runtime.serialization.factories.JacksonFactory");
        return jackson.getMethod("getSerializer", Class.class)
                .invoke(jackson.getMethod("getInstance").invoke(null), type);
    }
}
