package dev.interlock.local.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.interlock.local.aws.AwsJson;
import dev.interlock.model.trigger.JobStateRule;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Publishes the job fakes' state changes as AWS does, through EventBridge {@code PutEvents} on the local endpoint,
 * with the service's own {@code source}, {@code detail-type} and {@code detail} shape, so whatever a deployment's
 * rules would see, the local rules see too.
 */
final class JobEvents {

    private final Supplier<EventBridgeClient> eventBridge;

    JobEvents(Supplier<EventBridgeClient> eventBridge) {
        this.eventBridge = eventBridge;
    }

    /** Publishes one event of {@code rule}'s kind; a failure is reported, not thrown (events are best effort on AWS too). */
    void publish(JobStateRule rule, List<String> resources, Map<String, Object> detail, Instant time) {
        String json;
        try {
            json = AwsJson.JSON.writeValueAsString(detail);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("event detail cannot be written as JSON", e);
        }
        try {
            PutEventsResponse response = eventBridge
                    .get()
                    .putEvents(b -> b.entries(e -> e.source(rule.source())
                            .detailType(rule.detailType())
                            .detail(json)
                            .resources(resources)
                            .time(time)));
            if (response.failedEntryCount() != null && response.failedEntryCount() > 0) {
                PutEventsResultEntry failed = response.entries().getFirst();
                System.err.println("job fake event " + rule.detailType() + " not accepted: " + failed.errorCode() + " "
                        + failed.errorMessage());
            }
        } catch (RuntimeException e) {
            System.err.println("job fake event " + rule.detailType() + " not published: " + e);
        }
    }
}
