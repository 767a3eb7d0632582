package dev.interlock.wiring.alert;

import dev.interlock.model.alert.Alert;
import dev.interlock.model.json.InterlockJson;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.sns.SnsClient;

/**
 * Publishes alerts to the SNS topic: the body is the alert JSON of docs/operations.md, the subject {@code [<level>] <kind>
 * <pipelineId>} made safe for SNS (printable ASCII, no line breaks, at most 100 characters).
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
                            .message(body));
        } catch (SdkException e) {
            throw new AlertDeliveryException(
                    "publishing " + alert.kind() + " alert for " + alert.pipelineId() + " to " + topicArn + " failed",
                    e);
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
