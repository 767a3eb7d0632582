package dev.interlock.wiring.alert;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.json.InterlockJson;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sns.SnsClient;
import software.amazon.awssdk.services.sns.model.MessageAttributeValue;

/**
 * Publishes alerts to the SNS topic: the body is the alert JSON of docs/operations.md, the subject {@code [<level>] <kind>
 * <pipelineId>} made safe for SNS (printable ASCII, no line breaks, at most 100 characters), and the message attributes
 * {@code team}, {@code severity}, {@code kind} and {@code pipeline} ({@link #attributes}), so a subscription's filter
 * policy can take one team's alerts, or only the errors.
 */
public final class SnsAlertPublisher implements AlertPublisher {

    private final Supplier<SnsClient> sns;
    private final String topicArn;

    /** The client is supplied lazily so a function that never alerts never creates it. */
    public SnsAlertPublisher(Supplier<SnsClient> sns, String topicArn) {
        this.sns = sns;
        this.topicArn = topicArn;
    }

    @Override
    public void publish(Alert alert) {
        String body = InterlockJson.write(alert);
        try {
            sns.get()
                    .publish(b -> b.topicArn(topicArn)
                            .subject(safeSubject(alert.subject()))
                            .message(body)
                            .messageAttributes(attributes(alert)));
        } catch (SdkException e) {
            throw new AlertDeliveryException(
                    "publishing " + alert.kind() + " alert for " + alert.pipelineId() + " to " + topicArn + " failed",
                    e);
        }
    }

    /** The message attribute names a subscription filter policy can match (docs/operations.md). */
    static final String TEAM = "team";

    static final String SEVERITY = "severity";
    static final String KIND = "kind";
    static final String PIPELINE = "pipeline";

    /**
     * The alert's routing as SNS String message attributes; one without a value is left out (SNS refuses an empty
     * one), so a filter on {@code team} never matches a pipeline that names no team.
     */
    static Map<String, MessageAttributeValue> attributes(Alert alert) {
        Map<String, MessageAttributeValue> attributes = new LinkedHashMap<>();
        put(attributes, TEAM, alert.team());
        put(attributes, SEVERITY, alert.level() == null ? null : alert.level().wireName());
        put(attributes, KIND, alert.kind() == null ? null : alert.kind().wireName());
        put(attributes, PIPELINE, alert.pipelineId());
        return attributes;
    }

    private static void put(Map<String, MessageAttributeValue> attributes, String name, String value) {
        if (value != null && !value.isBlank()) {
            attributes.put(
                    name,
                    MessageAttributeValue.builder()
                            .dataType("String")
                            .stringValue(value)
                            .build());
        }
    }

    /** SNS rejects subjects with control or non-ASCII characters; replace them rather than lose the alert. */
    static String safeSubject(String subject) {
        StringBuilder b = new StringBuilder(subject.length());
        for (char c : subject.toCharArray()) {
            b.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        String s = b.toString().strip();
        return s.length() <= Alert.MAX_SUBJECT_LENGTH ? s : s.substring(0, Alert.MAX_SUBJECT_LENGTH);
    }
}
