package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;

/** The response envelope; all four fields are always written (statemachine/CONTRACT.md §4). */
public record OrchestratorResponse(String action, Result result, String reason, JsonNode payload) {}
