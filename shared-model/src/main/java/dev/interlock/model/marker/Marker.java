package dev.interlock.model.marker;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.keys.ItemKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.model.sensor.SensorValue;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An item whose stream INSERT starts one evaluation of (pipeline, date, schedule) (docs/table-design.md). Its fields are also
 * written as top-level attributes so the stream router needs no read.
 *
 * @param suffix   the unique part of the sort key {@code MARKER#<source>#<suffix>}; the writer derives it from
 *                 what caused the marker, so writing the same logical marker twice hits the same key (idempotent)
 * @param replay   process even if the run log is already COMPLETED, and even if the marker is stale
 * @param origin   who caused it: the upstream pipeline for cascades, the rerun id for reruns, a request id for
 *                 manual ones
 * @param carried  state the execution it starts resumes with, merged into its input under the standard fields
 *                 (statemachine/CONTRACT.md §2); only a {@link MarkerSource#MONITORING} successor carries any (the
 *                 monitored run, its traits and baseline), null for every other marker
 */
public record Marker(
        String pipelineId,
        String scheduleId,
        LocalDate date,
        MarkerSource source,
        String suffix,
        boolean replay,
        String origin,
        String originRunId,
        Instant createdAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) Map<String, Object> carried) {

    public Marker {
        carried = carried == null ? null : copyOfCarried(carried);
    }

    /** An ordered, unmodifiable copy of a carried state (empty for none): how every holder of one keeps it. */
    public static Map<String, Object> copyOfCarried(Map<String, Object> carried) {
        return carried == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(carried));
    }

    /** A marker that carries no state (every marker but a monitoring successor). */
    public Marker(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            MarkerSource source,
            String suffix,
            boolean replay,
            String origin,
            String originRunId,
            Instant createdAt) {
        this(pipelineId, scheduleId, date, source, suffix, replay, origin, originRunId, createdAt, null);
    }

    /** Written when {@code upstreamPipeline}'s run completed: one marker per upstream run and downstream. */
    public static Marker cascade(
            String downstream,
            String scheduleId,
            LocalDate date,
            String upstreamPipeline,
            String upstreamRunId,
            Instant now) {
        return new Marker(
                downstream,
                scheduleId,
                date,
                MarkerSource.CASCADE,
                upstreamPipeline + ":" + upstreamRunId,
                false,
                upstreamPipeline,
                upstreamRunId,
                now);
    }

    /** Written by the watchdog when a schedule's window opened without a run: once per (schedule, date). */
    public static Marker schedule(String pipelineId, String scheduleId, LocalDate date, Instant now) {
        return new Marker(
                pipelineId,
                scheduleId,
                date,
                MarkerSource.SCHEDULE,
                date + ":" + scheduleId,
                false,
                "watchdog",
                null,
                now);
    }

    /**
     * Written when a sensor value a trait of the pipeline reads changed: once per (date, schedule) and revision of the
     * value ({@code TableKeys.sensorMarkerSuffix}), however often the same data is pushed.
     */
    public static Marker sensor(String pipelineId, String scheduleId, LocalDate date, SensorValue value, Instant now) {
        return new Marker(
                pipelineId,
                scheduleId,
                date,
                MarkerSource.SENSOR,
                TableKeys.sensorMarkerSuffix(date, scheduleId, value.name(), value.partition(), value.revision()),
                false,
                "sensor:" + value.label(),
                null,
                now);
    }

    /** Written for an operator's evaluation request; {@code requestId} makes each request its own marker. */
    public static Marker manual(String pipelineId, String scheduleId, LocalDate date, String requestId, Instant now) {
        return new Marker(pipelineId, scheduleId, date, MarkerSource.MANUAL, requestId, false, requestId, null, now);
    }

    /**
     * Written for a rerun ({@link MarkerSource#RERUN} for operators, {@link MarkerSource#LATE_ARRIVAL} for drift):
     * a replay, so a COMPLETED run log does not stop it.
     */
    public static Marker rerun(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            MarkerSource source,
            String rerunId,
            String originalRunId,
            Instant now) {
        return new Marker(pipelineId, scheduleId, date, source, rerunId, true, rerunId, originalRunId, now);
    }

    /**
     * Written when an execution hands its remaining work to a new one ({@link MarkerSource#DEFERRED} after waiting
     * for a lock, {@link MarkerSource#RETRY} for a retry its budget cannot hold, {@link MarkerSource#DEFERRED} for
     * work an operator's lock release hands on, {@link MarkerSource#CONTINUATION} for a wait on NOT READY its budget
     * cannot hold): keyed by the handing execution, so a repeated hand-over is one marker.
     * It keeps the {@code replay} flag of the work it carries.
     */
    public static Marker handOver(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            MarkerSource source,
            String predecessor,
            boolean replay,
            Instant now) {
        return new Marker(pipelineId, scheduleId, date, source, predecessor, replay, predecessor, null, now);
    }

    /**
     * Written when monitoring after completion outlasts its execution's budget: the successor execution starts in the
     * monitoring loop with {@code carried} (the monitored run, its traits and baseline, the completion time), keyed by
     * the handing execution so a repeated hand-over is one marker. It replays nothing.
     */
    public static Marker monitoring(
            String pipelineId,
            String scheduleId,
            LocalDate date,
            String predecessor,
            String monitoredRunId,
            Map<String, Object> carried,
            Instant now) {
        return new Marker(
                pipelineId,
                scheduleId,
                date,
                MarkerSource.MONITORING,
                predecessor,
                false,
                predecessor,
                monitoredRunId,
                now,
                carried);
    }

    /** The marker's table key. */
    public ItemKey key() {
        return TableKeys.marker(pipelineId, source.wireName(), suffix);
    }

    /** The execution this marker starts ({@link ExecutionName}). */
    public String executionName() {
        return ExecutionName.of(pipelineId, date, scheduleId, key().sk());
    }

    /**
     * Whether the stream router skips it: {@link #isStale(LocalDate, String, boolean, LocalDate, int)}.
     */
    public boolean isStale(LocalDate today, int staleDays) {
        return isStale(date, source.wireName(), replay, today, staleDays);
    }

    /**
     * Whether the stream router skips a marker of {@code date} from {@code source}: its date is more than
     * {@code staleDays} before {@code today} and it is not a replay (an old cascade must not start a run that can
     * never meet its day's SLA). A marker that carries on an execution's work (a continued wait on NOT READY,
     * monitoring) is never stale: that work is still open, whatever day it is now.
     */
    public static boolean isStale(LocalDate date, String source, boolean replay, LocalDate today, int staleDays) {
        return !replay && !continuesAnExecution(source) && date.isBefore(today.minusDays(staleDays));
    }

    /**
     * Whether a marker of this source (its wire value, as a stream record carries it) carries on work an execution
     * already started for its day ({@link MarkerSource#continuesAnExecution}); an unknown source does not.
     */
    public static boolean continuesAnExecution(String source) {
        return java.util.Arrays.stream(MarkerSource.values())
                .anyMatch(s -> s.wireName().equals(source) && s.continuesAnExecution());
    }
}
