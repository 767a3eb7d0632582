package dev.interlock.model.lineage;

import dev.interlock.model.run.JobStop;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * Which OpenLineage events one recorded change of a run means (docs/openlineage.md): the one home of the rule,
 * whichever function recorded the change.
 *
 * <ul>
 *   <li>{@code START}: the run passed {@code TRIGGERING} (its job was started). A run that never triggered (cancelled
 *       or failed while {@code PENDING}) started no job and emits nothing.
 *   <li>{@code COMPLETE}: the run's day was recorded COMPLETED ({@link RunState#dayCompletedAt} set) — after its
 *       post-run checks passed — not when the job system said the job succeeded: a job that succeeded but fails its
 *       checks is never reported complete. A job that succeeded after Interlock recorded it FAILED (its day completed
 *       late) is a {@code COMPLETE} after its {@code FAIL}: the job's own end is the truth.
 *   <li>{@code FAIL}: a started run ended FAILED, including a job that succeeded but failed its post-run checks
 *       (COMPLETED → FAILED {@code VERIFICATION}).
 *   <li>{@code ABORT}: a started run that ends aborted ({@link JobStop#aborted}: cancelled, or its job stopped).
 * </ul>
 *
 * The same change seen twice gives the same events, so a consumer that keys on run id and type sees duplicates only.
 */
public final class RunTransition {

    private RunTransition() {}

    /** The events, in order, for a run recorded as {@code before} (null: just created) and then {@code after}. */
    public static List<LineageEventType> events(RunState before, RunState after) {
        List<LineageEventType> events =
                new ArrayList<>(byStatus(before == null ? null : before.status(), after.status()));
        if (JobStop.aborted(after)) {
            events.replaceAll(type -> type == LineageEventType.FAIL ? LineageEventType.ABORT : type);
        }
        if (after.status() == RunStatus.COMPLETED
                && after.dayCompletedAt() != null
                && (before == null || before.dayCompletedAt() == null)) {
            events.add(LineageEventType.COMPLETE);
        }
        return List.copyOf(events);
    }

    /**
     * The start and failure events for a run moving from {@code before} (null: just created) to {@code after}; a
     * completion is no status change of its own ({@link #events(RunState, RunState)}).
     */
    private static List<LineageEventType> byStatus(RunStatus before, RunStatus after) {
        if (after == null || after == before) {
            return List.of();
        }
        boolean started = before == RunStatus.RUNNING
                || before == RunStatus.COMPLETED_MONITORING
                || before == RunStatus.COMPLETED;
        boolean triggering = before == RunStatus.TRIGGERING;
        return switch (after) {
            case PENDING, TRIGGERING -> List.of();
            case RUNNING -> List.of(LineageEventType.START);
            // A synchronous job (http, lambda) ends inside its trigger call: its start is reported with its end.
            case COMPLETED_MONITORING, COMPLETED -> triggering ? List.of(LineageEventType.START) : List.of();
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
