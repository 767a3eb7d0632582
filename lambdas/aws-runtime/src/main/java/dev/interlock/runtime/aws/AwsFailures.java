package dev.interlock.runtime.aws;

import dev.interlock.model.run.FailureCategory;
import java.io.InterruptedIOException;
import java.net.http.HttpTimeoutException;
import java.util.Set;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.ApiCallAttemptTimeoutException;
import software.amazon.awssdk.core.exception.ApiCallTimeoutException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;

/**
 * Classifies AWS SDK failures by exception type and HTTP status — never by message text: throttling and 5xx are
 * TRANSIENT, other 4xx (validation, access denied, not found) PERMANENT, client-side timeouts TIMEOUT, other
 * client-side (network) failures TRANSIENT.
 */
public final class AwsFailures {

    private AwsFailures() {}

    /** The category of an SDK failure. */
    public static FailureCategory classify(SdkException e) {
        if (e instanceof AwsServiceException service) {
            if (service.isThrottlingException() || service.isClockSkewException() || busy(service)) {
                return FailureCategory.TRANSIENT;
            }
            int status = service.statusCode();
            if (status == 408) {
                return FailureCategory.TIMEOUT;
            }
            return status >= 500 || status == 429 || status == 0
                    ? FailureCategory.TRANSIENT
                    : FailureCategory.PERMANENT;
        }
        if (e instanceof ApiCallTimeoutException || e instanceof ApiCallAttemptTimeoutException) {
            return FailureCategory.TIMEOUT;
        }
        if (e instanceof SdkClientException && timeoutCause(e)) {
            return FailureCategory.TIMEOUT;
        }
        return FailureCategory.TRANSIENT;
    }

    /** A message naming the operation, the service's error code and the status, without request ids. */
    public static String describe(String operation, SdkException e) {
        if (e instanceof AwsServiceException service && service.awsErrorDetails() != null) {
            String code = service.awsErrorDetails().errorCode();
            String message = service.awsErrorDetails().errorMessage();
            return operation + " failed: " + (code == null ? "" : code + ": ") + (message == null ? "" : message)
                    + " (status " + service.statusCode() + ")";
        }
        return operation + " failed: " + e.getClass().getSimpleName()
                + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }

    /**
     * 4xx answers that mean "not now" rather than "never": too many concurrent Glue runs or Step Functions
     * executions, a Lambda function being updated or not yet active.
     */
    private static boolean busy(AwsServiceException e) {
        return e.awsErrorDetails() != null
                && BUSY_ERROR_CODES.contains(e.awsErrorDetails().errorCode());
    }

    /**
     * The services' own error codes for "not now" (Glue ConcurrentRunsExceededException, Step Functions
     * ExecutionLimitExceeded, Lambda ResourceConflictException / ResourceNotReadyException). Matching the typed code
     * rather than the exception class keeps this class free of the service jars, so a function that does not ship
     * Glue or Lambda can still classify its failures.
     */
    public static final Set<String> BUSY_ERROR_CODES = Set.of(
            "ConcurrentRunsExceededException",
            "ExecutionLimitExceeded",
            "ResourceConflictException",
            "ResourceNotReadyException");

    private static boolean timeoutCause(Throwable e) {
        for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
            // SocketTimeoutException is an InterruptedIOException; so is the URL-connection client's read timeout.
            if (c instanceof InterruptedIOException || c instanceof HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
