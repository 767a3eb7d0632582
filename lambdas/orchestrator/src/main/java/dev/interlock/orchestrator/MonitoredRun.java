package dev.interlock.orchestrator;

import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.store.RunLogKey;
import java.util.Optional;

/**
 * The completed run a monitoring loop watches, and whether the day has moved on from it. Monitoring does not hold the
 * day's lock, so a rerun or re-evaluation of the day may run meanwhile; from the moment the day's run log shows
 * anything but this run COMPLETED (a newer run, or a new attempt under way), the loop's pre-trigger baseline is stale
 * and its rounds stop: it never compares against it again and never requests a rerun from it.
 */
final class MonitoredRun {

    private final Collaborators collaborators;

    MonitoredRun(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /**
     * Why the day no longer is the monitored run's (naming what superseded it); empty while the run log still shows
     * {@code request}'s run COMPLETED, or when the request names no run or the day has no run log.
     */
    Optional<String> supersededBecause(ActionRequest request) {
        if (request.runId() == null || request.runId().isBlank()) {
            return Optional.empty();
        }
        Optional<RunLog> log = collaborators
                .provider()
                .runLogs()
                .get(new RunLogKey(request.pipelineId(), request.date(), request.scheduleId()));
        if (log.isEmpty()) {
            return Optional.empty();
        }
        RunLog current = log.get();
        if (current.runId() != null && !current.runId().equals(request.runId())) {
            return Optional.of("the day's run log shows a newer run " + current.runId() + " ("
                    + current.status().wireName() + ") than the monitored run " + request.runId());
        }
        if (current.status() != RunLogStatus.COMPLETED) {
            return Optional.of("the day's run log shows " + current.status().wireName() + " after the monitored run "
                    + request.runId() + " completed (a rerun or re-evaluation)");
        }
        return Optional.empty();
    }
}
