package dev.interlock.runtime.outbound;

import dev.interlock.model.run.FailureCategory;

/**
 * Why an outbound call did not produce a usable answer, as a closed set of types that each carry their failure
 * category — callers switch on the type, never on the message.
 */
public abstract sealed class OutboundException extends Exception
        permits OutboundException.Refused,
                OutboundException.Status,
                OutboundException.TimedOut,
                OutboundException.Network,
                OutboundException.InvalidResponse,
                OutboundException.CredentialUnavailable {

    private OutboundException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The failure category this kind of failure maps to. */
    public abstract FailureCategory category();

    /**
     * The target or the request is unacceptable — refused by the URL guard, a malformed header, a TLS certificate
     * that does not match the name: retrying cannot help.
     */
    public static final class Refused extends OutboundException {
        public Refused(String message) {
            super(message, null);
        }

        @Override
        public FailureCategory category() {
            return FailureCategory.PERMANENT;
        }
    }

    /** The server answered with a non-success status (after any retries the budget allowed). */
    public static final class Status extends OutboundException {
        private final OutboundResponse response;

        public Status(String message, OutboundResponse response) {
            super(message, null);
            this.response = response;
        }

        /** The final response. */
        public OutboundResponse response() {
            return response;
        }

        /** 4xx is the caller's fault (PERMANENT) except 408 and 429; 5xx and those two are TRANSIENT. */
        @Override
        public FailureCategory category() {
            int code = response.status();
            if (code == 408 || code == 429 || code >= 500) {
                return FailureCategory.TRANSIENT;
            }
            return FailureCategory.PERMANENT;
        }
    }

    /** The call (or its connect) exceeded its timeout. */
    public static final class TimedOut extends OutboundException {
        public TimedOut(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public FailureCategory category() {
            return FailureCategory.TIMEOUT;
        }
    }

    /** The network failed: unresolvable host, refused or reset connection, interrupted call. */
    public static final class Network extends OutboundException {
        public Network(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public FailureCategory category() {
            return FailureCategory.TRANSIENT;
        }
    }

    /** A success status whose body is not what the protocol promises (not JSON, a required field missing). */
    public static final class InvalidResponse extends OutboundException {
        public InvalidResponse(String message, Throwable cause) {
            super(message, cause);
        }

        @Override
        public FailureCategory category() {
            return FailureCategory.TRANSIENT;
        }
    }

    /**
     * A credential the request needs could not be read (a missing or unreadable secret or parameter: PERMANENT;
     * throttling or a network failure on the way to Secrets Manager or SSM: TRANSIENT). The message names the
     * reference, never a value.
     */
    public static final class CredentialUnavailable extends OutboundException {
        private final FailureCategory category;

        public CredentialUnavailable(String message, FailureCategory category, Throwable cause) {
            super(message, cause);
            this.category = category;
        }

        @Override
        public FailureCategory category() {
            return category;
        }
    }
}
