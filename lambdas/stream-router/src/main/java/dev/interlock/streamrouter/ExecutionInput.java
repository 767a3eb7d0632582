package dev.interlock.streamrouter;

import java.time.LocalDate;

/** The input of one state-machine execution (statemachine/CONTRACT.md §2); every field is always written because Choices read them. */
public record ExecutionInput(
        String pipelineId, String scheduleId, LocalDate date, String markerSource, boolean replay) {}
