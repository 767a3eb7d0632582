package dev.interlock.local.cli;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

/**
 * Signs a request for API Gateway ({@code execute-api}) with the default AWS credentials chain. A class of its own so
 * that commands talking to the local runtime never load the SDK.
 */
final class SigV4 {

    private SigV4() {}

    /** The headers a signed request carries (less Host and Content-Length, which the HTTP client sets). */
    static Map<String, String> headers(String method, URI uri, String contentType, String body, String region) {
        SdkHttpRequest.Builder req = SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
        if (contentType != null) {
            req.putHeader("Content-Type", contentType);
        }
        AwsCredentialsIdentity credentials = credentials(uri);
        SignedRequest signed = AwsV4HttpSigner.create()
                .sign(r -> r.identity(credentials)
                        .request(req.build())
                        .payload(body == null ? null : ContentStreamProvider.fromUtf8String(body))
                        .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, "execute-api")
                        .putProperty(AwsV4HttpSigner.REGION_NAME, region));
        Map<String, String> out = new LinkedHashMap<>();
        signed.request().forEachHeader((k, v) -> {
            if (!k.equalsIgnoreCase("host") && !k.equalsIgnoreCase("content-length")) {
                out.put(k, String.join(",", v));
            }
        });
        return out;
    }

    /** The SDK lists every provider it tried; what a person needs is which settings would work. */
    private static AwsCredentialsIdentity credentials(URI uri) {
        try (DefaultCredentialsProvider chain =
                DefaultCredentialsProvider.builder().build()) {
            return chain.resolveCredentials();
        } catch (SdkClientException e) {
            throw new CliFailure(
                    "no AWS credentials to sign requests to " + uri.getScheme() + "://" + uri.getHost()
                            + "\n  set AWS_PROFILE (or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), run 'aws sso login', or pass --no-sigv4"
                            + " for an endpoint that needs no signature",
                    CliFailure.FAILED,
                    e);
        }
    }
}
