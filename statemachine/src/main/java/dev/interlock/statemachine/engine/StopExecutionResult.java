package dev.interlock.statemachine.engine;

import java.time.Instant;

/** The StopExecution response. */
public record StopExecutionResult(Instant stopDate) {}
