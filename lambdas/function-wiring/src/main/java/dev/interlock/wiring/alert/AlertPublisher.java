package dev.interlock.wiring.alert;

import dev.interlock.model.alert.Alert;

/** Sends an alert to operators (the SNS topic on AWS, the local alert sink on one machine). */
@FunctionalInterface
public interface AlertPublisher {

    /** Publishes the alert; throws {@link AlertDeliveryException} when it could not be delivered. */
    void publish(Alert alert);

    /** The alert could not be delivered; the caller decides whether that fails its operation. */
    final class AlertDeliveryException extends RuntimeException {
        public AlertDeliveryException(String message, Throwable cause) {
            super(message, cause);
        }
    }
}
