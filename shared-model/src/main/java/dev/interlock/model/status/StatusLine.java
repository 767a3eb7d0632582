package dev.interlock.model.status;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.interlock.model.force.Forced;
import dev.interlock.model.json.Frozen;
import dev.interlock.model.pause.Pause;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One pipeline day in one line (the overview, {@code GET /status}): the pipeline's own date, the zone its times are
 * shown in and the most urgent schedule's state, reason and next action, every schedule's state, the cascade edges so
 * a reader can draw the graph, the SLA flag of the schedule furthest behind its deadline (missed before at risk before
 * on track; the earlier deadline on a tie), the pipeline's tier and whose it is (owner, team, labels: what the console
 * filters by), the mute that covers it and its
 * pause, and who forced a schedule of the day ready and why (the first schedule's, when several were).
 */
public record StatusLine(
        String pipelineId,
        LocalDate date,
        String zone,
        DayState state,
        String reason,
        String scheduleId,
        ScheduleStatus.NextAction nextAction,
        List<ScheduleState> schedules,
        List<String> upstreams,
        List<String> downstreams,
        SlaFlag sla,
        int tier,
        @JsonInclude(JsonInclude.Include.NON_NULL) String owner,
        @JsonInclude(JsonInclude.Include.NON_NULL) String team,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> labels,
        @JsonInclude(JsonInclude.Include.NON_NULL) PipelineDayStatus.MuteNote muted,
        @JsonInclude(JsonInclude.Include.NON_NULL) Pause paused,
        @JsonInclude(JsonInclude.Include.NON_NULL) Forced forced) {
    public StatusLine {
        schedules = Frozen.list(schedules);
        upstreams = Frozen.list(upstreams);
        downstreams = Frozen.list(downstreams);
    }

    /** A schedule's state in the overview. */
    public record ScheduleState(String scheduleId, DayState state) {}

    /** The line of a pipeline day of a pipeline of {@code tier}. */
    public static StatusLine of(PipelineDayStatus status, int tier) {
        ScheduleStatus head = status.headline();
        return new StatusLine(
                status.pipelineId(),
                status.date(),
                head.window() == null ? status.zone() : head.window().zone(),
                head.state(),
                head.reason(),
                head.scheduleId(),
                head.nextAction(),
                status.schedules().stream()
                        .map(s -> new ScheduleState(s.scheduleId(), s.state()))
                        .toList(),
                status.upstreams(),
                status.downstreams(),
                worst(status.schedules()),
                tier,
                status.ownership() == null ? null : status.ownership().owner(),
                status.ownership() == null ? null : status.ownership().team(),
                status.ownership() == null ? Map.of() : status.ownership().labels(),
                status.muted(),
                status.paused(),
                status.schedules().stream()
                        .map(ScheduleStatus::forced)
                        .filter(Objects::nonNull)
                        .findFirst()
                        .orElse(null));
    }

    private static SlaFlag worst(List<ScheduleStatus> schedules) {
        return schedules.stream()
                .map(ScheduleStatus::sla)
                .filter(Objects::nonNull)
                .max(Comparator.comparingInt((SlaFlag f) -> f.state().ordinal())
                        .thenComparing(SlaFlag::deadline, Comparator.reverseOrder()))
                .orElse(null);
    }
}
