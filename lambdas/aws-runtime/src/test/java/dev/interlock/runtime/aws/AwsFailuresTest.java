package dev.interlock.runtime.aws;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.FailureCategory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.awscore.exception.AwsErrorDetails;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.glue.model.ConcurrentRunsExceededException;

class AwsFailuresTest {

    private static AwsServiceException service(int status, String code) {
        return AwsServiceException.builder()
                .statusCode(status)
                .awsErrorDetails(AwsErrorDetails.builder()
                        .errorCode(code)
                        .errorMessage("m")
                        .build())
                .build();
    }

    @Test
    void serviceErrorsAreClassifiedByStatusAndType() {
        assertThat(AwsFailures.classify(service(400, "ThrottlingException"))).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(400, "RequestLimitExceeded"))).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(429, "TooManyRequestsException")))
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(500, "InternalFailure"))).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(503, "ServiceUnavailable"))).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(400, "ValidationException"))).isEqualTo(FailureCategory.PERMANENT);
        assertThat(AwsFailures.classify(service(403, "AccessDeniedException"))).isEqualTo(FailureCategory.PERMANENT);
        assertThat(AwsFailures.classify(service(404, "ResourceNotFoundException")))
                .isEqualTo(FailureCategory.PERMANENT);
        assertThat(AwsFailures.classify(service(408, "RequestTimeout"))).isEqualTo(FailureCategory.TIMEOUT);
        // "Not now" 4xx answers, recognised by the service's error code as the SDK parses it from the response.
        assertThat(AwsFailures.classify(ConcurrentRunsExceededException.builder()
                        .statusCode(400)
                        .awsErrorDetails(AwsErrorDetails.builder()
                                .errorCode("ConcurrentRunsExceededException")
                                .build())
                        .build()))
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(400, "ExecutionLimitExceeded"))).isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(409, "ResourceConflictException")))
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(502, "ResourceNotReadyException")))
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(service(400, "ResourceInUseException"))).isEqualTo(FailureCategory.PERMANENT);
    }

    @Test
    void clientSideFailuresAreTimeoutsOnlyWhenATimeoutCausedThem() {
        assertThat(AwsFailures.classify(ApiCallTimeoutException.create(1000))).isEqualTo(FailureCategory.TIMEOUT);
        assertThat(AwsFailures.classify(ApiCallAttemptTimeoutException.create(1000)))
                .isEqualTo(FailureCategory.TIMEOUT);
        assertThat(AwsFailures.classify(SdkClientException.create(
                        "Unable to execute HTTP request",
                        new UncheckedIOException(new SocketTimeoutException("Read timed out")))))
                .isEqualTo(FailureCategory.TIMEOUT);
        assertThat(AwsFailures.classify(SdkClientException.create(
                        "Unable to execute HTTP request", new ConnectException("Connection refused"))))
                .isEqualTo(FailureCategory.TRANSIENT);
        assertThat(AwsFailures.classify(SdkClientException.create(
                        "timeout in the text but not in the type", new IOException("read timeout"))))
                .isEqualTo(FailureCategory.TRANSIENT);
    }

    @Test
    void messagesNameTheOperationCodeAndStatus() {
        assertThat(AwsFailures.describe("glue StartJobRun", service(400, "ValidationException")))
                .isEqualTo("glue StartJobRun failed: ValidationException: m (status 400)");
        assertThat(AwsFailures.describe("sfn DescribeExecution", SdkClientException.create("no network")))
                .isEqualTo("sfn DescribeExecution failed: SdkClientException: no network");
    }
}
