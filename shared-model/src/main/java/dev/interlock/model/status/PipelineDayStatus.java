package dev.interlock.model.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.alert.Mute;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.pause.Pause;
import dev.interlock.model.pipeline.Ownership;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The status of one pipeline day: every schedule's {@link ScheduleStatus}. {@code zone} is the pipeline's zone, in
 * which {@code date} was read when the caller gave none; {@code upstreams} and {@code downstreams} are the cascade
 * edges (pipeline ids, in name order); {@code ownership} says whose it is, and {@code muted} the mute that silences
 * (or, planned, will silence) its alerts, null when none; {@code paused} the pause that stops new executions of it,
 * null when it runs.
 */
public record PipelineDayStatus(
        String pipelineId,
        LocalDate date,
        String zone,
        List<ScheduleStatus> schedules,
        List<String> upstreams,
        List<String> downstreams,
        @JsonInclude(JsonInclude.Include.NON_NULL) Ownership ownership,
        @JsonInclude(JsonInclude.Include.NON_NULL) MuteNote muted,
        @JsonInclude(JsonInclude.Include.NON_NULL) Pause paused) {
    public PipelineDayStatus {
        schedules = Frozen.list(schedules);
        upstreams = Frozen.list(upstreams);
        downstreams = Frozen.list(downstreams);
    }

    /** A status not yet told whose it is or whether it is muted. */
    public PipelineDayStatus(
            String pipelineId,
            LocalDate date,
            String zone,
            List<ScheduleStatus> schedules,
            List<String> upstreams,
            List<String> downstreams) {
        this(pipelineId, date, zone, schedules, upstreams, downstreams, null, null, null);
    }

    /** This status with whose it is and the mute that covers it (null: none). */
    public PipelineDayStatus routed(Ownership ownership, MuteNote muted) {
        return new PipelineDayStatus(
                pipelineId, date, zone, schedules, upstreams, downstreams, ownership, muted, paused);
    }

    /** This status of a pipeline paused by {@code pause}: its schedules as {@link StatusDerivation#paused} says. */
    public PipelineDayStatus paused(Pause pause) {
        return new PipelineDayStatus(
                pipelineId,
                date,
                zone,
                schedules.stream().map(s -> StatusDerivation.paused(s, pause)).toList(),
                upstreams,
                downstreams,
                ownership,
                muted,
                pause);
    }

    /**
     * A mute as a status shows it: {@code active} now or {@code planned} (ahead), with its scope, target, window, who
     * and why.
     */
    public record MuteNote(
            String state, String scope, String target, Instant from, Instant until, String reason, String mutedBy) {

        /** The note of the first mute that is active at {@code now}, else the first planned one; empty when none. */
        public static Optional<MuteNote> of(List<Mute> mutes, Instant now) {
            return mutes.stream()
                    .filter(m -> !m.endedAt(now))
                    .min(Comparator.comparing((Mute m) -> !m.activeAt(now)).thenComparing(Mute::from))
                    .map(m -> new MuteNote(
                            m.activeAt(now) ? "active" : "planned",
                            m.scope().wireName(),
                            m.target(),
                            m.from(),
                            m.until(),
                            m.reason(),
                            m.mutedBy()));
        }
    }

    /** The schedule a person should look at first: the most urgent state, the first schedule on a tie. */
    public ScheduleStatus headline() {
        return schedules.stream()
                .max(Comparator.comparingInt((ScheduleStatus s) -> s.state().urgency())
                        .thenComparing(s -> -schedules.indexOf(s)))
                .orElseThrow();
    }
}
