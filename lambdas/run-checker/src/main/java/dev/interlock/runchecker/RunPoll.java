package dev.interlock.runchecker;

import dev.interlock.deps.log.LogContext;
import dev.interlock.deps.log.StructuredLog;
import dev.interlock.deps.trigger.RunCheck;
import dev.interlock.deps.trigger.RunCheckRequest;
import dev.interlock.deps.trigger.RunCheckState;
import dev.interlock.deps.trigger.RunChecker;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.store.Provider;
import dev.interlock.store.RunTransition;

import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One poll of a started job (SPEC §8, R§5.2 with its bugs fixed): asks the job system through the outbound run
 * checker and, when the job has finished, moves the run state RUNNING → COMPLETED | FAILED by compare-and-swap with a
 * {@code RUN_STATE_CHANGED} event — so an async run never stays RUNNING forever. A transient failure to check is
 * {@code running} (the next poll retries). Repeating a poll is harmless: a run that is already terminal is left as is.
 */
public final class RunPoll {

    /** Re-reads allowed when a concurrent writer moves the run between our read and our CAS. */
    private static final int MAX_SETTLE_ROUNDS = 3;

    private final Provider provider;
    private final RunChecker checker;
    private final Clock clock;
    private final StructuredLog log;

    public RunPoll(Provider provider, RunChecker checker, Clock clock) {
        this.provider = provider;
        this.checker = checker;
        this.clock = clock;
        this.log = new StructuredLog("run-checker", System.out, clock);
    }

    /**
     * Polls the run's job once.
     *
     * @throws dev.interlock.store.StoreException when the finished run cannot be recorded
     */
    public RunCheckOutput check(RunCheckInput input) {
        LogContext ctx = new LogContext(input.pipelineId(), input.scheduleId(), input.date(), input.runId(), null);
        TriggerType type;
        try {
            type = TriggerType.fromJson(input.triggerType());
        } catch (IllegalArgumentException e) {
            RunCheckOutput out = RunCheckOutput.failed(e.getMessage(), FailureCategory.PERMANENT);
            settle(input, RunStatus.FAILED, out, ctx);
            return out;
        }
        RunCheck check = checker.check(new RunCheckRequest(input.pipelineId(), input.scheduleId(), input.date(),
                input.runId(), type, text(input.metadata()), headers(input.headers())));
        RunCheckOutput out = RunCheckOutput.of(check);
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("triggerType", type.wireName());
        fields.put("state", out.state());
        fields.put("pollCount", input.pollCount());
        log.info(ctx, "run polled", fields);
        if (check.state() == RunCheckState.SUCCEEDED) {
            settle(input, RunStatus.COMPLETED, out, ctx);
        } else if (check.state() == RunCheckState.FAILED) {
            settle(input, RunStatus.FAILED, out, ctx);
        }
        return out;
    }

    /** Moves the run to its terminal status unless another writer already decided it. */
    private void settle(RunCheckInput input, RunStatus target, RunCheckOutput out, LogContext ctx) {
        String runId = input.runId() == null ? "" : input.runId().trim();
        if (runId.isEmpty()) {
            log.warn(ctx, "poll without runId; no run state to record the outcome on", Map.of("state", out.state()));
            return;
        }
        for (int round = 0; round < MAX_SETTLE_ROUNDS; round++) {
            Optional<RunState> current = provider.runs().get(runId);
            if (current.isEmpty()) {
                log.warn(ctx, "run state not found; outcome not recorded on it", Map.of("state", out.state()));
                return;
            }
            RunState run = current.get();
            if (!run.pipelineId().equals(input.pipelineId())) {
                log.warn(ctx, "run belongs to another pipeline; not touched", Map.of("runPipelineId", run.pipelineId()));
                return;
            }
            if (run.status().isTerminal() || !run.status().canMoveTo(target)) {
                // A repeated poll, logResult or an operator got there first: their decision stands.
                return;
            }
            RunState next = run.moveTo(target, clock.instant());
            if (target == RunStatus.FAILED) {
                next = next.withFailure(out.message(), FailureCategory.fromJson(out.failureCategory()));
            }
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("from", run.status().name());
            details.put("to", target.name());
            details.put("version", next.version());
            details.put("pollCount", input.pollCount());
            if (!out.failureCategory().isEmpty()) {
                details.put("failureCategory", out.failureCategory());
            }
            Event event = new Event(EventKind.RUN_STATE_CHANGED, run.pipelineId(), run.scheduleId(), run.date(), runId,
                    null, target.name(), out.message(), details, next.updatedAt());
            if (provider.recordTransition(RunTransition.of(run.version(), next, event)).applied()) {
                return;
            }
        }
        log.warn(ctx, "run state kept changing; outcome left to the other writers", Map.of("state", out.state()));
    }

    /** Header templates without null values (a YAML {@code key:} yields one); names and values are never logged. */
    private static Map<String, String> headers(Map<String, String> headers) {
        Map<String, String> result = new LinkedHashMap<>();
        if (headers != null) {
            headers.forEach((k, v) -> {
                if (k != null && v != null) {
                    result.put(k, v);
                }
            });
        }
        return result;
    }

    /** Metadata values as text: ids may arrive as numbers (a Databricks run id) after a JSON round trip. */
    private static Map<String, String> text(Map<String, Object> metadata) {
        Map<String, String> result = new LinkedHashMap<>();
        if (metadata != null) {
            metadata.forEach((k, v) -> {
                if (k != null && v != null) {
                    result.put(k, String.valueOf(v));
                }
            });
        }
        return result;
    }
}
