package dev.interlock.api;

import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.arrival.SensorTargets;
import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.marker.Marker;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.model.schedule.ReadableTime;
import dev.interlock.model.sensor.SensorValue;
import dev.interlock.store.Provider;
import dev.interlock.store.Reference;
import dev.interlock.store.RunLogKey;
import dev.interlock.store.SensorStore;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Data arrival drives readiness: after a sensor write, starts the evaluation of every pipeline day whose traits read
 * the written value ({@link SensorTargets}), by writing one {@code sensor} marker per (pipeline, schedule, date) keyed
 * by the value's revision. The readers come from the index registration keeps (the pipelines whose trait configs name
 * the sensor, and the users of archetypes whose defaults do), so nothing is scanned. The same data pushed again writes
 * the same markers, which exist already: no second execution (and a retried request writes what its first attempt
 * could not). A day whose window has not opened is left to the watchdog, and a COMPLETED day is not rerun (post-run
 * monitoring decides that, as drift), nor is a day of a paused pipeline; each such skip is an event with its reason
 * when the data changed.
 */
final class SensorArrivals {

    static final String STARTED = "EVALUATION_STARTED";
    static final String SKIPPED = "SKIPPED";

    private final Provider provider;
    private final ReferenceChecks references;
    private final ApiSettings settings;
    private final Clock clock;

    SensorArrivals(Provider provider, ReferenceChecks references, ApiSettings settings, Clock clock) {
        this.provider = provider;
        this.references = references;
        this.settings = settings;
        this.clock = clock;
    }

    /** An evaluation a write started: the marker's execution. */
    record Evaluation(String pipelineId, String scheduleId, LocalDate date, String executionName) {}

    /** A pipeline day that reads the value but was not started, and why. */
    record Skip(String pipelineId, String scheduleId, LocalDate date, String reason) {}

    /** What a write started and what it left. */
    record Outcome(List<Evaluation> evaluations, List<Skip> skipped) {
        static final Outcome NONE = new Outcome(List.of(), List.of());
    }

    /**
     * What arrived, as its events tell it: the event kind, how it is named ({@code sensor orders/2026-03-01}), what
     * happened to it ({@code changed (revision 2)}), the details of its events, and — for an arrival that starts
     * nothing — the reason every day it concerns is skipped.
     */
    record Arrival(
            EventKind kind, String label, String happened, Map<String, Object> details, boolean changed, String veto) {}

    /** Starts what {@code write} concerns. */
    Outcome after(SensorStore.SensorWrite write) {
        SensorValue value = write.stored();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("sensor", value.name());
        if (value.partition() != null) {
            details.put("partition", value.partition());
        }
        details.put("revision", value.revision());
        return after(
                value.name(),
                value.partition(),
                Optional.of(value),
                new Arrival(
                        EventKind.SENSOR_UPDATED,
                        "sensor " + value.label(),
                        "changed (revision " + value.revision() + ")",
                        details,
                        write.changed(),
                        null));
    }

    /**
     * Starts what the value of {@code sensor} (partition null: unpartitioned) concerns or, for an arrival with a
     * {@code veto} (no {@code value}), skips each day it concerns with that reason.
     */
    Outcome after(String sensor, String partition, Optional<SensorValue> stored, Arrival arrival) {
        Instant now = clock.instant();
        Set<String> readers = new TreeSet<>(provider.pipelines().dependants(Reference.sensor(sensor)));
        for (String archetype : provider.archetypes().readersOf(sensor)) {
            readers.addAll(provider.pipelines().dependants(Reference.archetype(archetype)));
        }
        if (readers.isEmpty()) {
            return Outcome.NONE;
        }
        List<Evaluation> started = new ArrayList<>();
        List<Skip> skipped = new ArrayList<>();
        Map<String, Optional<Archetype>> archetypes = new HashMap<>();
        for (PipelineConfig pipeline : provider.pipelines().getAll(readers).values()) {
            Optional<Archetype> archetype = archetypes.computeIfAbsent(pipeline.archetype(), references::archetype);
            if (archetype.isEmpty()) {
                continue;
            }
            List<SensorTargets.Target> targets;
            try {
                targets =
                        SensorTargets.of(pipeline, archetype.get(), sensor, partition, now, settings.staleMarkerDays());
            } catch (IllegalArgumentException | DateTimeException unreadable) {
                // Registration refuses such configs; one registered before a rule existed must not fail the producer.
                skipped.add(new Skip(
                        pipeline.name(), null, null, "its schedules cannot be read: " + unreadable.getMessage()));
                continue;
            }
            Optional<Pause> pause =
                    targets.isEmpty() ? Optional.empty() : provider.pauses().get(pipeline.name());
            for (SensorTargets.Target target : targets) {
                start(pipeline, pause, target, stored, arrival, now, started, skipped);
            }
        }
        return new Outcome(List.copyOf(started), List.copyOf(skipped));
    }

    private void start(
            PipelineConfig pipeline,
            Optional<Pause> pause,
            SensorTargets.Target target,
            Optional<SensorValue> stored,
            Arrival arrival,
            Instant now,
            List<Evaluation> started,
            List<Skip> skipped) {
        String reason = arrival.veto();
        if (reason != null) {
            // Nothing to start: said once per day it concerns, whatever the day's state.
        } else if (pause.isPresent()) {
            reason = "the pipeline is " + pause.get().describe(ReadableTime.zoneOf(pipeline, target.scheduleId()))
                    + "; resume it to run again (forward-only)";
        } else if (!target.isOpen(now)) {
            reason = "its window opens at "
                    + ReadableTime.of(target.opensAt(), ReadableTime.zoneOf(pipeline, target.scheduleId()))
                    + "; the watchdog starts it then";
        } else if (provider.runLogs()
                .get(new RunLogKey(pipeline.name(), target.date(), target.scheduleId()))
                .filter(log -> log.status() == RunLogStatus.COMPLETED)
                .isPresent()) {
            reason = "the day is already COMPLETED; new data reruns a completed day only when its post-run monitoring "
                    + "detects drift (or an operator requests a rerun)";
        }
        Map<String, Object> details = new LinkedHashMap<>(arrival.details());
        details.put("traits", target.traitTypes());
        pause.ifPresent(p -> {
            details.put("pausedBy", p.pausedBy());
            details.put("pausedAt", p.pausedAt().toString());
        });
        if (reason != null || stored.isEmpty()) {
            reason = reason == null ? "nothing was stored" : reason;
            skipped.add(new Skip(pipeline.name(), target.scheduleId(), target.date(), reason));
            if (arrival.changed()) {
                record(
                        arrival.kind(),
                        pipeline,
                        target,
                        SKIPPED,
                        arrival.label() + " " + arrival.happened() + "; not evaluated: " + reason,
                        details,
                        now);
            }
            return;
        }
        Marker marker = Marker.sensor(pipeline.name(), target.scheduleId(), target.date(), stored.get(), now);
        if (provider.cascade().writeMarker(marker)) {
            started.add(new Evaluation(pipeline.name(), target.scheduleId(), target.date(), marker.executionName()));
            details.put("executionName", marker.executionName());
            record(
                    arrival.kind(),
                    pipeline,
                    target,
                    STARTED,
                    arrival.label() + " " + arrival.happened() + ": evaluation started",
                    details,
                    now);
        }
        // Otherwise this revision was handed over already: the same data pushed again starts nothing.
    }

    private void record(
            EventKind kind,
            PipelineConfig pipeline,
            SensorTargets.Target target,
            String status,
            String message,
            Map<String, Object> details,
            Instant now) {
        provider.events()
                .append(new Event(
                        kind,
                        pipeline.name(),
                        target.scheduleId(),
                        target.date(),
                        null,
                        null,
                        status,
                        message,
                        details,
                        now));
    }
}
