package dev.interlock.local.runtime;

/** A port the local runtime was told to use is taken (another {@code interlock up}, or any other program). */
public final class PortInUseException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The runtime's listening ports and the {@code interlock up} option that moves each. */
    public enum Port {
        API("API", "--api-port"),
        LAMBDA("Lambda/SNS", "--lambda-port"),
        STEP_FUNCTIONS("Step Functions", "--sfn-port"),
        DYNAMODB("DynamoDB", "--dynamodb-port");

        private final String what;
        private final String option;

        Port(String what, String option) {
            this.what = what;
            this.option = option;
        }

        public String option() {
            return option;
        }
    }

    private final Port port;
    private final int number;

    PortInUseException(Port port, int number, Throwable cause) {
        super("port " + number + " (" + port.what + ") is already in use on 127.0.0.1", cause);
        this.port = port;
        this.number = number;
    }

    public Port port() {
        return port;
    }

    public int number() {
        return number;
    }
}
