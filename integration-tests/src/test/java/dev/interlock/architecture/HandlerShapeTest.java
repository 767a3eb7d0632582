package dev.interlock.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.InterlockFunction;
import dev.interlock.wiring.Deps;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * One way to build a handler: every function's handler has exactly three public constructors — {@code ()} for Lambda,
 * {@code (Deps)} for the local runtime, and one over the function's domain operation (one class of ours) for tests — and no public static factory that builds one some other way.
 */
class HandlerShapeTest {

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void everyHandlerHasTheThreeConstructorsAndNoOtherWayIn(InterlockFunction function) throws Exception {
        Class<?> handler = Class.forName(function.handlerClass());
        List<Constructor<?>> constructors = Arrays.asList(handler.getConstructors());

        assertThat(constructors)
                .as("public constructors of %s", handler.getSimpleName())
                .hasSize(3);
        assertThat(constructors).as("the Lambda entry ()").anyMatch(c -> c.getParameterCount() == 0);
        assertThat(constructors)
                .as("the local runtime's (Deps)")
                .anyMatch(c -> Arrays.equals(c.getParameterTypes(), new Class<?>[] {Deps.class}));
        assertThat(constructors)
                .as("the tests' constructor over one domain operation")
                .anyMatch(c -> c.getParameterCount() == 1
                        && c.getParameterTypes()[0] != Deps.class
                        && c.getParameterTypes()[0].getPackageName().startsWith("dev.interlock."));
        List<String> factories = Arrays.stream(handler.getDeclaredMethods())
                .filter(m -> Modifier.isStatic(m.getModifiers()) && Modifier.isPublic(m.getModifiers()))
                .filter(m -> m.getReturnType() == handler)
                .map(Method::getName)
                .toList();
        assertThat(factories)
                .as("public static factories of %s", handler.getSimpleName())
                .isEmpty();
    }
}
