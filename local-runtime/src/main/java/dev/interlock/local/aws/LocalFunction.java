package dev.interlock.local.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;

/** A function the local runtime runs in process: JSON bytes in, JSON bytes out, exceptions as function errors. */
@FunctionalInterface
public interface LocalFunction {

    byte[] invoke(byte[] payload, Context context) throws Exception;

    /** Adapts a Lambda stream handler (the workflow functions' entry points). */
    static LocalFunction of(RequestStreamHandler handler) {
        return (payload, context) -> {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            handler.handleRequest(new ByteArrayInputStream(payload), out, context);
            return out.toByteArray();
        };
    }
}
