package dev.interlock.model.status;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.trait.PostRunVerdict;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * A schedule day's post-run checks as its status shows them: the latest {@code POST_RUN_CHECKED} event, whose details
 * {@link PostRunVerdict#details()} wrote.
 */
final class PostRunChecked {

    private PostRunChecked() {}

    /** The latest {@code POST_RUN_CHECKED} of one schedule's day (its events), null when no run was checked. */
    static ScheduleStatus.PostRun latest(List<Event> events) {
        Event checked = events.stream()
                .filter(e -> e.kind() == EventKind.POST_RUN_CHECKED)
                .max(Comparator.comparing(Event::timestamp))
                .orElse(null);
        if (checked == null) {
            return null;
        }
        List<ScheduleStatus.PostRun.Check> checks = new ArrayList<>();
        Object listed = checked.details() == null ? null : checked.details().get(PostRunVerdict.CHECKS);
        if (listed instanceof List<?> items) {
            for (Object item : items) {
                if (item instanceof Map<?, ?> c) {
                    Object reason = c.get(PostRunVerdict.REASON);
                    checks.add(new ScheduleStatus.PostRun.Check(
                            String.valueOf(c.get(PostRunVerdict.NAME)),
                            String.valueOf(c.get(PostRunVerdict.STATUS)),
                            !Boolean.FALSE.equals(c.get(PostRunVerdict.REQUIRED)),
                            reason == null ? null : String.valueOf(reason)));
                }
            }
        }
        return new ScheduleStatus.PostRun(checked.runId(), checked.status(), checked.timestamp(), checks);
    }
}
