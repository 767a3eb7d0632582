package dev.interlock.local.aws;

/** The fake account, region and ARNs the local runtime uses; the functions only ever pass them through. */
public final class LocalArns {

    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "000000000000";

    private LocalArns() {}

    public static String function(String name) {
        return "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:" + name;
    }

    public static String stateMachine(String name) {
        return "arn:aws:states:" + REGION + ":" + ACCOUNT + ":stateMachine:" + name;
    }

    public static String execution(String stateMachineName, String executionName) {
        return "arn:aws:states:" + REGION + ":" + ACCOUNT + ":execution:" + stateMachineName + ":" + executionName;
    }

    public static String topic(String name) {
        return "arn:aws:sns:" + REGION + ":" + ACCOUNT + ":" + name;
    }

    /** The function name of a function ARN, a partial ARN or a plain name (as Lambda's Invoke accepts all three). */
    public static String functionName(String nameOrArn) {
        String s = nameOrArn;
        int fn = s.indexOf(":function:");
        if (fn >= 0) {
            s = s.substring(fn + ":function:".length());
        }
        int qualifier = s.indexOf(':');
        return qualifier >= 0 ? s.substring(0, qualifier) : s;
    }
}
