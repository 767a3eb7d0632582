package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.runtime.ExecutionEndRule;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * {@code executionEnded}: the target of {@link ExecutionEndRule}, invoked by EventBridge with
 * {@code {"action":"executionEnded","payload":{source, detailType, time, detail}}} when one of Interlock's executions
 * ends ABORTED, TIMED_OUT or FAILED. Such an execution may still hold its day's lock (no state runs after an abort or a
 * timeout), which would keep every marker of that day waiting until the lock's TTL. When the ended execution still holds
 * it, the lock is released the way an operator's unlock does it ({@link dev.interlock.store.DeadHolderLocks}: audited, the markers it had
 * absorbed handed on). A job it had started is not started again: the next evaluation of the day adopts the run and
 * follows that job ({@code RUN_ADOPTED}). An end Interlock did not expect (TIMED_OUT, FAILED while holding the lock)
 * also raises the deduplicated {@code EXECUTION_ERROR} alert; an abort is an operator's act and is only recorded
 * ({@link EndedHolders}, shared with the watchdog's {@link HolderCheckDuty}, which releases the lock when this event
 * never came).
 * Releasing is conditional on the owner, so a redelivered event, or one for an execution that released its lock
 * itself, changes nothing.
 */
public final class ExecutionEnded implements Action {

    /** Who the audit names as having released the lock. */
    static final String RELEASED_BY = "interlock (execution end)";

    private static final int MAX_CAUSE = 500;

    /** Request payload: the rule's rendering of the event. */
    record Request(String source, String detailType, String time, JsonNode detail) {}

    /** Payload: whether the ended execution's lock was released, and the successor that took over absorbed work. */
    public record Payload(String executionName, String status, boolean released, String reEmittedExecution) {}

    private final Collaborators c;

    public ExecutionEnded(Collaborators collaborators) {
        this.c = collaborators;
    }

    @Override
    public Outcome run(ActionRequest request) {
        Request r = request.payload(Request.class);
        if (!ExecutionEndRule.SOURCE.equals(r.source()) || !ExecutionEndRule.DETAIL_TYPE.equals(r.detailType())) {
            return Outcome.error(
                    "payload.source/payload.detailType: not a Step Functions execution status change (" + r.source()
                            + " / " + r.detailType() + ")",
                    errorPayload());
        }
        String name = text(r.detail(), "name");
        String status = text(r.detail(), "status");
        if (name == null) {
            return Outcome.error("payload.detail.name is required", errorPayload());
        }
        if (status == null || !ExecutionEndRule.STATUSES.contains(status)) {
            return Outcome.skip(
                    "status " + status + " is not an end after which the lock may still be held",
                    new Payload(name, status == null ? "" : status, false, null));
        }
        Optional<LockKey> found = lockOf(r.detail());
        if (found.isEmpty()) {
            return Outcome.skip(
                    "the execution's input names no pipeline, so it held no lock",
                    new Payload(name, status, false, null));
        }
        LockKey key = found.get();
        ActionRequest about = new ActionRequest(
                request.action(), key.pipelineId(), key.scheduleId(), key.date(), null, name, request.payload());
        Optional<EndedHolders.Released> released = new EndedHolders(c)
                .release(key, name, status, reason(status, r.detail()), RELEASED_BY, false, about.logContext());
        if (released.isEmpty()) {
            return Outcome.skip(
                    "the execution no longer holds the lock of " + key.value(), new Payload(name, status, false, null));
        }
        return Outcome.proceed(new Payload(name, status, true, released.get().successor()));
    }

    /**
     * The lock the execution took: (pipeline, schedule, date) of its input, with the defaults the machine's
     * {@code InitDefaults} applies (schedule {@code daily}, the UTC date of the execution's start).
     */
    private Optional<LockKey> lockOf(JsonNode detail) {
        JsonNode input;
        try {
            String raw = text(detail, "input");
            input = raw == null ? null : InterlockJson.json().readTree(raw);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return Optional.empty();
        }
        String pipelineId = input == null ? null : text(input, "pipelineId");
        if (pipelineId == null) {
            return Optional.empty();
        }
        String scheduleId = Optional.ofNullable(text(input, "scheduleId")).orElse("daily");
        LocalDate date;
        try {
            String given = text(input, "date");
            date = given != null ? LocalDate.parse(given) : LocalDate.ofInstant(startDate(detail), ZoneOffset.UTC);
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
        try {
            return Optional.of(new LockKey(pipelineId, scheduleId, date));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /** Step Functions sends {@code startDate} in epoch milliseconds. */
    private Instant startDate(JsonNode detail) {
        JsonNode start = detail.get("startDate");
        return start != null && start.isNumber() ? Instant.ofEpochMilli(start.asLong()) : c.now();
    }

    private static String reason(String status, JsonNode detail) {
        String error = text(detail, "error");
        String cause = text(detail, "cause");
        String words = error == null ? cause : cause == null ? error : error + ": " + cause;
        String reason = "execution " + status + (words == null ? "" : " (" + words + ")");
        return reason.length() > MAX_CAUSE ? reason.substring(0, MAX_CAUSE) + "…" : reason;
    }

    private static String text(JsonNode node, String field) {
        JsonNode value = node == null ? null : node.get(field);
        return value == null || !value.isValueNode() || value.asText().isBlank()
                ? null
                : value.asText().trim();
    }

    @Override
    public Payload errorPayload() {
        return new Payload("", "", false, null);
    }
}
