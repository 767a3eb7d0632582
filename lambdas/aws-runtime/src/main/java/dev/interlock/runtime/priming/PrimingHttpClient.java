package dev.interlock.runtime.priming;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.runtime.TableDefinition;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import software.amazon.awssdk.http.AbortableInputStream;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.ExecutableHttpRequest;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpResponse;

/**
 * The HTTP client every AWS client uses: it passes every request to the real client, except on a thread that is
 * {@linkplain OfflineMode#run priming}, where it answers locally with the protocol's empty success (JSON {@code {}},
 * or the Query protocol's {@code <ActionResponse>}) — so priming drives the SDK's whole request pipeline
 * (marshalling, endpoint rules, signing, unmarshalling) with no connection opened, no AWS call made and nothing written.
 * One exception keeps rehearsals going: a DynamoDB {@code GetItem} returns the item the same priming pass put with
 * {@code PutItem} under that key, if any.
 */
public final class PrimingHttpClient implements SdkHttpClient {

    private static final Pattern ACTION = Pattern.compile("(?:^|&)Action=([A-Za-z0-9]+)");

    private final SdkHttpClient delegate;
    private final OfflineMode offline;
    private final AtomicLong answeredLocally = new AtomicLong();

    public PrimingHttpClient(SdkHttpClient delegate, OfflineMode offline) {
        this.delegate = delegate;
        this.offline = offline;
    }

    @Override
    public ExecutableHttpRequest prepareRequest(HttpExecuteRequest request) {
        if (!offline.active()) {
            return delegate.prepareRequest(request);
        }
        return new ExecutableHttpRequest() {
            @Override
            public HttpExecuteResponse call() {
                answeredLocally.incrementAndGet();
                return answerLocally(request, offline);
            }

            @Override
            public void abort() {}
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

    static HttpExecuteResponse answerLocally(HttpExecuteRequest request, OfflineMode offline) {
        String contentType =
                request.httpRequest().firstMatchingHeader("Content-Type").orElse("");
        String target =
                request.httpRequest().firstMatchingHeader("X-Amz-Target").orElse("");
        String body;
        String responseType;
        if (target.equals("DynamoDB_20120810.PutItem") || target.equals("DynamoDB_20120810.GetItem")) {
            body = rememberedItems(target, request, offline);
            responseType = contentType;
        } else if (contentType.startsWith("application/x-www-form-urlencoded")) {
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

    /** PutItem remembers the item by table and key; GetItem answers with it (or with no item). */
    private static String rememberedItems(String target, HttpExecuteRequest request, OfflineMode offline) {
        try {
            JsonNode call = InterlockJson.json().readTree(requestBody(request));
            boolean put = target.endsWith(".PutItem");
            JsonNode keySource = put ? call.path("Item") : call.path("Key");
            String key = call.path("TableName").asText() + "|" + keySource.path(TableDefinition.PK) + "|"
                    + keySource.path(TableDefinition.SK);
            if (put) {
                offline.items().put(key, call.path("Item"));
                return "{}";
            }
            JsonNode item = offline.items().get(key);
            return item == null ? "{}" : "{\"Item\":" + InterlockJson.json().writeValueAsString(item) + "}";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] requestBody(HttpExecuteRequest request) throws IOException {
        Optional<ContentStreamProvider> content = request.contentStreamProvider();
        if (content.isEmpty()) {
            return "{}".getBytes(StandardCharsets.UTF_8);
        }
        try (InputStream in = content.get().newStream()) {
            return in.readAllBytes();
        }
    }

    private static Optional<String> queryAction(HttpExecuteRequest request) {
        Optional<ContentStreamProvider> content = request.contentStreamProvider();
        if (content.isEmpty()) {
            return request.httpRequest().firstMatchingRawQueryParameter("Action");
        }
        try {
            String form =
                    URLDecoder.decode(new String(requestBody(request), StandardCharsets.UTF_8), StandardCharsets.UTF_8);
            var m = ACTION.matcher(form);
            return m.find() ? Optional.of(m.group(1)) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
