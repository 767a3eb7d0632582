package dev.interlock.model.status;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.schedule.ScheduleWindow;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class SlaFlagTest {

    private static final LocalDate DATE = LocalDate.parse("2026-03-01");
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final Instant DEADLINE = Instant.parse("2026-03-01T09:00:00Z");

    private static ScheduleWindow window(Instant evaluation, Instant completion) {
        return new ScheduleWindow(
                "daily",
                DATE,
                ZoneId.of("UTC"),
                DATE.atStartOfDay(ZoneId.of("UTC")).toInstant(),
                evaluation,
                null,
                completion);
    }

    private static SlaFlag notDone(Instant now) {
        return SlaFlag.of(DayState.NOT_READY, window(null, DEADLINE), null, null, now, List.of("gold"));
    }

    @Test
    void aDayNotDoneIsOnTrackUntilItsDeadlineIsWithinThirtyMinutesThenAtRiskThenMissed() {
        SlaFlag early = notDone(DEADLINE.minus(SlaFlag.AT_RISK_WITHIN).minusSeconds(1));
        assertThat(early.state()).isEqualTo(SlaState.ON_TRACK);
        assertThat(early.marginSeconds()).isEqualTo(30 * 60 + 1);
        assertThat(early.delays()).as("an upstream on track delays nobody").isEmpty();

        SlaFlag atThreshold = notDone(DEADLINE.minus(SlaFlag.AT_RISK_WITHIN));
        assertThat(atThreshold.state()).isEqualTo(SlaState.AT_RISK);
        assertThat(atThreshold.margin()).isEqualTo("PT30M");
        assertThat(atThreshold.delays()).containsExactly(new SlaFlag.DelayedDay("gold", DATE));

        SlaFlag atDeadline = notDone(DEADLINE);
        assertThat(atDeadline.state()).as("the deadline itself is not yet past").isEqualTo(SlaState.AT_RISK);
        assertThat(atDeadline.marginSeconds()).isZero();

        SlaFlag late = notDone(DEADLINE.plus(Duration.ofMinutes(14)));
        assertThat(late.state()).isEqualTo(SlaState.MISSED);
        assertThat(late.marginSeconds()).isEqualTo(-14 * 60);
        assertThat(Duration.parse(late.margin())).isEqualTo(Duration.ofMinutes(-14));
        assertThat(late.deadline()).isEqualTo(DEADLINE);
        assertThat(late.what()).isEqualTo("completion");
        assertThat(late.delays()).containsExactly(new SlaFlag.DelayedDay("gold", DATE));
    }

    @Test
    void aCompletedDayIsJudgedByWhenItCompletedAndDelaysNobody() {
        SlaFlag inTime = SlaFlag.of(
                DayState.COMPLETED,
                window(null, DEADLINE),
                null,
                DEADLINE.minusSeconds(600),
                DEADLINE.plusSeconds(3600),
                List.of("gold"));
        assertThat(inTime.state()).isEqualTo(SlaState.ON_TRACK);
        assertThat(inTime.marginSeconds()).isEqualTo(600);
        assertThat(inTime.delays()).isEmpty();

        SlaFlag completedLate = SlaFlag.of(
                DayState.MONITORING,
                window(null, DEADLINE),
                null,
                DEADLINE.plusSeconds(90),
                DEADLINE.plusSeconds(3600),
                List.of("gold"));
        assertThat(completedLate.state()).isEqualTo(SlaState.MISSED);
        assertThat(completedLate.marginSeconds()).isEqualTo(-90);
        assertThat(completedLate.delays()).isEmpty();
    }

    @Test
    void withoutACompletionDeadlineTheDayIsHeldToItsEvaluationDeadlineAndTriggeringMeetsIt() {
        SlaFlag running = SlaFlag.of(
                DayState.RUNNING,
                window(DEADLINE, null),
                DEADLINE.minusSeconds(60),
                null,
                DEADLINE.plusSeconds(600),
                List.of());
        assertThat(running.what()).isEqualTo("evaluation");
        assertThat(running.state()).isEqualTo(SlaState.ON_TRACK);
        assertThat(running.marginSeconds()).isEqualTo(60);

        SlaFlag waiting =
                SlaFlag.of(DayState.NOT_READY, window(DEADLINE, null), null, null, DEADLINE.plusSeconds(1), List.of());
        assertThat(waiting.state()).isEqualTo(SlaState.MISSED);
    }

    @Test
    void noDeadlineOrADayNotRunHasNoFlag() {
        assertThat(SlaFlag.of(DayState.NOT_READY, window(null, null), null, null, DEADLINE, List.of()))
                .isNull();
        for (DayState state : List.of(DayState.EXCLUDED, DayState.SKIPPED, DayState.DRY_RUN)) {
            assertThat(SlaFlag.of(state, window(null, DEADLINE), null, null, DEADLINE, List.of()))
                    .isNull();
        }
    }

    @Test
    void aDeadlineAfterMidnightInANonUtcZoneIsJudgedOnTheNextCalendarDay() {
        // 23:50 in New York on the execution date; the deadline is "00:20" (rolled past the opening to the next day).
        Instant deadline = ScheduleWindow.deadline(
                "00:20", DATE, NEW_YORK, DATE.atTime(23, 0).atZone(NEW_YORK).toInstant());
        assertThat(deadline).isEqualTo(Instant.parse("2026-03-02T05:20:00Z"));
        ScheduleWindow window = new ScheduleWindow(
                "daily", DATE, NEW_YORK, DATE.atTime(23, 0).atZone(NEW_YORK).toInstant(), null, null, deadline);
        Instant beforeMidnight = DATE.atTime(23, 40).atZone(NEW_YORK).toInstant();
        SlaFlag flag = SlaFlag.of(DayState.NOT_READY, window, null, null, beforeMidnight, List.of("gold"));
        assertThat(flag.state()).isEqualTo(SlaState.ON_TRACK);
        assertThat(flag.marginSeconds()).isEqualTo(40 * 60);
        assertThat(flag.delays()).isEmpty();

        Instant afterMidnight = DATE.plusDays(1).atTime(0, 5).atZone(NEW_YORK).toInstant();
        SlaFlag risky = SlaFlag.of(DayState.NOT_READY, window, null, null, afterMidnight, List.of("gold"));
        assertThat(risky.state()).isEqualTo(SlaState.AT_RISK);
        assertThat(risky.marginSeconds()).isEqualTo(15 * 60);
        assertThat(risky.delays())
                .as("the downstream day delayed is the upstream's execution date, not the calendar day")
                .containsExactly(new SlaFlag.DelayedDay("gold", DATE));

        Instant late = DATE.plusDays(1).atTime(0, 21).atZone(NEW_YORK).toInstant();
        assertThat(SlaFlag.of(DayState.NOT_READY, window, null, null, late, List.of())
                        .state())
                .isEqualTo(SlaState.MISSED);
    }
}
