package dev.interlock.model.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.run.RunLogStatus;
import dev.interlock.testing.Documents;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BackfillPlanTest {

    private static final LocalDate MON = LocalDate.parse("2026-03-02");
    /** Thursday 07:00 UTC: Thursday's 08:00 window has not opened yet. */
    private static final Instant THURSDAY_0700 = Instant.parse("2026-03-05T07:00:00Z");

    private static PipelineConfig config(String yaml) {
        return Documents.read(
                "name: orders\narchetype: batch-ingestion\ntrigger: {type: http, url: https://x.example.com}\n" + yaml,
                PipelineConfig.class);
    }

    /** Monday COMPLETED, Tuesday FAILED, Wednesday never ran; Wednesday excluded when {@code excludeWednesday}. */
    private static BackfillPlan.DayFacts facts(boolean excludeWednesday) {
        Map<LocalDate, RunLogStatus> logs = Map.of(MON, RunLogStatus.COMPLETED, MON.plusDays(1), RunLogStatus.FAILED);
        return new BackfillPlan.DayFacts() {
            @Override
            public Optional<RunLogStatus> runLog(LocalDate date, String scheduleId) {
                return Optional.ofNullable(logs.get(date));
            }

            @Override
            public Optional<String> excluded(LocalDate date) {
                return excludeWednesday && date.equals(MON.plusDays(2)) ? Optional.of("a holiday") : Optional.empty();
            }
        };
    }

    private static List<String> shown(List<BackfillDay> days) {
        return days.stream()
                .map(d -> d.date() + " " + d.status() + " " + d.reason())
                .toList();
    }

    @Test
    void eachModeRunsItsDaysAndSaysWhyTheOthersAreSkipped() {
        PipelineConfig daily = config("schedules: [{name: daily, after: '08:00'}]");
        LocalDate thu = MON.plusDays(3);

        assertThat(shown(BackfillPlan.plan(
                        daily,
                        List.of("daily"),
                        MON,
                        thu,
                        BackfillMode.MISSING,
                        BackfillOrder.OLDEST,
                        facts(false),
                        THURSDAY_0700)))
                .containsExactly(
                        "2026-03-02 SKIPPED completed already (mode missing runs days never completed)",
                        "2026-03-03 PENDING last run FAILED",
                        "2026-03-04 PENDING never ran",
                        "2026-03-05 SKIPPED its window opens at 2026-03-05 08:00 +00:00, after the backfill was asked for");
        assertThat(shown(BackfillPlan.plan(
                        daily,
                        List.of("daily"),
                        MON,
                        MON.plusDays(2),
                        BackfillMode.FAILED,
                        BackfillOrder.NEWEST,
                        facts(false),
                        THURSDAY_0700)))
                .containsExactly(
                        "2026-03-04 SKIPPED never ran (mode failed runs failed days only)",
                        "2026-03-03 PENDING last run FAILED",
                        "2026-03-02 SKIPPED last run COMPLETED (mode failed runs failed days only)");
        assertThat(shown(BackfillPlan.plan(
                        daily,
                        List.of("daily"),
                        MON,
                        MON.plusDays(2),
                        BackfillMode.ALL,
                        BackfillOrder.OLDEST,
                        facts(true),
                        THURSDAY_0700)))
                .containsExactly(
                        "2026-03-02 PENDING last run COMPLETED; mode all runs it again",
                        "2026-03-03 PENDING last run FAILED",
                        "2026-03-04 SKIPPED excluded: a holiday");
    }

    @Test
    void aCronScheduleRunsEachOfItsWindowsAndTheirNumberIsBounded() {
        PipelineConfig hourly = config("schedules: [{name: hourly, cron: '0 */6 * * *'}]");

        List<BackfillDay> days = BackfillPlan.plan(
                hourly,
                List.of("hourly"),
                MON,
                MON,
                BackfillMode.ALL,
                BackfillOrder.OLDEST,
                facts(false),
                THURSDAY_0700);

        assertThat(days)
                .extracting(BackfillDay::scheduleId)
                .containsExactly("hourly.0000", "hourly.0600", "hourly.1200", "hourly.1800");
        assertThat(BackfillPlan.windows(hourly, List.of("hourly"), MON, MON.plusDays(1)))
                .isEqualTo(8);
        assertThat(BackfillPlan.windows(hourly, List.of("hourly"), MON, MON.plusDays(365)))
                .isGreaterThan(Backfill.MAX_WINDOWS);
    }

    @Test
    void aBackfillStartsItsNextDayOnlyBelowItsConcurrencyAndACancelSkipsWhatIsPending() {
        List<BackfillDay> days = List.of(
                BackfillDay.pending(MON, "daily", "never ran"),
                BackfillDay.pending(MON.plusDays(1), "daily", "never ran"),
                BackfillDay.pending(MON.plusDays(2), "daily", "never ran"));
        Backfill b = new Backfill(
                "bf",
                "orders",
                MON,
                MON.plusDays(2),
                List.of("daily"),
                BackfillMode.MISSING,
                1,
                BackfillOrder.OLDEST,
                false,
                "why",
                "ops",
                THURSDAY_0700,
                BackfillStatus.RUNNING,
                null,
                null,
                THURSDAY_0700,
                null,
                false,
                1,
                days);

        assertThat(b.nextToStart()).contains(0);
        Backfill one = b.withDay(0, d -> d.started("bf-1", "exec-1", THURSDAY_0700), THURSDAY_0700);
        assertThat(one.nextToStart()).as("one runs, one at a time").isEmpty();
        Backfill cancelled = one.cancelled("ana", "wrong range", THURSDAY_0700);
        assertThat(cancelled.status()).isEqualTo(BackfillStatus.CANCELLING);
        assertThat(cancelled.counts()).isEqualTo(new Backfill.Counts(3, 0, 1, 0, 0, 2));
        assertThat(cancelled.days().get(2).reason()).isEqualTo("cancelled by ana: wrong range");
        assertThat(cancelled.isDone()).as("its running day finishes first").isFalse();
        Backfill finished = cancelled.withDay(
                0, d -> d.ended(BackfillDayStatus.COMPLETED, null, "run-1", THURSDAY_0700), THURSDAY_0700);
        assertThat(finished.isDone()).isTrue();
        assertThat(finished.ended(THURSDAY_0700).status()).isEqualTo(BackfillStatus.CANCELLED);
        assertThat(finished.ended(THURSDAY_0700).summary())
                .isEqualTo(
                        "backfill bf of orders (2026-03-02 to 2026-03-04) CANCELLED: 1 completed, 0 failed, 2 skipped"
                                + " of 3; cancelled by ana");
    }
}
