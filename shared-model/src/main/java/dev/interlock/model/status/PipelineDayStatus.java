package dev.interlock.model.status;

import dev.interlock.model.json.Frozen;
import java.time.LocalDate;
import java.util.Comparator;
import java.util.List;

/**
 * The status of one pipeline day: every schedule's {@link ScheduleStatus}. {@code zone} is the pipeline's zone, in
 * which {@code date} was read when the caller gave none; {@code upstreams} and {@code downstreams} are the cascade
 * edges (pipeline ids, in name order).
 */
public record PipelineDayStatus(
        String pipelineId,
        LocalDate date,
        String zone,
        List<ScheduleStatus> schedules,
        List<String> upstreams,
        List<String> downstreams) {
    public PipelineDayStatus {
        schedules = Frozen.list(schedules);
        upstreams = Frozen.list(upstreams);
        downstreams = Frozen.list(downstreams);
    }

    /** The schedule a person should look at first: the most urgent state, the first schedule on a tie. */
    public ScheduleStatus headline() {
        return schedules.stream()
                .max(Comparator.comparingInt((ScheduleStatus s) -> s.state().urgency())
                        .thenComparing(s -> -schedules.indexOf(s)))
                .orElseThrow();
    }
}
