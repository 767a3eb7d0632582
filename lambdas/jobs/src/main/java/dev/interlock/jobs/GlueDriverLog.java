package dev.interlock.jobs;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.runtime.aws.AwsClients;
import java.util.function.Supplier;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilterLogEventsResponse;
import software.amazon.awssdk.services.cloudwatchlogs.model.FilteredLogEvent;
import software.amazon.awssdk.services.cloudwatchlogs.model.ResourceNotFoundException;

/**
 * The driver-log check of a Glue run that ended {@code SUCCEEDED}: {@code FilterLogEvents} on
 * {@value GlueTrigger#ERROR_LOG_GROUP} over the run's streams (named by its job run id) with the pipeline's filter
 * pattern. A matching event makes the run a {@code FALSE_SUCCESS}; no log group (the job wrote no stderr) or no match
 * leaves the success standing. Only the run-checker checks (its role alone may read the group); the client is created
 * on the first check.
 */
final class GlueDriverLog {

    /**
     * Pages read at most: CloudWatch Logs searches a bounded slice per call and may answer an empty page with a next
     * token, so a match late in a long log takes a few pages; past this the success stands (and the log says so).
     */
    static final int MAX_PAGES = 20;
    /** How much of the first matching line the failure message quotes. */
    private static final int QUOTE_LENGTH = 300;

    private final Supplier<CloudWatchLogsClient> logs;

    GlueDriverLog(Supplier<CloudWatchLogsClient> logs) {
        this.logs = logs;
    }

    /** Over a function's lazy clients, naming no service class until the first check (the trigger's jar has none). */
    static GlueDriverLog of(AwsClients aws) {
        return new GlueDriverLog(new LazyLogs(aws));
    }

    /** A named supplier rather than {@code aws::logs}: nothing links the CloudWatch Logs classes before a check. */
    private record LazyLogs(AwsClients aws) implements Supplier<CloudWatchLogsClient> {
        @Override
        public CloudWatchLogsClient get() {
            return aws.logs();
        }
    }

    /**
     * The lie the run's driver log tells, or null when it tells none.
     *
     * @throws JobFailure when the log could not be read (a missing grant: PERMANENT; throttling: TRANSIENT)
     */
    RunCheck check(String jobRunId, String pattern) throws JobFailure {
        String token = null;
        for (int page = 0; page < MAX_PAGES; page++) {
            String next = token;
            FilterLogEventsResponse response;
            try {
                response = JobFailure.aws(
                        "logs FilterLogEvents on " + GlueTrigger.ERROR_LOG_GROUP,
                        () -> logs.get()
                                .filterLogEvents(r -> r.logGroupName(GlueTrigger.ERROR_LOG_GROUP)
                                        .logStreamNamePrefix(jobRunId)
                                        .filterPattern(pattern)
                                        .limit(1)
                                        .nextToken(next)));
            } catch (JobFailure e) {
                if (e.getCause() instanceof ResourceNotFoundException) {
                    return null;
                }
                throw e;
            }
            if (response.hasEvents() && !response.events().isEmpty()) {
                FilteredLogEvent first = response.events().getFirst();
                return RunCheck.failed(
                        "glue job run " + jobRunId + " ended SUCCEEDED, but its driver log ("
                                + GlueTrigger.ERROR_LOG_GROUP + ") holds lines matching '" + pattern + "': "
                                + quote(first.message()),
                        FailureCategory.FALSE_SUCCESS);
            }
            token = response.nextToken();
            if (token == null || token.isBlank()) {
                return null;
            }
        }
        return null;
    }

    private static String quote(String line) {
        String text = line == null ? "" : line.strip();
        return text.length() <= QUOTE_LENGTH ? text : text.substring(0, QUOTE_LENGTH) + "…";
    }
}
