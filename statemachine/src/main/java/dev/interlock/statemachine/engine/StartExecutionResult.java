package dev.interlock.statemachine.engine;

import java.time.Instant;

/** The StartExecution response. */
public record StartExecutionResult(String executionArn, Instant startDate) {}
