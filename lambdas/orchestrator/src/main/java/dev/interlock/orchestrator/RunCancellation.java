package dev.interlock.orchestrator;

import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.store.RunTransition;
import java.util.Map;
import java.util.Optional;

/**
 * Ends the execution's run CANCELLED when it will never trigger (a dry run that was ready, a wait handed to a successor
 * that evaluates under its own run), with a {@code RUN_STATE_CHANGED} event saying why, so the watchdog never reports
 * it as stuck. A run already past PENDING, or none, is left alone.
 */
final class RunCancellation {

    private RunCancellation() {}

    /** Cancels the run; false only when it was CANCELLED already (a repeated call records nothing again). */
    static boolean cancel(Collaborators collaborators, ActionRequest request, String why, Map<String, Object> details) {
        if (request.runId() == null) {
            return true;
        }
        Optional<RunState> run = collaborators.provider().runs().get(request.runId());
        if (run.isEmpty()) {
            return true;
        }
        if (!run.get().status().canMoveTo(RunStatus.CANCELLED)) {
            return run.get().status() != RunStatus.CANCELLED;
        }
        RunState next = run.get().moveTo(RunStatus.CANCELLED, collaborators.now());
        collaborators
                .provider()
                .recordTransition(RunTransition.of(
                        run.get().version(),
                        next,
                        collaborators.event(
                                request, EventKind.RUN_STATE_CHANGED, RunStatus.CANCELLED.wireName(), why, details)));
        return true;
    }
}
