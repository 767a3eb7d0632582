package dev.interlock.deps.prime;

import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;

/**
 * The HTTP client every AWS client uses: it passes every request to the real client, except on a thread that is
 * {@linkplain Priming#offline priming}, where it answers locally with the protocol's empty success (JSON {@code {}},
 * or the Query protocol's {@code <ActionResponse>}) — so priming drives the SDK's whole request pipeline
 * (marshalling, endpoint rules, signing, unmarshalling) with no connection opened, no AWS call made and nothing written.
 */
public final class PrimingHttpClient implements SdkHttpClient {

    private static final Pattern ACTION = Pattern.compile("(?:^|&)Action=([A-Za-z0-9]+)");

    private final SdkHttpClient delegate;
    private final AtomicLong answeredLocally = new AtomicLong();

    public PrimingHttpClient(SdkHttpClient delegate) {
        this.delegate = delegate;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        if (!Priming.active()) {
            return delegate.prepareRequest(request);
        }
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                answeredLocally.incrementAndGet();
                return emptySuccess(request);
            }

            @Override
            public void abort() {
            }
        };
    }

    /** How many requests were answered locally while priming (for the priming report and tests). */
    public long answeredLocally() {
        return answeredLocally.get();
    }

    @Override
    public String clientName() {
        return delegate.clientName();
    }

    @Override
    public void close() {
        delegate.close();
    }

    static HttpExecuteResponse emptySuccess(HttpExecuteRequest request) {
        String contentType = request.httpRequest().firstMatchingHeader("Content-Type").orElse("");
        String body;
        String responseType;
        if (contentType.startsWith("application/x-www-form-urlencoded")) {
            // Query protocol (SNS): <ActionResponse><ActionResult/></ActionResponse>.
            String action = queryAction(request).orElse("Unknown");
            body = "<" + action + "Response><" + action + "Result/><ResponseMetadata><RequestId>interlock-priming"
                    + "</RequestId></ResponseMetadata></" + action + "Response>";
            responseType = "text/xml";
        } else {
            // JSON 1.0/1.1 (DynamoDB, Step Functions, Glue, EMR) and REST-JSON (Lambda, EMR Serverless).
            body = "{}";
            responseType = contentType.startsWith("application/x-amz-json") ? contentType : "application/json";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        SdkHttpResponse response = SdkHttpResponse.builder()
                .statusCode(200)
                .putHeader("Content-Type", responseType)
                .putHeader("Content-Length", Integer.toString(bytes.length))
                .putHeader("x-amzn-RequestId", "interlock-priming")
                .build();
        return HttpExecuteResponse.builder()
                .response(response)
                .responseBody(AbortableInputStream.create(new ByteArrayInputStream(bytes)))
                .build();
    }

    private static Optional<String> queryAction(HttpExecuteRequest request) {
        Optional<ContentStreamProvider> content = request.contentStreamProvider();
        if (content.isEmpty()) {
            return request.httpRequest().firstMatchingRawQueryParameter("Action");
        }
        try (InputStream in = content.get().newStream()) {
            String form = URLDecoder.decode(new String(in.readAllBytes(), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            var m = ACTION.matcher(form);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
