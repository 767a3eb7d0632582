package dev.interlock.model.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.event.Event;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The timeline's phases of a monitored run: the watch for late data is a bar of its own, from the completion. */
class DayTimelineTest {

    private static final LocalDate DAY = LocalDate.of(2026, 3, 10);
    private static final Instant CREATED = Instant.parse("2026-03-10T08:00:00Z");
    private static final Instant COMPLETED = Instant.parse("2026-03-10T08:10:00Z");

    private static final RunState RUN = new RunState(
            "r1",
            "silver",
            "daily",
            DAY,
            RunStatus.COMPLETED,
            3,
            TriggerType.HTTP,
            "exec",
            Map.of(),
            null,
            null,
            CREATED,
            COMPLETED);

    private static Event event(EventKind kind, String status, Map<String, Object> details, Instant at) {
        return new Event(kind, "silver", "daily", DAY, "r1", null, status, kind.wireName(), details, at);
    }

    private static final Event WAITING = event(
            EventKind.MONITORING_WAITING,
            "STARTED",
            Map.of("monitoringEndsAt", "2026-03-10T09:10:00.000Z"),
            COMPLETED.plusSeconds(1));

    private static List<DayTimeline.Phase> monitoring(DayTimeline timeline) {
        return timeline.phases().stream()
                .filter(p -> p.phase() == DayTimeline.PhaseKind.MONITORING)
                .toList();
    }

    @Test
    void aRunStillWatchedHasAnOngoingMonitoringBarFromItsCompletion() {
        Instant now = Instant.parse("2026-03-10T08:30:00Z");

        DayTimeline timeline = DayTimeline.derive("silver", DAY, List.of(WAITING), List.of(RUN), true, now);

        assertThat(monitoring(timeline))
                .containsExactly(new DayTimeline.Phase(
                        "daily", "r1", 1, DayTimeline.PhaseKind.MONITORING, COMPLETED, now, true, null));
    }

    @Test
    void aWatchThatEndedEndsWhereTheLoopEndedIt() {
        Instant expired = Instant.parse("2026-03-10T09:12:00Z");
        List<Event> events = List.of(WAITING, event(EventKind.MONITORING_COMPLETED, "EXPIRED", Map.of(), expired));

        DayTimeline timeline =
                DayTimeline.derive("silver", DAY, events, List.of(RUN), true, Instant.parse("2026-03-10T12:00:00Z"));

        assertThat(monitoring(timeline))
                .containsExactly(new DayTimeline.Phase(
                        "daily", "r1", 1, DayTimeline.PhaseKind.MONITORING, COMPLETED, expired, false, "EXPIRED"));
    }

    @Test
    void anUnmonitoredRunHasNoMonitoringBar() {
        DayTimeline timeline =
                DayTimeline.derive("silver", DAY, List.of(), List.of(RUN), true, Instant.parse("2026-03-10T08:30:00Z"));

        assertThat(monitoring(timeline)).isEmpty();
    }
}
