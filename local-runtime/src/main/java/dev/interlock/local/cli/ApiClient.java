package dev.interlock.local.cli;

import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/**
 * Talks to an Interlock API: the local runtime over plain HTTP, or the deployed API Gateway URL with requests
 * signed by SigV4 ({@code execute-api}) using the default AWS credentials chain.
 */
final class ApiClient {

    /** One HTTP answer. */
    record Answer(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private final URI endpoint;
    private final boolean sign;
    private final String region;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    ApiClient(URI endpoint, boolean sign, String region) {
        this.endpoint = endpoint;
        this.sign = sign;
        this.region = region;
    }

    /** Local endpoints are unsigned; https endpoints (API Gateway) are signed unless told otherwise. */
    static ApiClient forEndpoint(String endpoint, Boolean sigv4, String region) {
        URI uri = URI.create(endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint);
        boolean sign = sigv4 != null ? sigv4 : "https".equalsIgnoreCase(uri.getScheme());
        return new ApiClient(uri, sign, region);
    }

    static String segment(String raw) {
        return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
    }

    Answer get(String path) throws IOException, InterruptedException {
        return send("GET", path, null, null);
    }

    Answer put(String path, String contentType, String body) throws IOException, InterruptedException {
        return send("PUT", path, contentType, body);
    }

    Answer post(String path, String body) throws IOException, InterruptedException {
        return send("POST", path, "application/json", body);
    }

    Answer delete(String path) throws IOException, InterruptedException {
        return send("DELETE", path, null, null);
    }

    private Answer send(String method, String path, String contentType, String body) throws IOException, InterruptedException {
        URI uri = URI.create(endpoint + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30))
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (sign) {
            signed(method, uri, contentType, body).forEach((k, v) -> {
                if (!k.equalsIgnoreCase("host") && !k.equalsIgnoreCase("content-length")) {
                    b.setHeader(k, v);
                }
            });
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), r.body());
    }

    private Map<String, String> signed(String method, URI uri, String contentType, String body) {
        SdkHttpRequest.Builder req = SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
        if (contentType != null) {
            req.putHeader("Content-Type", contentType);
        }
        SignedRequest signed = AwsV4HttpSigner.create().sign(r -> r
                .identity(DefaultCredentialsProvider.builder().build().resolveCredentials())
                .request(req.build())
                .payload(body == null ? null : ContentStreamProvider.fromUtf8String(body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        Map<String, String> out = new java.util.LinkedHashMap<>();
        signed.request().forEachHeader((k, v) -> out.put(k, String.join(",", v)));
        return out;
    }
}
