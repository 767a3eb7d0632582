package dev.interlock.model.trigger;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import dev.interlock.model.json.Frozen;
import java.util.Map;

/**
 * Starts an AWS Glue job run with templated job arguments and polls it. A run that ends {@code SUCCEEDED} is checked
 * for a lie: an error message on the run, or (unless {@code errorLogCheck} is false) events in its driver's error log
 * ({@value #ERROR_LOG_GROUP}, the run's streams) matching {@code errorLogPattern} (a CloudWatch Logs filter pattern,
 * default {@value #DEFAULT_ERROR_LOG_PATTERN}) make it a {@code FALSE_SUCCESS}.
 */
@JsonDeserialize(using = JsonDeserializer.None.class)
public record GlueTrigger(
        String jobName,
        Map<String, String> arguments,
        @JsonInclude(JsonInclude.Include.NON_NULL) Boolean errorLogCheck,
        @JsonInclude(JsonInclude.Include.NON_NULL) String errorLogPattern)
        implements TriggerConfig {

    /** The log group Glue writes its jobs' stderr (driver and executors) to; one stream per run, named by its id. */
    public static final String ERROR_LOG_GROUP = "/aws-glue/jobs/error";
    /** Events holding the term ERROR or the term FATAL. */
    public static final String DEFAULT_ERROR_LOG_PATTERN = "?ERROR ?FATAL";
    /** CloudWatch Logs' own limit on a filter pattern. */
    public static final int MAX_ERROR_LOG_PATTERN_LENGTH = 1024;

    public GlueTrigger {
        arguments = Frozen.map(arguments);
    }

    public GlueTrigger(String jobName, Map<String, String> arguments) {
        this(jobName, arguments, null, null);
    }

    @Override
    public TriggerType type() {
        return TriggerType.GLUE;
    }

    /** The filter pattern the driver-log check uses; null when the check is off. */
    @JsonIgnore
    public String effectiveErrorLogPattern() {
        if (Boolean.FALSE.equals(errorLogCheck)) {
            return null;
        }
        return errorLogPattern == null || errorLogPattern.isBlank() ? DEFAULT_ERROR_LOG_PATTERN : errorLogPattern;
    }
}
