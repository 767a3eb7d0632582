package dev.interlock.runtime.aws;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.priming.OfflineMode;
import java.util.Iterator;
import java.util.Optional;
import java.util.ServiceLoader;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * Where tests and the local runtime attach the IAM request recorder to every client {@link AwsClients} builds, without
 * the recorder in any function's jar: {@code lambdas/aws-recorder} provides this hook through its
 * {@code META-INF/services} file, and {@link #configured} looks it up with {@link ServiceLoader} only when recording is
 * asked for ({@code INTERLOCK_AWS_REQUEST_LOG_DIR}, or the JVM property {@value #DIR_PROPERTY}). A deployed function never
 * asks: it reads one environment variable and one property, loads no provider and adds no interceptor.
 *
 * <p>What is recorded, and how the IAM conformance check judges it: {@code infra-cdk/README.md}.
 */
public interface AwsRequestHook {

    /** JVM property naming the recording directory (test JVMs). */
    String DIR_PROPERTY = "interlock.awsRequestLogDir";
    /** JVM property naming the function every client of this JVM works for (a function module's test JVM). */
    String FUNCTION_PROPERTY = "interlock.awsRequestLog.function";

    /**
     * The interceptor that records the requests of the clients built for {@code environment} (empty when it names no
     * function: {@link #function}); it records nothing a thread sends while {@code offline} primes it.
     */
    Optional<ExecutionInterceptor> interceptor(Environment environment, OfflineMode offline);

    /**
     * The interceptor of the hook on the class path when {@code environment} (or this JVM's properties) asks for
     * recording, else empty without looking for one. Asked for with no hook on the class path fails: a silent gap in
     * the recording would let the IAM conformance check pass on too little.
     */
    static Optional<ExecutionInterceptor> configured(Environment environment, OfflineMode offline) {
        if (directory(environment).isEmpty()) {
            return Optional.empty();
        }
        Iterator<AwsRequestHook> hooks = ServiceLoader.load(AwsRequestHook.class, AwsRequestHook.class.getClassLoader())
                .iterator();
        if (!hooks.hasNext()) {
            throw new IllegalStateException(EnvVar.INTERLOCK_AWS_REQUEST_LOG_DIR.name() + " (or -D" + DIR_PROPERTY
                    + ") asks to record the AWS requests, but no recorder is on the class path: add lambdas/aws-recorder"
                    + " (test scope in a function module, runtime scope in a runtime)");
        }
        return hooks.next().interceptor(environment, offline);
    }

    /** The recording directory: {@code INTERLOCK_AWS_REQUEST_LOG_DIR}, else {@value #DIR_PROPERTY}. */
    static Optional<String> directory(Environment environment) {
        return environment.find(EnvVar.INTERLOCK_AWS_REQUEST_LOG_DIR).or(() -> property(DIR_PROPERTY));
    }

    /** The function the requests are recorded as: {@code AWS_LAMBDA_FUNCTION_NAME}, else {@value #FUNCTION_PROPERTY}. */
    static Optional<String> function(Environment environment) {
        return environment.find(EnvVar.AWS_LAMBDA_FUNCTION_NAME).or(() -> property(FUNCTION_PROPERTY));
    }

    private static Optional<String> property(String name) {
        String value = System.getProperty(name);
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }
}
