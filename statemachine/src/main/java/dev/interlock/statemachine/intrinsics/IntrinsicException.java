package dev.interlock.statemachine.intrinsics;

/** An intrinsic function call that does not parse or fails on its arguments. */
public final class IntrinsicException extends RuntimeException {

    public IntrinsicException(String message) {
        super(message);
    }
}
