package dev.interlock.wiring.alert;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.Alert;
import dev.interlock.model.alert.Mute;
import dev.interlock.model.event.DryRunShadow;
import dev.interlock.model.event.MuteEvents;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.store.EventStore;
import dev.interlock.store.MuteStore;
import dev.interlock.store.PipelineStore;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The alert publisher every function uses (orchestrator, trigger, run checker, watchdog), which reads the alert's
 * pipeline once and then:
 *
 * <ul>
 *   <li>a dry-run pipeline's alert is recorded as its {@code DRY_RUN_*} event ({@link DryRunShadow}) and never
 *       reaches the real topic;
 *   <li>every other alert carries the pipeline's owner, team, labels and runbook ({@link Alert#routedTo});
 *   <li>an alert a mute covers (the pipeline's own or its team's, active at the alert's time) is recorded as an
 *       {@code ALERT_MUTED} event of its day, naming the mute, instead of being published;
 *   <li>the rest goes to the real publisher.
 * </ul>
 *
 * When the pipeline or its mutes cannot be read the alert is published as it is: a page too many beats a lost one.
 */
public final class RoutedAlerts implements AlertPublisher {

    private final AlertPublisher real;
    private final Supplier<PipelineStore> pipelines;
    private final Supplier<MuteStore> mutes;
    private final Supplier<EventStore> events;
    private final StructuredLog log;

    public RoutedAlerts(
            AlertPublisher real,
            Supplier<PipelineStore> pipelines,
            Supplier<MuteStore> mutes,
            Supplier<EventStore> events,
            StructuredLog log) {
        this.real = real;
        this.pipelines = pipelines;
        this.mutes = mutes;
        this.events = events;
        this.log = log;
    }

    @Override
    public void publish(Alert alert) {
        if (alert.pipelineId() == null) {
            real.publish(alert);
            return;
        }
        Optional<PipelineConfig> pipeline =
                read(alert, "the pipeline", () -> pipelines.get().get(alert.pipelineId()));
        if (pipeline.map(PipelineConfig::dryRun).orElse(false)) {
            events.get().append(DryRunShadow.instead(alert));
            return;
        }
        // Whose it is, and its text's instants on the pipeline's (schedule's) wall clock with the offset.
        Alert routed = pipeline.map(p -> alert.routedTo(p.ownership())
                        .withMessage(ReadableTime.inText(alert.message(), ReadableTime.zoneOf(p, alert.scheduleId()))))
                .orElse(alert);
        Optional<Mute> mute = read(
                alert,
                "its mutes",
                () -> mutes.get().covering(routed.pipelineId(), routed.team()).stream()
                        .filter(m -> m.activeAt(routed.timestamp()))
                        .findFirst());
        if (mute.isPresent()) {
            events.get().append(MuteEvents.alertMuted(routed, mute.get()));
            log.info(
                    context(alert),
                    "alert muted",
                    Map.of("kind", alert.kind().wireName(), "mute", mute.get().describe()));
            return;
        }
        real.publish(routed);
    }

    private <T> Optional<T> read(Alert alert, String what, Supplier<Optional<T>> reader) {
        try {
            return reader.get();
        } catch (RuntimeException e) {
            log.warn(
                    context(alert),
                    "could not read " + what + " of the alert's pipeline; publishing the alert as it is",
                    Map.of("kind", alert.kind().wireName(), "error", String.valueOf(e.getMessage())));
            return Optional.empty();
        }
    }

    private static LogContext context(Alert alert) {
        return LogContext.of(
                alert.pipelineId(),
                alert.scheduleId(),
                alert.date() == null ? null : alert.date().toString());
    }
}
