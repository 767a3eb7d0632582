package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.keys.LockKey;
import dev.interlock.model.keys.TableKeys;
import dev.interlock.store.DueEntry;
import dev.interlock.store.LockHolder;
import dev.interlock.store.PageRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The watchdog's holder check: the lock of a holder that ended without its execution-end event is released. */
class HolderCheckDutyTest {

    private static final String ARN = "arn:aws:states:us-east-1:123456789012:execution:interlock:" + Fixture.EXECUTION;

    private final Fixture f = new Fixture();
    private final LockKey key = new LockKey(Fixture.PIPELINE, "daily", Fixture.DATE);

    private void acquire() {
        Map<String, Object> payload = Map.of(
                "owner",
                Fixture.EXECUTION,
                "executionId",
                ARN,
                "executionTimeoutSeconds",
                14400,
                "executionStartTime",
                Fixture.T0.toString());
        assertThat(f.call(f.request(OrchestratorAction.ACQUIRE_LOCK, payload))
                        .path("result")
                        .asText())
                .isEqualTo("proceed");
    }

    private Watchdog.Summary tick() {
        return (Watchdog.Summary)
                new Watchdog(f.collaborators()).run(f.watchdogRequest()).payload();
    }

    private String holder() {
        return f.provider.locks().holder(key).map(LockHolder::owner).orElse(null);
    }

    private List<DueEntry> holderChecks() {
        List<DueEntry> out = new ArrayList<>();
        for (int shard = 0; shard < TableKeys.DUE_SHARDS; shard++) {
            f
                    .provider
                    .watchdog()
                    .due(Fixture.DATE, shard, f.clock.instant().plus(Duration.ofDays(1)), PageRequest.first(100))
                    .items()
                    .stream()
                    .filter(DueEntry::isHolderCheck)
                    .forEach(out::add);
        }
        return out;
    }

    @Test
    void aRunningHolderKeepsItsLockAndIsCheckedAgainAtTheNextTick() {
        acquire();
        assertThat(holderChecks())
                .singleElement()
                .satisfies(e -> assertThat(e.dueAt()).isEqualTo(Fixture.T0.plus(HolderCheckDuty.CHECK_INTERVAL)));
        f.callbacks.executions.put(ARN, "RUNNING");
        f.clock.advance(Duration.ofMinutes(5));

        tick();

        assertThat(f.callbacks.described).containsExactly(ARN);
        assertThat(holder()).isEqualTo(Fixture.EXECUTION);
        assertThat(holderChecks())
                .singleElement()
                .satisfies(e -> assertThat(e.dueAt())
                        .isEqualTo(Fixture.T0.plus(Duration.ofMinutes(5)).plus(HolderCheckDuty.CHECK_INTERVAL)));
        assertThat(f.events(EventKind.LOCK_RELEASED)).isEmpty();
    }

    @Test
    void aTimedOutHolderWhoseEndEventWasLostHasItsLockReleasedAuditedAndAlertedAtTheNextTick() {
        acquire();
        f.provider.locks().recordAbsorbed(key, Fixture.EXECUTION);
        f.callbacks.executions.put(ARN, "TIMED_OUT");
        f.clock.advance(Duration.ofMinutes(5));

        tick();

        assertThat(holder()).isNull();
        assertThat(f.events(EventKind.LOCK_RELEASED))
                .singleElement()
                .satisfies(e -> assertThat(e.details())
                        .containsEntry("previousHolder", Fixture.EXECUTION)
                        .containsEntry("releasedBy", HolderCheckDuty.RELEASED_BY)
                        .containsEntry("executionStatus", "TIMED_OUT"));
        assertThat(f.provider.cascade().markers(Fixture.PIPELINE, Fixture.DATE))
                .as("the absorbed marker handed on")
                .hasSize(1);
        assertThat(f.alerts.sent).anyMatch(a -> a.kind() == AlertKind.EXECUTION_ERROR);
        assertThat(holderChecks()).isEmpty();

        tick();
        assertThat(f.events(EventKind.LOCK_RELEASED)).hasSize(1);
    }

    @Test
    void aLockReleasedNormallyCostsItsCheckOneLockReadAndNoStepFunctionsCall() {
        acquire();
        assertThat(f.provider.locks().release(key, Fixture.EXECUTION)).isTrue();
        f.clock.advance(Duration.ofMinutes(5));

        tick();

        assertThat(f.callbacks.described).isEmpty();
        assertThat(holderChecks()).isEmpty();
        assertThat(f.events(EventKind.LOCK_RELEASED)).isEmpty();
    }

    @Test
    void anAbortedHolderWithoutAbsorbedWorkIsReleasedWithoutAlert() {
        acquire();
        f.callbacks.executions.put(ARN, "ABORTED");
        f.clock.advance(Duration.ofMinutes(5));

        tick();

        assertThat(holder()).isNull();
        assertThat(f.events(EventKind.LOCK_RELEASED)).hasSize(1);
        assertThat(f.alerts.sent).noneMatch(a -> a.kind() == AlertKind.EXECUTION_ERROR);
    }
}
