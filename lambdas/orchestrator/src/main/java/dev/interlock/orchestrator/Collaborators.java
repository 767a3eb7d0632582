package dev.interlock.orchestrator;

import dev.interlock.jobs.RunChecker;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.trait.PostRunVerdict;
import dev.interlock.store.Provider;
import dev.interlock.wiring.alert.DeduplicatedAlerts;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What every action works with: the store, the time, the alert channel, the settings, the log and the callbacks that
 * end a machine's wait for a job, and the run checks the watchdog asks a job's state with when its job-state event
 * did not come.
 */
public record Collaborators(
        Provider provider,
        Clock clock,
        DeduplicatedAlerts alerts,
        OrchestratorSettings settings,
        StructuredLog log,
        TaskCallbacks callbacks,
        RunChecker jobChecks,
        PostRunEvaluation postRun) {

    /** Without post-run evaluators: a pipeline's post-run checks are ERRORs (dispatchers of unit tests). */
    public Collaborators(
            Provider provider,
            Clock clock,
            DeduplicatedAlerts alerts,
            OrchestratorSettings settings,
            StructuredLog log,
            TaskCallbacks callbacks,
            RunChecker jobChecks) {
        this(provider, clock, alerts, settings, log, callbacks, jobChecks, PostRunEvaluation.UNAVAILABLE);
    }

    public Collaborators {
        Objects.requireNonNull(postRun, "postRun");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(alerts, "alerts");
        Objects.requireNonNull(settings, "settings");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(callbacks, "callbacks");
        Objects.requireNonNull(jobChecks, "jobChecks");
    }

    /** The current instant of the injected clock. */
    public Instant now() {
        return clock.instant();
    }

    /** The pipeline the request names. */
    public Optional<PipelineConfig> pipeline(ActionRequest request) {
        return provider.pipelines().get(request.pipelineId());
    }

    /** The reason given when a pipeline is not registered. */
    public static String notFound(ActionRequest request) {
        return "pipeline " + request.pipelineId() + " not found";
    }

    /** An event about the request's (pipeline, date, schedule, run), stamped now. */
    public Event event(
            ActionRequest request, EventKind kind, String status, String message, Map<String, Object> details) {
        return new Event(
                kind,
                request.pipelineId(),
                request.scheduleId(),
                request.date(),
                request.runId(),
                null,
                status,
                message,
                details == null || details.isEmpty() ? null : details,
                now());
    }

    /** Appends an event about the request. */
    public void record(
            ActionRequest request, EventKind kind, String status, String message, Map<String, Object> details) {
        provider.events().append(event(request, kind, status, message, details));
    }

    /** Whether post-run checks judge {@code pipeline}'s runs: it declares some and starts jobs (a dry run starts none). */
    static boolean checksAfterRun(PipelineConfig pipeline) {
        return !pipeline.postRun().isEmpty() && !pipeline.dryRun();
    }

    /**
     * The verdict of {@code pipeline}'s post-run checks on the request's day, recorded as a {@code POST_RUN_CHECKED}
     * event with every check's verdict (docs/post-run-checks.md).
     */
    PostRunVerdict judgePostRun(ActionRequest request, PipelineConfig pipeline) {
        PostRunVerdict verdict = postRun.checkAll(pipeline, request.scheduleId(), request.date());
        record(request, EventKind.POST_RUN_CHECKED, verdict.status(), verdict.message(), verdict.details());
        return verdict;
    }
}
