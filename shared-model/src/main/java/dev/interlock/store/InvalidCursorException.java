package dev.interlock.store;

/** A page cursor that no listing of this store produced: bad input from the caller (HTTP 400), not a store fault. */
public class InvalidCursorException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public InvalidCursorException(String message) {
        super(message);
    }
}
