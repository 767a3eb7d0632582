package dev.interlock.orchestrator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.workflow.ExecutionBudget;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * {@code checkMonitoringExpired}: runs before every monitoring wait (the first one included). It releases this
 * execution's lock (owner-conditional, so a repeat or a lock already released or held by another is a no-op):
 * monitoring never holds the day's lock while it waits, so reruns and evaluations of the day run at once. It ends the
 * monitoring loop when its window has passed, when monitoring was switched off, or when the day's run log shows the
 * monitored run superseded ({@link MonitoredRun}). Every error ends the loop too.
 *
 * <p>Before each wait it records {@code MONITORING_WAITING} (the window's end and the next round), from which the
 * day's status shows the day as MONITORING.
 *
 * <p>It reads what is monitored from the execution's state ({@link Monitored}: the run, its traits and baseline, the
 * completion time — written by this execution's gates, or carried into a monitoring successor's input) and answers
 * what the loop's states read, so none of them reads a path a successor's input might lack.
 *
 * <p>Monitoring lasts as long as configured (up to 7 days), not as long as one execution: when another round would run
 * into this execution's budget while the window is still open, it hands monitoring to a successor execution — a
 * {@link MarkerSource#MONITORING} marker, keyed by this execution so a retried call writes it once, carrying that state
 * — records {@code EXECUTION_HANDED_OVER} and ends this execution's loop. The successor enters the loop at this action,
 * so its first round comes one interval after this execution's last.
 */
public final class CheckMonitoringExpired implements Action {

    /**
     * Always-present payload: what the monitoring loop reads.
     *
     * @param expired            this execution's monitoring loop ends
     * @param successorExecution the execution monitoring continues in, {@code ""} unless handed over
     * @param runId              the monitored run
     * @param traits             the resolved traits each round evaluates again
     * @param baseline           their results before the trigger, which each round is compared with
     * @param intervalSeconds    the wait before the next round
     */
    public record Payload(
            boolean expired,
            String successorExecution,
            String runId,
            JsonNode traits,
            JsonNode baseline,
            int intervalSeconds) {

        static Payload ends() {
            JsonNodeFactory json = JsonNodeFactory.instance;
            return new Payload(
                    true,
                    "",
                    "",
                    json.arrayNode(),
                    json.arrayNode(),
                    PipelineTuning.DEFAULT_MONITORING_INTERVAL_SECONDS);
        }
    }

    /**
     * Request payload.
     *
     * @param state the execution's state document ({@code $}), from which {@link Monitored} is read
     */
    record Request(JsonNode state, String executionStartTime, Integer executionTimeoutSeconds) {}

    /** Time a round of re-evaluation is given on top of the wait (evaluators run in parallel). */
    static final int ROUND_SECONDS = 60;

    private final Collaborators collaborators;
    private final MonitoredRun monitoredRun;

    public CheckMonitoringExpired(Collaborators collaborators) {
        this.collaborators = collaborators;
        this.monitoredRun = new MonitoredRun(collaborators);
    }

    @Override
    public Outcome run(ActionRequest request) {
        if (request.executionName() != null) {
            collaborators.provider().locks().release(LockOwner.key(request), request.executionName());
        }
        Optional<PipelineConfig> pipeline = collaborators.pipeline(request);
        if (pipeline.isEmpty()) {
            return Outcome.error(Collaborators.notFound(request), errorPayload());
        }
        Request body = request.payload(Request.class);
        Monitored monitored;
        try {
            monitored = Monitored.of(body.state());
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        ActionRequest ofRun = request.forRun(monitored.runId());
        int timeout = body.executionTimeoutSeconds() != null && body.executionTimeoutSeconds() > 0
                ? body.executionTimeoutSeconds()
                : collaborators.settings().executionTimeoutSeconds();
        PipelineTuning tuning;
        try {
            tuning = PipelineTuning.of(pipeline.get(), timeout);
        } catch (IllegalArgumentException e) {
            return Outcome.error(e.getMessage(), errorPayload());
        }
        if (!tuning.monitoringEnabled()) {
            collaborators.record(
                    ofRun,
                    EventKind.MONITORING_COMPLETED,
                    "DISABLED",
                    "monitoring stopped: the pipeline's monitoring was switched off",
                    Map.of("monitoringStartedAt", InterlockJson.timestamp(monitored.completedAt())));
            return Outcome.proceed(Payload.ends());
        }
        Optional<String> superseded = monitoredRun.supersededBecause(ofRun);
        if (superseded.isPresent()) {
            collaborators.record(
                    ofRun,
                    EventKind.MONITORING_COMPLETED,
                    "SUPERSEDED",
                    "monitoring stopped: " + superseded.get(),
                    Map.of("monitoringStartedAt", InterlockJson.timestamp(monitored.completedAt())));
            return Outcome.proceed(Payload.ends());
        }
        Instant now = collaborators.now();
        Instant configuredEnd = monitored.completedAt().plusSeconds(tuning.monitoringDurationSeconds());
        if (!now.isBefore(configuredEnd)) {
            collaborators.record(
                    ofRun,
                    EventKind.MONITORING_COMPLETED,
                    "EXPIRED",
                    "monitoring window over",
                    Map.of(
                            "monitoringStartedAt",
                            InterlockJson.timestamp(monitored.completedAt()),
                            "monitoringEndsAt",
                            InterlockJson.timestamp(configuredEnd)));
            return Outcome.proceed(Payload.ends());
        }
        int interval = tuning.monitoringIntervalSeconds();
        if (body.executionStartTime() != null && !body.executionStartTime().isBlank()) {
            Instant limit;
            try {
                limit = new ExecutionBudget(
                                Instant.parse(body.executionStartTime().trim()), timeout)
                        .end();
            } catch (DateTimeException e) {
                return Outcome.error(
                        "payload.executionStartTime is not an ISO-8601 instant: " + body.executionStartTime(),
                        errorPayload());
            }
            if (now.plusSeconds(interval + ROUND_SECONDS).isAfter(limit)) {
                return handOver(
                        ofRun, monitored, configuredEnd, ReadableTime.zoneOf(pipeline.get(), ofRun.scheduleId()));
            }
        }
        waiting(
                ofRun,
                monitored,
                configuredEnd,
                interval,
                !body.state().has("monitoringExpiry"),
                ReadableTime.zoneOf(pipeline.get(), ofRun.scheduleId()));
        return Outcome.proceed(
                new Payload(false, "", monitored.runId(), monitored.traits(), monitored.baseline(), interval));
    }

    /**
     * Records that monitoring waits for its next round ({@code MONITORING_WAITING}): the day's status reads from it
     * that the day is monitored, until when, and when the next round comes.
     */
    private void waiting(
            ActionRequest request, Monitored monitored, Instant end, int interval, boolean first, ZoneId zone) {
        Instant nextRound = collaborators.now().plusSeconds(interval);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("monitoringStartedAt", InterlockJson.timestamp(monitored.completedAt()));
        details.put("monitoringEndsAt", InterlockJson.timestamp(end));
        details.put("nextRoundAt", InterlockJson.timestamp(nextRound));
        details.put("intervalSeconds", interval);
        collaborators.record(
                request,
                EventKind.MONITORING_WAITING,
                first ? "STARTED" : "WAITING",
                "watching for late data until " + ReadableTime.of(end, zone) + "; next round at "
                        + ReadableTime.of(nextRound, zone),
                details);
    }

    /** Passes the rest of the window to a successor execution (once, however often this is retried). */
    private Outcome handOver(ActionRequest request, Monitored monitored, Instant configuredEnd, ZoneId zone) {
        if (request.executionName() == null) {
            return Outcome.error("executionName is required to hand monitoring over", errorPayload());
        }
        String predecessor = request.executionName();
        Marker marker = Marker.monitoring(
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                predecessor,
                monitored.runId(),
                monitored.carried(),
                collaborators.now());
        String successor = marker.executionName();
        if (collaborators.provider().cascade().writeMarker(marker)) {
            Map<String, Object> details = new LinkedHashMap<>();
            details.put("executionName", predecessor);
            details.put("successorExecution", successor);
            details.put("phase", "monitoring");
            details.put("monitoringStartedAt", InterlockJson.timestamp(monitored.completedAt()));
            details.put("monitoringEndsAt", InterlockJson.timestamp(configuredEnd));
            details.put("reason", "another monitoring round would run into this execution's time budget");
            collaborators.record(
                    request,
                    EventKind.EXECUTION_HANDED_OVER,
                    "HANDED_OVER",
                    "monitoring until " + ReadableTime.of(configuredEnd, zone) + " handed over to " + successor,
                    details);
        }
        JsonNodeFactory json = JsonNodeFactory.instance;
        return Outcome.proceed(new Payload(
                true,
                successor,
                monitored.runId(),
                json.arrayNode(),
                json.arrayNode(),
                PipelineTuning.DEFAULT_MONITORING_INTERVAL_SECONDS));
    }

    @Override
    public Payload errorPayload() {
        return Payload.ends();
    }
}
