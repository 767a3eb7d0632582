package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/** One item of a ListExecutions response. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ExecutionSummary(
        String executionArn,
        String stateMachineArn,
        String name,
        ExecutionStatus status,
        Instant startDate,
        Instant stopDate) {}
