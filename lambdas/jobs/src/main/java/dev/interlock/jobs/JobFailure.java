package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.runtime.aws.AwsFailures;
import dev.interlock.runtime.outbound.OutboundException;
import dev.interlock.runtime.outbound.OutboundTemplates;
import java.util.function.Supplier;
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

    /** Runs one SDK call, turning its failure into a classified failure. */
    static <T> T aws(String operation, Supplier<T> call) throws JobFailure {
        try {
            return call.get();
        } catch (SdkException e) {
            throw of(operation, e);
        }
    }

    /**
     * This failure with the credential values of {@code rendering} masked in its message (a server may echo a header
     * back in its error body); the cause is dropped, as its message holds the same text unmasked.
     */
    JobFailure scrubbed(OutboundTemplates.Rendering rendering) {
        String message = rendering.scrub(getMessage());
        return message.equals(getMessage()) ? this : new JobFailure(message, category, null);
    }
}
