package dev.interlock.local.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.statemachine.engine.EngineClock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * CloudWatch Logs on the local runtime (JSON 1.1, {@code Logs_20140328.*}): {@code FilterLogEvents} on the Glue job
 * fakes' error log group ({@value GlueTrigger#ERROR_LOG_GROUP}), so the run-checker's driver-log check runs through the
 * real SDK client. The group holds what the runs given {@code --fake-log-errors} wrote ({@link GlueJobs#errorLog()});
 * any other group does not exist. Filter patterns: the term forms ({@code ERROR}, {@code "a phrase"}, {@code ?ERROR
 * ?FATAL} for any of them, {@code -term} for none of it; terms are case-sensitive); JSON and space-delimited patterns
 * are refused by name.
 */
public final class GlueLogs implements AwsJson.Service {

    private static final int DEFAULT_LIMIT = 10_000;

    private final GlueJobs glue;
    private final EngineClock clock;

    GlueLogs(GlueJobs glue, EngineClock clock) {
        this.glue = glue;
        this.clock = clock;
    }

    @Override
    public String targetPrefix() {
        return "Logs_20140328.";
    }

    @Override
    public String contentType() {
        return AwsJson.JSON_1_1;
    }

    @Override
    public Object call(String operation, JsonNode request) {
        if (!operation.equals("FilterLogEvents")) {
            throw AwsJson.Failure.of(
                    "UnknownOperationException",
                    "operation " + operation + " is not supported by the local CloudWatch Logs endpoint");
        }
        return filter(request);
    }

    private Map<String, Object> filter(JsonNode request) {
        String group = request.path("logGroupName")
                .asText(request.path("logGroupIdentifier").asText(""));
        if (group.isEmpty()) {
            throw AwsJson.Failure.of("InvalidParameterException", "logGroupName or logGroupIdentifier is required");
        }
        if (!group.equals(GlueTrigger.ERROR_LOG_GROUP)) {
            throw AwsJson.Failure.of("ResourceNotFoundException", "The specified log group does not exist.");
        }
        Pattern pattern = Pattern.parse(request.path("filterPattern").asText(""));
        String prefix = request.path("logStreamNamePrefix").asText("");
        List<String> names = new ArrayList<>();
        request.path("logStreamNames").forEach(n -> names.add(n.asText()));
        long start = request.path("startTime").asLong(Long.MIN_VALUE);
        long end = request.path("endTime").asLong(Long.MAX_VALUE);
        int limit = request.path("limit").asInt(DEFAULT_LIMIT);
        if (limit < 1 || limit > DEFAULT_LIMIT) {
            throw AwsJson.Failure.of("InvalidParameterException", "limit must be between 1 and " + DEFAULT_LIMIT);
        }
        int offset = offset(request.path("nextToken").asText(""));
        long ingested = clock.now().toEpochMilli();
        List<Map<String, Object>> matching = new ArrayList<>();
        int seen = 0;
        for (GlueJobs.LogLine line : glue.errorLog()) {
            long at = line.timestamp().toEpochMilli();
            if (!line.stream().startsWith(prefix)
                    || (!names.isEmpty() && !names.contains(line.stream()))
                    || at < start
                    || at > end
                    || !pattern.matches(line.message())) {
                continue;
            }
            if (seen++ < offset) {
                continue;
            }
            if (matching.size() == limit) {
                Map<String, Object> out = new LinkedHashMap<>();
                out.put("events", matching);
                out.put("nextToken", "o" + (offset + limit));
                return out;
            }
            Map<String, Object> event = new LinkedHashMap<>();
            event.put("logStreamName", line.stream());
            event.put("timestamp", at);
            event.put("message", line.message());
            event.put("ingestionTime", Math.max(at, ingested));
            event.put("eventId", line.stream() + "-" + at);
            matching.add(event);
        }
        return Map.of("events", matching, "searchedLogStreams", List.of());
    }

    private static int offset(String token) {
        if (token.isEmpty()) {
            return 0;
        }
        try {
            return Integer.parseInt(token.substring(1));
        } catch (RuntimeException e) {
            throw AwsJson.Failure.of("InvalidParameterException", "The specified nextToken is invalid.");
        }
    }

    /** The term forms of a CloudWatch Logs filter pattern. */
    record Pattern(List<String> all, List<String> any, List<String> none) {

        static Pattern parse(String text) {
            String t = text.strip();
            if (t.startsWith("{") || t.startsWith("[")) {
                throw AwsJson.Failure.of(
                        "InvalidParameterException",
                        "filterPattern: JSON and space-delimited patterns are not supported by the local endpoint; "
                                + "use terms (ERROR, \"a phrase\", ?ERROR ?FATAL, -term)");
            }
            List<String> all = new ArrayList<>();
            List<String> any = new ArrayList<>();
            List<String> none = new ArrayList<>();
            int i = 0;
            while (i < t.length()) {
                if (Character.isWhitespace(t.charAt(i))) {
                    i++;
                    continue;
                }
                List<String> into = all;
                if (t.charAt(i) == '?') {
                    into = any;
                    i++;
                } else if (t.charAt(i) == '-') {
                    into = none;
                    i++;
                }
                StringBuilder term = new StringBuilder();
                if (i < t.length() && t.charAt(i) == '"') {
                    i++;
                    while (i < t.length() && t.charAt(i) != '"') {
                        term.append(t.charAt(i++));
                    }
                    i++;
                } else {
                    while (i < t.length() && !Character.isWhitespace(t.charAt(i))) {
                        term.append(t.charAt(i++));
                    }
                }
                if (!term.isEmpty()) {
                    into.add(term.toString());
                }
            }
            return new Pattern(all, any, none);
        }

        boolean matches(String message) {
            return all.stream().allMatch(message::contains)
                    && none.stream().noneMatch(message::contains)
                    && (any.isEmpty() || any.stream().anyMatch(message::contains));
        }
    }
}
