package dev.interlock.local.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.aws.AwsJson;
import java.io.IOException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Amazon EventBridge's {@code PutEvents} on the local runtime (JSON 1.1, {@code AWSEvents.PutEvents}), into the
 * {@link LocalEventBus}. Unlike AWS it accepts the {@code aws.*} sources: here the job fakes play the AWS services.
 */
public final class EventBridgeApi implements AwsJson.Service {

    private static final int MAX_ENTRIES = 10;

    private final LocalEventBus bus;
    private final Clock clock;

    public EventBridgeApi(LocalEventBus bus, Clock clock) {
        this.bus = bus;
        this.clock = clock;
    }

    @Override
    public String targetPrefix() {
        return "AWSEvents.";
    }

    @Override
    public String contentType() {
        return AwsJson.JSON_1_1;
    }

    @Override
    public Object call(String operation, JsonNode request) {
        if (!operation.equals("PutEvents")) {
            throw AwsJson.Failure.of(
                    "UnknownOperationException",
                    "operation " + operation + " is not supported by the local EventBridge (PutEvents only)");
        }
        JsonNode entries = request.path("Entries");
        if (!entries.isArray() || entries.isEmpty() || entries.size() > MAX_ENTRIES) {
            throw AwsJson.Failure.of("ValidationException", "Entries must hold 1 to " + MAX_ENTRIES + " entries");
        }
        List<Map<String, Object>> results = new ArrayList<>();
        int failed = 0;
        for (JsonNode entry : entries) {
            String problem = problem(entry);
            if (problem != null) {
                failed++;
                results.add(Map.of("ErrorCode", "InvalidArgument", "ErrorMessage", problem));
                continue;
            }
            JsonNode detail;
            try {
                detail = AwsJson.JSON.readTree(entry.get("Detail").asText());
            } catch (IOException e) {
                failed++;
                results.add(Map.of("ErrorCode", "MalformedDetail", "ErrorMessage", "Detail is not valid JSON"));
                continue;
            }
            if (!detail.isObject()) {
                failed++;
                results.add(Map.of("ErrorCode", "MalformedDetail", "ErrorMessage", "Detail must be a JSON object"));
                continue;
            }
            List<String> resources = new ArrayList<>();
            entry.path("Resources").forEach(r -> resources.add(r.asText()));
            Instant time = entry.hasNonNull("Time") ? instant(entry.get("Time")) : clock.instant();
            results.add(Map.of(
                    "EventId",
                    bus.put(
                            entry.get("Source").asText(),
                            entry.get("DetailType").asText(),
                            detail,
                            resources,
                            time)));
        }
        return Map.of("FailedEntryCount", failed, "Entries", results);
    }

    private static String problem(JsonNode entry) {
        for (String field : List.of("Source", "DetailType", "Detail")) {
            if (!entry.hasNonNull(field) || entry.get(field).asText().isBlank()) {
                return "Parameter " + field + " is not valid. Reason: " + field + " is a required argument.";
            }
        }
        return null;
    }

    /** The SDK sends {@code Time} as epoch seconds with a fraction. */
    private static Instant instant(JsonNode time) {
        if (time.isNumber()) {
            return Instant.ofEpochMilli(Math.round(time.asDouble() * 1000));
        }
        return Instant.parse(time.asText());
    }
}
