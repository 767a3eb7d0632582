package dev.interlock.streamrouter;

import java.time.LocalDate;

/** The input of one state-machine execution (SPEC §5); every field is always written because Choices read them. */
public record ExecutionInput(String pipelineId, String scheduleId, LocalDate date, String markerSource, boolean replay) {
}
