package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Restarts lose no wait, with a real {@code kill -9} of {@code interlock up} while a fleet of cascades runs: 32
 * pipelines (8 cascades {@code a → b → c, d}, synchronous HTTP jobs of 1 s on a job server outside the runtime),
 * killed once while root jobs run and once while {@code b} jobs run, each time restarted on the same data directory
 * (where one interrupted execution's journal is left ending in a torn line, as a kill mid-write leaves it). Every day
 * completes, every job is started exactly once (the retried trigger's {@code Idempotency-Key} replays the
 * job it had started), no day is left TRIGGERING or FAILED, no execution fails, and nothing alerts. The 240-pipeline
 * soak that prints its numbers is {@link KillNineSoak} (benchmarks profile). See {@link KillNineFleet}.
 */
class KillNineFleetTest {

    @Test
    void aFleetOfCascadesKilledTwiceMidTriggerLosesNoDayAndStartsNoJobTwice(@TempDir Path dataDir) throws Exception {
        // The runtime's JVM compiles with C1 only: it starts in half the time on two busy cores, and three starts are
        // most of this test's time.
        KillNineFleet.Settings settings = new KillNineFleet.Settings(
                8,
                Duration.ofMillis(1000),
                10.0,
                List.of(0, 1),
                List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"),
                Duration.ofMinutes(3));

        KillNineFleet.Report report = new KillNineFleet(settings, System.out).run(dataDir);

        assertThat(report.kills()).hasSize(2).allSatisfy(kill -> {
            assertThat(kill.exitCode()).as("killed by SIGKILL").isEqualTo(137);
            assertThat(kill.runningJobs())
                    .as("kill %d came while jobs of level %d ran", kill.number(), kill.level())
                    .anyMatch(job -> KillNineFleet.levelOf(job) == kill.level());
            assertThat(kill.recovered())
                    .as("kill %d: the days whose jobs ran at the kill completed after the restart", kill.number())
                    .isNotNull();
        });
        assertThat(report.days()).hasSize(32).allSatisfy(day -> {
            assertThat(day.runLog()).as(day.pipeline() + "'s run log").isEqualTo("COMPLETED");
            assertThat(day.runs()).as(day.pipeline() + "'s runs").containsExactly("COMPLETED");
            assertThat(day.jobStarts())
                    .as(day.pipeline() + "'s job started exactly once")
                    .isEqualTo(1);
            assertThat(day.alerts())
                    .as(day.pipeline() + "'s alerts")
                    .doesNotContainAnyElementsOf(KillNineFleet.FORBIDDEN_ALERTS);
        });
        // Each job that ran when its runtime died was asked for again by the retried trigger, with the same key.
        List<String> interrupted =
                report.kills().stream().flatMap(k -> k.runningJobs().stream()).toList();
        assertThat(report.days())
                .filteredOn(day -> interrupted.contains(day.pipeline()))
                .allSatisfy(day -> assertThat(day.replays())
                        .as(day.pipeline() + ": its Idempotency-Key replayed")
                        .isPositive());
        // One execution per day, each SUCCEEDED: the executions whose journals a kill tore are among them.
        assertThat(report.kills())
                .allSatisfy(kill -> assertThat(kill.tornJournal()).isNotNull());
        assertThat(report.executionsByStatus()).containsExactly(java.util.Map.entry("SUCCEEDED", 32L));
    }
}
