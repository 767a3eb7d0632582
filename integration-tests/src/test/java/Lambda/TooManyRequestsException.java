package Lambda;

/**
 * Stands in for the Lambda service throttling an invocation. The local runtime reports a function's exception with
 * its class name as the error, so this class's name is exactly the error Step Functions sees from a throttled Lambda
 * ({@code Lambda.TooManyRequestsException}) — the one the state machine's Lambda retries exist for.
 */
public final class TooManyRequestsException extends RuntimeException {
    public TooManyRequestsException() {
        super("Rate Exceeded. (injected by the end-to-end test)");
    }
}
