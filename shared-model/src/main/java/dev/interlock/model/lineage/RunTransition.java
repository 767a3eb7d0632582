package dev.interlock.model.lineage;

import dev.interlock.model.run.JobStop;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import java.util.List;

/**
 * Which OpenLineage events one recorded change of a run's status means (docs/openlineage.md): the one home of the
 * rule, whichever function recorded the change. A job is started when its run reaches {@code TRIGGERING}'s far side;
 * a run that never triggered (cancelled or failed while {@code PENDING}) started no job and emits nothing. A started
 * run that ends aborted ({@link JobStop#aborted}: cancelled, or its job stopped) is an {@code ABORT}, not a
 * {@code FAIL}.
 */
public final class RunTransition {

    private RunTransition() {}

    /**
     * The events, in order, for a run recorded as {@code before} (null: just created) and then {@code after}: by their
     * statuses ({@link #events(RunStatus, RunStatus)}), with the end {@code ABORT} when the run ended aborted.
     */
    public static List<LineageEventType> events(RunState before, RunState after) {
        List<LineageEventType> events = events(before == null ? null : before.status(), after.status());
        if (!JobStop.aborted(after)) {
            return events;
        }
        return events.stream()
                .map(type -> type == LineageEventType.FAIL ? LineageEventType.ABORT : type)
                .toList();
    }

    /**
     * The events, in order, for a run moving from {@code before} (null: the run was just created) to {@code after}.
     * The same change seen twice gives the same events, so a consumer that keys on run id and type sees duplicates only.
     */
    public static List<LineageEventType> events(RunStatus before, RunStatus after) {
        if (after == null || after == before) {
            return List.of();
        }
        boolean started = before == RunStatus.RUNNING || before == RunStatus.COMPLETED_MONITORING;
        boolean triggering = before == RunStatus.TRIGGERING;
        return switch (after) {
            case PENDING, TRIGGERING -> List.of();
            case RUNNING -> List.of(LineageEventType.START);
            // A synchronous job (http, lambda) ends inside its trigger call: its start is reported with its end.
            case COMPLETED_MONITORING, COMPLETED ->
                before == RunStatus.COMPLETED_MONITORING
                        ? List.of()
                        : started
                                ? List.of(LineageEventType.COMPLETE)
                                : triggering ? List.of(LineageEventType.START, LineageEventType.COMPLETE) : List.of();
            case FAILED ->
                started
                        ? List.of(LineageEventType.FAIL)
                        : triggering ? List.of(LineageEventType.START, LineageEventType.FAIL) : List.of();
            case CANCELLED ->
                started
                        ? List.of(LineageEventType.ABORT)
                        : triggering ? List.of(LineageEventType.START, LineageEventType.ABORT) : List.of();
        };
    }
}
