package dev.interlock.statemachine.engine;

/** The GetExecutionHistory event types this engine records, with the field and type of each one's details. */
public enum HistoryEventType {
    ExecutionStarted("executionStartedEventDetails", EventDetails.ExecutionStarted.class),
    ExecutionSucceeded("executionSucceededEventDetails", EventDetails.ExecutionSucceeded.class),
    ExecutionFailed("executionFailedEventDetails", EventDetails.Failure.class),
    ExecutionAborted("executionAbortedEventDetails", EventDetails.Failure.class),
    ExecutionTimedOut("executionTimedOutEventDetails", EventDetails.Failure.class),
    PassStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    PassStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    TaskStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    TaskStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    ChoiceStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    ChoiceStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    WaitStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    WaitStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    SucceedStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    SucceedStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    FailStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    MapStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    MapStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    ParallelStateEntered("stateEnteredEventDetails", EventDetails.StateEntered.class),
    ParallelStateExited("stateExitedEventDetails", EventDetails.StateExited.class),
    TaskScheduled("taskScheduledEventDetails", EventDetails.TaskScheduled.class),
    TaskStarted("taskStartedEventDetails", EventDetails.TaskStarted.class),
    TaskSubmitted("taskSubmittedEventDetails", EventDetails.TaskSucceeded.class),
    TaskSucceeded("taskSucceededEventDetails", EventDetails.TaskSucceeded.class),
    TaskFailed("taskFailedEventDetails", EventDetails.TaskError.class),
    TaskTimedOut("taskTimedOutEventDetails", EventDetails.TaskError.class),
    LambdaFunctionScheduled("lambdaFunctionScheduledEventDetails", EventDetails.LambdaFunctionScheduled.class),
    LambdaFunctionStarted(null, null),
    LambdaFunctionSucceeded("lambdaFunctionSucceededEventDetails", EventDetails.LambdaFunctionSucceeded.class),
    LambdaFunctionFailed("lambdaFunctionFailedEventDetails", EventDetails.Failure.class),
    LambdaFunctionTimedOut("lambdaFunctionTimedOutEventDetails", EventDetails.Failure.class),
    MapStateStarted("mapStateStartedEventDetails", EventDetails.MapStateStarted.class),
    MapStateSucceeded(null, null),
    MapStateFailed(null, null),
    MapStateAborted(null, null),
    MapIterationStarted("mapIterationStartedEventDetails", EventDetails.MapIteration.class),
    MapIterationSucceeded("mapIterationSucceededEventDetails", EventDetails.MapIteration.class),
    MapIterationFailed("mapIterationFailedEventDetails", EventDetails.MapIteration.class),
    MapIterationAborted("mapIterationAbortedEventDetails", EventDetails.MapIteration.class),
    ParallelStateStarted(null, null),
    ParallelStateSucceeded(null, null),
    ParallelStateFailed(null, null),
    ParallelStateAborted(null, null);

    private final String detailsField;
    private final Class<? extends EventDetails> detailsType;

    HistoryEventType(String detailsField, Class<? extends EventDetails> detailsType) {
        this.detailsField = detailsField;
        this.detailsType = detailsType;
    }

    /** The JSON field carrying this event's details; null for events without details. */
    public String detailsField() {
        return detailsField;
    }

    public Class<? extends EventDetails> detailsType() {
        return detailsType;
    }

    /** The {@code <Type>StateEntered} event of an ASL state type. */
    static HistoryEventType entered(String stateType) {
        return valueOf(stateType + "StateEntered");
    }

    /** The {@code <Type>StateExited} event of an ASL state type. */
    static HistoryEventType exited(String stateType) {
        return valueOf(stateType + "StateExited");
    }
}
