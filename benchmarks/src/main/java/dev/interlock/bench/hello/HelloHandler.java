package dev.interlock.bench.hello;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/** The cold-start baseline: the least a Java function can do — echo its event — on the same JVM and runtime client. */
public final class HelloHandler implements RequestStreamHandler {

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        input.transferTo(output);
    }
}
