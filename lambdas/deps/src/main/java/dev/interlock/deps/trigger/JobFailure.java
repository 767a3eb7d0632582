package dev.interlock.deps.trigger;

import dev.interlock.deps.outbound.OutboundException;
import dev.interlock.model.run.FailureCategory;
import software.amazon.awssdk.core.exception.SdkException;

/** Why a job could not be started or checked, with the category that decides whether to retry. */
final class JobFailure extends Exception {

    private final FailureCategory category;

    JobFailure(String message, FailureCategory category, Throwable cause) {
        super(message, cause);
        this.category = category;
    }

    FailureCategory category() {
        return category;
    }

    /** A configuration or metadata problem: retrying cannot help. */
    static JobFailure permanent(String message) {
        return new JobFailure(message, FailureCategory.PERMANENT, null);
    }

    static JobFailure of(OutboundException e) {
        return new JobFailure(e.getMessage(), e.category(), e);
    }

    static JobFailure of(String operation, SdkException e) {
        return new JobFailure(AwsFailures.describe(operation, e), AwsFailures.classify(e), e);
    }
}
