package dev.interlock.store.contract;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.marker.MarkerSource;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.ReadinessRule;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.rerun.Rerun;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.run.RetryAttempt;
import dev.interlock.model.run.RunLog;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trait.TraitResult;
import dev.interlock.model.trait.TraitStatus;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Domain values for store tests, with millisecond timestamps (what every document stores). */
public final class StoreSamples {

    /**
     * Far ahead of the wall clock on purpose: DynamoDB Local runs a TTL deletion job against the real time, so items
     * whose ttl (test time + retention) were in the real past would vanish mid-test. Expiry is driven by the
     * injected clock only.
     */
    public static final Instant T0 = Instant.parse("2099-02-23T10:00:00.000Z");

    public static final LocalDate DATE = LocalDate.of(2099, 2, 23);

    private StoreSamples() {}

    /** A pipeline whose traits wait for {@code upstreams}; {@code descriptionBytes} pads it to a size. */
    public static PipelineConfig pipeline(String name, int descriptionBytes, String... upstreams) {
        Map<String, TraitConfig> traits = new LinkedHashMap<>();
        traits.put(
                "source-freshness",
                new TraitConfig("builtin:sensor-freshness", Map.of("sensor", name, "maxAgeSeconds", 3600), 300, 30));
        for (String upstream : upstreams) {
            traits.put(
                    "upstream-" + upstream,
                    new TraitConfig(
                            "builtin:upstream-run-log", Map.of(PipelineConfig.UPSTREAM_PIPELINE, upstream), 0, 0));
        }
        return new PipelineConfig(
                name,
                "x".repeat(descriptionBytes),
                "batch-ingestion",
                1,
                traits,
                new HttpTrigger("POST", "https://jobs.example.com/" + name, Map.of(), null, 30),
                RetryPolicy.DEFAULT,
                null,
                List.of(),
                null,
                null,
                false,
                60,
                30,
                120,
                7200,
                false,
                null,
                null,
                null,
                null,
                null,
                null,
                null,
                null);
    }

    public static PipelineConfig pipeline(String name, String... upstreams) {
        return pipeline(name, 10, upstreams);
    }

    public static Archetype archetype(String name) {
        return new Archetype(
                name,
                "test archetype",
                List.of(new TraitDefinition(
                        "source-freshness", "fresh source", null, Map.of("maxAgeSeconds", 3600), 300, 30)),
                List.of(),
                ReadinessRule.ALL_REQUIRED_PASS);
    }

    public static RunState run(String runId, String pipelineId, Instant createdAt) {
        return new RunState(
                runId,
                pipelineId,
                "daily",
                DATE,
                RunStatus.PENDING,
                1,
                TriggerType.HTTP,
                pipelineId + "_exec",
                Map.of(),
                null,
                null,
                createdAt,
                createdAt);
    }

    /** The next version of {@code run} with one more metadata entry (what a CAS writer contributes). */
    public static RunState withEntry(RunState run, String key, Instant now) {
        Map<String, String> metadata = new LinkedHashMap<>(run.metadata());
        metadata.put(key, Long.toString(run.version() + 1));
        return new RunState(
                run.runId(),
                run.pipelineId(),
                run.scheduleId(),
                run.date(),
                run.status(),
                run.version() + 1,
                run.triggerType(),
                run.executionName(),
                metadata,
                run.failureMessage(),
                run.failureCategory(),
                run.createdAt(),
                now);
    }

    public static RunLog runLog(
            String pipelineId,
            LocalDate date,
            String scheduleId,
            RunLogStatus status,
            int attempts,
            List<RetryAttempt> history,
            Instant at) {
        return new RunLog(
                pipelineId,
                date,
                scheduleId,
                status,
                attempts,
                "run-" + attempts,
                "exec-" + attempts,
                null,
                null,
                history,
                false,
                at,
                null,
                at);
    }

    /** {@code log} after one more terminal failure: one more attempt and one more history entry. */
    public static RunLog failedOnceMore(RunLog log, String runId, Instant at) {
        List<RetryAttempt> history = new ArrayList<>(log.retryHistory());
        int attempt = log.attemptNumber() + 1;
        history.add(new RetryAttempt(
                attempt,
                RunLogStatus.FAILED,
                runId,
                "boom " + attempt,
                FailureCategory.TRANSIENT,
                log.startedAt(),
                at));
        return new RunLog(
                log.pipelineId(),
                log.date(),
                log.scheduleId(),
                RunLogStatus.FAILED,
                attempt,
                runId,
                log.executionName(),
                "boom " + attempt,
                FailureCategory.TRANSIENT,
                history,
                false,
                log.startedAt(),
                at,
                at);
    }

    /** {@code log} with a new status and run, everything else kept (the trigger's RUNNING write). */
    public static RunLog withStatus(RunLog log, RunLogStatus status, String runId, Instant at) {
        return new RunLog(
                log.pipelineId(),
                log.date(),
                log.scheduleId(),
                status,
                log.attemptNumber(),
                runId,
                log.executionName(),
                log.failureMessage(),
                log.failureCategory(),
                log.retryHistory(),
                log.alertSent(),
                log.startedAt(),
                log.completedAt(),
                at);
    }

    public static Event event(String pipelineId, Instant at, String message) {
        return new Event(
                EventKind.TRAIT_EVALUATED,
                pipelineId,
                "daily",
                DATE,
                null,
                "source-freshness",
                "PASS",
                message,
                null,
                at);
    }

    public static TraitResult trait(
            String pipelineId,
            LocalDate date,
            String scheduleId,
            String traitType,
            TraitStatus status,
            Instant evaluatedAt,
            Instant expiresAt) {
        return new TraitResult(
                pipelineId,
                scheduleId,
                date,
                traitType,
                status,
                Map.of("count", 1500),
                null,
                null,
                true,
                evaluatedAt,
                expiresAt);
    }

    public static Marker marker(String pipelineId, MarkerSource source, String suffix, LocalDate date) {
        return new Marker(
                pipelineId, "daily", date, source, suffix, source == MarkerSource.RERUN, "silver", "run-1", T0);
    }

    public static Rerun rerun(
            String rerunId, String pipelineId, LocalDate date, String scheduleId, Instant requestedAt) {
        return Rerun.requested(
                rerunId,
                pipelineId,
                scheduleId,
                date,
                MarkerSource.LATE_ARRIVAL,
                "run-1",
                "late data",
                null,
                "exec-" + rerunId,
                requestedAt,
                Map.of("trait", "source-freshness"));
    }
}
