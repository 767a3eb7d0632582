package dev.interlock.local.cli;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Talks to an Interlock API: the local runtime over plain HTTP, or the deployed API Gateway URL with requests
 * signed by SigV4 ({@link SigV4}). A request that cannot reach the API is a {@link CliFailure} naming the URL.
 */
final class ApiClient {

    /** One HTTP answer. */
    record Answer(int status, String body) {
        boolean ok() {
            return status >= 200 && status < 300;
        }
    }

    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private final URI endpoint;
    private final boolean sign;
    private final String region;
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();

    ApiClient(URI endpoint, boolean sign, String region) {
        this.endpoint = endpoint;
        this.sign = sign;
        this.region = region;
    }

    /** Local endpoints are unsigned; https endpoints (API Gateway) are signed unless told otherwise. */
    static ApiClient forEndpoint(String endpoint, Boolean sigv4, String region) {
        URI uri = endpointUri(endpoint);
        boolean sign = sigv4 != null ? sigv4 : "https".equals(uri.getScheme());
        return new ApiClient(uri, sign, region);
    }

    /** The endpoint without a trailing slash; anything but an absolute http(s) URL is a usage error. */
    static URI endpointUri(String endpoint) {
        String trimmed = endpoint == null ? "" : endpoint.trim();
        String problem = "--endpoint '" + trimmed + "' is not an http(s) URL such as http://127.0.0.1:8080";
        try {
            URI uri = new URI(trimmed.endsWith("/") ? trimmed.substring(0, trimmed.length() - 1) : trimmed);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!(scheme.equals("http") || scheme.equals("https")) || uri.getHost() == null) {
                throw new CliFailure(problem, CliFailure.USAGE, null);
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new CliFailure(problem, CliFailure.USAGE, e);
        }
    }

    URI endpoint() {
        return endpoint;
    }

    static String segment(String raw) {
        return URLEncoder.encode(raw, StandardCharsets.UTF_8).replace("+", "%20");
    }

    Answer get(String path) {
        return send("GET", path, null, null);
    }

    Answer put(String path, String contentType, String body) {
        return send("PUT", path, contentType, body);
    }

    Answer post(String path, String body) {
        return send("POST", path, "application/json", body);
    }

    Answer delete(String path) {
        return send("DELETE", path, null, null);
    }

    private Answer send(String method, String path, String contentType, String body) {
        URI uri = URI.create(endpoint + path);
        HttpRequest.Builder b = HttpRequest.newBuilder(uri)
                .timeout(REQUEST_TIMEOUT)
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (contentType != null) {
            b.header("Content-Type", contentType);
        }
        if (sign) {
            SigV4.headers(method, uri, contentType, body, region).forEach(b::setHeader);
        }
        try {
            HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(r.statusCode(), r.body());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CliFailure("interrupted while waiting for " + endpoint, CliFailure.INTERRUPTED, e);
        } catch (IOException e) {
            throw unreachable(e);
        }
    }

    /** One line that says which URL could not be reached and why, and what usually fixes it. */
    private CliFailure unreachable(IOException e) {
        String why;
        String fix;
        if (e instanceof HttpConnectTimeoutException) {
            why = "no connection within " + CONNECT_TIMEOUT.toSeconds() + " s";
            fix = "check the URL and the network";
        } else if (e instanceof HttpTimeoutException) {
            why = "no answer within " + REQUEST_TIMEOUT.toSeconds() + " s";
            fix = "the API may be overloaded; try again";
        } else if (causedBy(e, UnknownHostException.class) || causedBy(e, UnresolvedAddressException.class)) {
            why = "unknown host '" + endpoint.getHost() + "'";
            fix = "check the URL";
        } else if (causedBy(e, SSLException.class)) {
            why = "TLS failed (" + e.getMessage() + ")";
            fix = "check the URL's scheme and certificate";
        } else if (causedBy(e, ConnectException.class)) {
            why = "connection refused";
            fix = isLocal()
                    ? "start it with './interlock up', or point --endpoint (or INTERLOCK_ENDPOINT) at a running one"
                    : "check the URL";
        } else {
            why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            fix = "check the URL and the network";
        }
        return new CliFailure(
                "cannot reach the Interlock API at " + endpoint + ": " + why + "\n  " + fix, CliFailure.FAILED, e);
    }

    private boolean isLocal() {
        String host = endpoint.getHost();
        return host.equals("127.0.0.1") || host.equals("localhost") || host.equals("[::1]") || host.equals("::1");
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
