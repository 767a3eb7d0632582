package dev.interlock.local.cli;

import picocli.CommandLine.Option;

/** Where the commands that talk to a running Interlock send their requests. */
final class ApiOptions {

    @Option(
            names = "--endpoint",
            defaultValue = "${INTERLOCK_ENDPOINT:-http://127.0.0.1:8080}",
            description = "API URL: the local runtime (default ${DEFAULT-VALUE}) or the deployed API Gateway URL.")
    String endpoint;

    @Option(
            names = "--sigv4",
            negatable = true,
            description = "Sign requests with SigV4 (default: on for https endpoints, off otherwise).")
    Boolean sigv4;

    @Option(
            names = "--region",
            defaultValue = "${AWS_REGION:-us-east-1}",
            description = "Region for SigV4 signing (default ${DEFAULT-VALUE}).")
    String region;

    ApiClient client() {
        return ApiClient.forEndpoint(endpoint, sigv4, region);
    }
}
