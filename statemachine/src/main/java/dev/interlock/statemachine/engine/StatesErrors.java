package dev.interlock.statemachine.engine;

/** Error names defined by the Amazon States Language that this engine raises or matches. */
public final class StatesErrors {

    public static final String ALL = "States.ALL";
    public static final String TASK_FAILED = "States.TaskFailed";
    public static final String TIMEOUT = "States.Timeout";
    public static final String HEARTBEAT_TIMEOUT = "States.HeartbeatTimeout";
    public static final String RUNTIME = "States.Runtime";
    public static final String BRANCH_FAILED = "States.BranchFailed";
    public static final String NO_CHOICE_MATCHED = "States.NoChoiceMatched";
    public static final String INTRINSIC_FAILURE = "States.IntrinsicFailure";

    private StatesErrors() {}
}
