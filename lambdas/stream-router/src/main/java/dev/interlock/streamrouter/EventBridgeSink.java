package dev.interlock.streamrouter;

import io.openlineage.client.OpenLineage;
import io.openlineage.client.OpenLineageClientUtils;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.eventbridge.model.PutEventsRequestEntry;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResponse;
import software.amazon.awssdk.services.eventbridge.model.PutEventsResultEntry;

/**
 * Puts each OpenLineage run event on an EventBridge bus (docs/openlineage.md): one {@code PutEvents} entry, source
 * {@value #SOURCE}, detail-type {@value #DETAIL_TYPE}, detail the RunEvent as the official client serializes it, time
 * the event's. PutEvents answers 200 even when it put nothing, so its {@code FailedEntryCount} is checked: an entry
 * refused for throttling or an internal failure was not put, so putting it again cannot duplicate it, and it is tried
 * up to {@value #ATTEMPTS} times; any other refusal (access denied, a bus that does not exist) is final. A request that
 * failed as a whole is retried by the SDK's own policy. Whatever stays unsent throws, with EventBridge's error code and
 * message, for {@link LineageEmitter} to record.
 */
final class EventBridgeSink implements LineageEmitter.Sink {

    static final String SOURCE = "interlock.openlineage";
    static final String DETAIL_TYPE = "OpenLineage RunEvent";

    /** Entry error codes for which the entry was not put and a later try may pass. */
    private static final Set<String> RETRYABLE = Set.of("ThrottlingException", "InternalFailure", "InternalException");

    private static final int ATTEMPTS = 3;

    /** Waits between tries of a refused entry. */
    @FunctionalInterface
    interface Pause {
        void pause(Duration duration);

        Pause SLEEP = duration -> {
            try {
                Thread.sleep(duration);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting to put the OpenLineage event again", e);
            }
        };
    }

    private final Supplier<EventBridgeClient> client;
    private final String bus;
    private final Pause pause;

    /**
     * @param client the shared EventBridge client (created on first send)
     * @param bus the bus's name or ARN
     */
    EventBridgeSink(Supplier<EventBridgeClient> client, String bus, Pause pause) {
        this.client = client;
        this.bus = bus;
        this.pause = pause;
    }

    @Override
    public void send(OpenLineage.RunEvent event) {
        PutEventsRequestEntry entry = PutEventsRequestEntry.builder()
                .eventBusName(bus)
                .source(SOURCE)
                .detailType(DETAIL_TYPE)
                .detail(OpenLineageClientUtils.toJson(event))
                .time(event.getEventTime() == null ? null : event.getEventTime().toInstant())
                .build();
        for (int attempt = 1; ; attempt++) {
            PutEventsResponse response = client.get().putEvents(r -> r.entries(entry));
            if (response.failedEntryCount() == null || response.failedEntryCount() == 0) {
                return;
            }
            PutEventsResultEntry result =
                    response.hasEntries() && !response.entries().isEmpty()
                            ? response.entries().getFirst()
                            : null;
            String code = result == null || result.errorCode() == null ? "unknown" : result.errorCode();
            String message = result == null || result.errorMessage() == null ? "" : ": " + result.errorMessage();
            boolean retryable = RETRYABLE.contains(code);
            if (!retryable || attempt == ATTEMPTS) {
                throw new IllegalStateException("EventBridge bus " + bus + " did not take the event: " + code + message
                        + (retryable ? " (" + ATTEMPTS + " attempts)" : ""));
            }
            pause.pause(Duration.ofMillis(100L * attempt));
        }
    }
}
