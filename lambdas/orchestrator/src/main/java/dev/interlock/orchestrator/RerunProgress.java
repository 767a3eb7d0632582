package dev.interlock.orchestrator;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.rerun.RerunStatus;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.workflow.AttemptLedger;
import dev.interlock.store.RunLogKey;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Keeps the status of the rerun an execution serves true, from what the execution's actions answer: the one place
 * that maps the workflow onto PENDING → STARTED → COMPLETED | FAILED | SKIPPED (statemachine/CONTRACT.md §4, "Reruns").
 * A rerun records the execution its replay marker starts, so an action finds its rerun by its {@code executionName}
 * and the state machine passes only {@code replay} (only a replay serves a rerun, so other executions skip the lookup).
 * Every move is conditional ({@code Provider.moveRerun}) and writes its
 * event in the same transaction, so a repeated action (a Lambda retry) or a re-delivered marker moves nothing twice;
 * a FAILED rerun also alerts {@code RERUN_FAILED} (deduplicated like every alert).
 */
final class RerunProgress {

    private final Collaborators collaborators;
    private final BackfillProgress backfills;

    RerunProgress(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.backfills = new BackfillProgress(collaborators);
    }

    /** Moves the rerun {@code request}'s execution serves, if any, by what {@code outcome} says happened. */
    void after(ActionRequest request, Outcome outcome) {
        if (request.executionName() == null || request.pipelineId() == null) {
            return;
        }
        switch (request.action()) {
            case CHECK_EXCLUSION -> {
                if (outcome.result() == Result.SKIP) {
                    move(request, RerunStatus.SKIPPED, outcome.reason());
                }
            }
            case ACQUIRE_LOCK -> {
                // A replay meeting a held lock waits for it or hands itself over (Successors passes the rerun on);
                // only an absorbed marker ends here, and a replay is never absorbed.
                if (outcome.result() == Result.ERROR) {
                    move(request, RerunStatus.FAILED, outcome.reason());
                } else if (outcome.payload() instanceof AcquireLock.Payload p && p.absorbed()) {
                    move(request, RerunStatus.SKIPPED, outcome.reason());
                }
            }
            case CHECK_RUN_LOG -> {
                // Only a replay marker serves a rerun: other evaluations need no lookup.
                // A skip for a backoff is a wait: the machine asks again once it has passed.
                boolean waits = outcome.payload() instanceof CheckRunLog.Payload p && p.retryAfterSeconds() > 0;
                if (request.payload(CheckRunLog.Request.class).isReplay() && !waits) {
                    move(
                            request,
                            switch (outcome.result()) {
                                case PROCEED -> RerunStatus.STARTED;
                                case SKIP -> RerunStatus.SKIPPED;
                                case ERROR -> RerunStatus.FAILED;
                            },
                            outcome.reason());
                }
            }
            case RESOLVE_PIPELINE -> {
                if (outcome.result() == Result.ERROR) {
                    move(request, RerunStatus.FAILED, outcome.reason());
                }
            }
            case CHECK_READINESS -> {
                if (outcome.payload() instanceof CheckReadiness.Payload p && p.ready() && p.dryRun()) {
                    move(request, RerunStatus.SKIPPED, "dry run: ready, and a dry-run pipeline never triggers");
                }
            }
            case LOG_RESULT -> {
                if (outcome.result() == Result.PROCEED
                        && outcome.payload() instanceof LogResult.Payload p
                        && mayServeRerun(request)) {
                    if (p.status().equals(RerunStatus.COMPLETED.wireName())) {
                        move(request, RerunStatus.COMPLETED, "");
                    } else if (!p.retryable()) {
                        LogResult.Request body = request.payload(LogResult.Request.class);
                        String message =
                                body.message() == null || body.message().isBlank() ? "run failed" : body.message();
                        move(
                                request,
                                RerunStatus.FAILED,
                                FailureCategory.fromJson(body.failureCategory()).wireName() + ": " + message);
                    }
                }
            }
            case RELEASE_LOCK -> {
                if (mayServeRerun(request)) {
                    settle(request);
                    // The day's lock is free now: a backfill it belongs to may start its next day.
                    backfills.after(find(request), request.logContext());
                }
            }
            default -> {}
        }
    }

    /** The {@code replay} flag the machine passes to {@code logResult} and {@code releaseLock}. */
    record ReplayFlag(Boolean replay) {}

    /**
     * Only a replay execution serves a rerun (a rerun's marker is a replay, and so is every successor it is handed
     * over to), so an execution the machine says is none needs no lookup. Without the flag (an execution started on an
     * older definition) the lookup is made.
     */
    private static boolean mayServeRerun(ActionRequest request) {
        ReplayFlag flag = request.payload(ReplayFlag.class);
        return flag == null || flag.replay() == null || flag.replay();
    }

    /**
     * The execution is releasing its lock: a rerun it served that has no outcome yet ends FAILED, unless the execution
     * is only releasing to retry a failed attempt (it comes back through the gates).
     */
    private void settle(ActionRequest request) {
        Optional<Rerun> rerun = find(request);
        if (rerun.isEmpty() || rerun.get().status().isTerminal()) {
            return;
        }
        if (rerun.get().status() == RerunStatus.STARTED && retryPending(request)) {
            return;
        }
        move(
                request,
                rerun.get(),
                RerunStatus.FAILED,
                "its execution ended before the rerun had an outcome (an error the "
                        + "state machine caught: see the execution's history)");
    }

    private boolean retryPending(ActionRequest request) {
        Optional<RunLog> log = collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()));
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        return log.isPresent()
                && pipeline.isPresent()
                && AttemptLedger.retryPending(log.get(), pipeline.get().retry(), request.executionName());
    }

    private Optional<Rerun> find(ActionRequest request) {
        return collaborators
                .provider()
                .reruns()
                .forExecution(request.pipelineId(), request.date(), request.scheduleId(), request.executionName());
    }

    private void move(ActionRequest request, RerunStatus next, String reason) {
        find(request).ifPresent(rerun -> move(request, rerun, next, reason));
    }

    private void move(ActionRequest request, Rerun rerun, RerunStatus next, String reason) {
        if (!rerun.status().canMoveTo(next)) {
            return;
        }
        Rerun moved = rerun.movedTo(next, reason, request.runId(), collaborators.now());
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("rerunId", rerun.rerunId());
        details.put("from", rerun.status().wireName());
        details.put("executionName", request.executionName());
        String message = moved.statusReason() != null
                ? moved.statusReason()
                : "rerun " + next.wireName().toLowerCase(Locale.ROOT);
        boolean applied = collaborators
                .provider()
                .moveRerun(
                        rerun.status(),
                        moved,
                        collaborators.event(
                                request, EventKind.RERUN_STATUS_CHANGED, next.wireName(), message, details));
        if (applied && next.isTerminal() && rerun.backfillId() != null) {
            // A day that ended without holding the lock (an excluded day, a skip) frees its place at once.
            backfills.after(Optional.of(rerun), request.logContext());
        }
        // A backfill's failed day is not alerted on its own: the run's own alert (RUN_FAILED, VALIDATION_EXHAUSTED …)
        // already went out, and the backfill's BACKFILL_FINISHED sums its days up — not one page per day of a range.
        if (applied && next == RerunStatus.FAILED && rerun.backfillId() == null) {
            Map<String, Object> alertDetails = new LinkedHashMap<>(details);
            alertDetails.put("reason", moved.statusReason());
            collaborators
                    .alerts()
                    .raise(
                            AlertKind.RERUN_FAILED,
                            AlertLevel.WARNING,
                            request.pipelineId(),
                            request.scheduleId(),
                            request.date(),
                            "Rerun " + rerun.rerunId() + " of " + request.pipelineId() + " failed: "
                                    + moved.statusReason(),
                            alertDetails,
                            request.logContext());
        }
    }
}
