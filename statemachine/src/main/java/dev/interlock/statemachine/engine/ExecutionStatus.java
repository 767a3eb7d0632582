package dev.interlock.statemachine.engine;

/** The status of an execution, as DescribeExecution and ListExecutions report it. */
public enum ExecutionStatus {
    RUNNING,
    SUCCEEDED,
    FAILED,
    TIMED_OUT,
    ABORTED;

    public boolean isTerminal() {
        return this != RUNNING;
    }
}
