package dev.interlock.wiring.alert;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.event.DryRunShadow;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.store.EventStore;
import dev.interlock.store.PipelineStore;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The alert publisher every function uses: an alert about a dry-run pipeline is recorded as its {@code DRY_RUN_*}
 * event ({@link DryRunShadow}) and never reaches the real topic, whichever function raised it (orchestrator, trigger,
 * watchdog). Every other alert goes to the real publisher. When the pipeline cannot be read the alert is published: a
 * page too many beats a lost one.
 */
public final class DryRunAlerts implements AlertPublisher {

    private final AlertPublisher real;
    private final Supplier<PipelineStore> pipelines;
    private final Supplier<EventStore> events;
    private final StructuredLog log;

    public DryRunAlerts(
            AlertPublisher real, Supplier<PipelineStore> pipelines, Supplier<EventStore> events, StructuredLog log) {
        this.real = real;
        this.pipelines = pipelines;
        this.events = events;
        this.log = log;
    }

    @Override
    public void publish(Alert alert) {
        if (alert.pipelineId() != null && dryRun(alert)) {
            events.get().append(DryRunShadow.instead(alert));
            return;
        }
        real.publish(alert);
    }

    private boolean dryRun(Alert alert) {
        try {
            Optional<PipelineConfig> pipeline = pipelines.get().get(alert.pipelineId());
            return pipeline.map(PipelineConfig::dryRun).orElse(false);
        } catch (RuntimeException e) {
            log.warn(
                    LogContext.of(
                            alert.pipelineId(),
                            alert.scheduleId(),
                            alert.date() == null ? null : alert.date().toString()),
                    "could not read the pipeline to tell whether it is a dry run; publishing the alert",
                    Map.of("kind", alert.kind().wireName(), "error", String.valueOf(e.getMessage())));
            return false;
        }
    }
}
