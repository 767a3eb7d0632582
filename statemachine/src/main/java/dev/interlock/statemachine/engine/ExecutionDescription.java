package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** The DescribeExecution response; input and output are JSON text as AWS returns them. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExecutionDescription(
        String executionArn,
        String stateMachineArn,
        String name,
        ExecutionStatus status,
        Instant startDate,
        Instant stopDate,
        String input,
        String output,
        String error,
        String cause) {

    /** The ListExecutions view of this execution. */
    public ExecutionSummary summary() {
        return new ExecutionSummary(executionArn, stateMachineArn, name, status, startDate, stopDate);
    }
}
