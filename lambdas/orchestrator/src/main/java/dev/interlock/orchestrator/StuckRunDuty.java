package dev.interlock.orchestrator;

import dev.interlock.log.LogContext;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.alert.AlertLevel;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.run.RunState;
import dev.interlock.store.DueEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** The watchdog's duty for a run's due entry, due when its execution timeout passed: STUCK_RUN once if not terminal. */
final class StuckRunDuty {

    private final Collaborators collaborators;

    StuckRunDuty(Collaborators collaborators) {
        this.collaborators = collaborators;
    }

    /** Alerts STUCK_RUN once per (pipeline, date, schedule) when the run is still not terminal; then the entry goes. */
    void check(DueEntry entry, WatchdogTally tally) {
        Optional<RunState> found = collaborators.provider().runs().get(entry.runId());
        if (found.isPresent() && !found.get().status().isTerminal()) {
            RunState run = found.get();
            Instant now = collaborators.now();
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("runId", run.runId());
            details.put("status", run.status().wireName());
            details.put("createdAt", InterlockJson.timestamp(run.createdAt()));
            if (run.executionName() != null) {
                details.put("executionName", run.executionName());
            }
            String message = "Run " + run.runId() + " of " + run.pipelineId() + " is still "
                    + run.status().wireName() + " "
                    + Duration.between(run.createdAt(), now).toMinutes() + " min after it was created";
            if (collaborators
                    .alerts()
                    .raise(
                            AlertKind.STUCK_RUN,
                            AlertLevel.ERROR,
                            run.pipelineId(),
                            run.scheduleId(),
                            run.date(),
                            message,
                            details,
                            // The tick claims the alert as itself, not as the run's execution (whose own unsent
                            // claim it could take again): overlapping ticks send it once (CallbackCheckRefusal).
                            new LogContext(
                                    run.pipelineId(),
                                    run.scheduleId(),
                                    run.date().toString(),
                                    run.runId(),
                                    null))) {
                tally.stuckRuns.add(run.runId());
            }
        }
        collaborators.provider().watchdog().remove(entry);
    }
}
