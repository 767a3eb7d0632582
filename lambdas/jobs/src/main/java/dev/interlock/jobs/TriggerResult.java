package dev.interlock.jobs;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.run.FailureCategory;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What starting a job gave: its status, the provider ids the run checker needs ({@code glue_job_run_id}, …), on
 * failure the reason and its category, and for a resumed start what it found of an earlier attempt's start (null
 * otherwise).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TriggerResult(
        TriggerStatus status,
        Map<String, String> metadata,
        String error,
        FailureCategory failureCategory,
        EarlierStart earlierStart) {

    /** A result that says nothing of an earlier start (a first start, or a type that cannot find one). */
    public TriggerResult(TriggerStatus status, Map<String, String> metadata, String error, FailureCategory category) {
        this(status, metadata, error, category, null);
    }

    public TriggerResult {
        Objects.requireNonNull(status, "status");
        metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata == null ? Map.of() : metadata));
        if (status == TriggerStatus.FAILED) {
            Objects.requireNonNull(error, "a failed trigger names its error");
            failureCategory = failureCategory == null ? FailureCategory.TRANSIENT : failureCategory;
        }
    }

    /** An asynchronous job that was started and is polled next. */
    public static TriggerResult running(Map<String, String> metadata) {
        return new TriggerResult(TriggerStatus.RUNNING, metadata, null, null);
    }

    /** A synchronous job that finished inside the trigger call. */
    public static TriggerResult completed(Map<String, String> metadata) {
        return new TriggerResult(TriggerStatus.COMPLETED, metadata, null, null);
    }

    /** The job could not be started. */
    public static TriggerResult failed(String error, FailureCategory category) {
        return new TriggerResult(TriggerStatus.FAILED, Map.of(), error, category);
    }

    /** This result with what a resumed start found of an earlier attempt's start. */
    public TriggerResult withEarlierStart(EarlierStart earlier) {
        return new TriggerResult(status, metadata, error, failureCategory, earlier);
    }
}
