package dev.interlock.recorder;

import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsRequestHook;
import dev.interlock.runtime.priming.OfflineMode;
import java.util.Optional;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The {@link AwsRequestHook} this module provides (named in its {@code META-INF/services} file): the
 * {@link AwsRequestRecorder} the environment asks for.
 */
public final class RecordingHook implements AwsRequestHook {

    @Override
    public Optional<ExecutionInterceptor> interceptor(Environment environment, OfflineMode offline) {
        return AwsRequestRecorder.configured(environment, offline).map(ExecutionInterceptor.class::cast);
    }
}
