package dev.interlock.store;

/**
 * An infrastructure fault of the store (unreachable, throttled past the retry budget, a corrupt item):
 * never a domain outcome. The message names the operation and the key it concerns.
 */
public class StoreException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
