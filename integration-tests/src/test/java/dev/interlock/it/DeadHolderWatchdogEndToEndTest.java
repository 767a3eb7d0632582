package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.runtime.ExecutionEndRule;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionListItem;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * A lock whose holder execution ended while its execution-end event was lost (the rule disabled, the delivery
 * failed): the watchdog's holder check finds the ended holder within one tick and releases the lock as the event would
 * have — audited, the absorbed work handed on and run, on-call alerted — instead of the day waiting for the lock's
 * TTL.
 */
class DeadHolderWatchdogEndToEndTest extends EndToEnd {

    private String lockPath(String pipeline, LocalDate date) {
        return "/pipelines/" + pipeline + "/locks/daily/" + date;
    }

    private String lockOwner(String pipeline, LocalDate date) {
        Response lock = call("GET", lockPath(pipeline, date), null, null);
        return lock.status() == 404 ? "" : lock.body().path("owner").asText();
    }

    @Test
    void anAbortedHolderWhoseEndEventWasLostHasItsLockReleasedByTheNextWatchdogTick() {
        LocalDate date = today();
        putPipeline(waitingForSensor("dh-lost"));
        String holder = evaluate("dh-lost", date);
        awaitNotReady("dh-lost");
        String absorbed = evaluate("dh-lost", date);
        assertThat(awaitDone(absorbed)).isEqualTo(ExecutionStatus.SUCCEEDED);

        // While the holder runs, the watchdog's ticks leave its lock alone.
        invokeWatchdog();
        invokeWatchdog();
        assertThat(status(arnOf(holder))).isEqualTo(ExecutionStatus.RUNNING);
        assertThat(lockOwner("dh-lost", date)).isEqualTo(holder);

        // The on-call engineer aborts the holder while the execution-end rule is disabled: the event is lost.
        rt.eventBus().disableRule(ExecutionEndRule.RULE_ID);
        try {
            aws.stepFunctions()
                    .stopExecution(b -> b.executionArn(arnOf(holder)).cause("aborted by the on-call engineer"));
            assertThat(awaitDone(holder)).isEqualTo(ExecutionStatus.ABORTED);
        } finally {
            rt.eventBus().enableRule(ExecutionEndRule.RULE_ID);
        }
        assertThat(lockOwner("dh-lost", date))
                .as("no execution-end event released it")
                .isEqualTo(holder);

        // The next watchdog tick once the holder check is due (a scaled minute after it was last written) releases it,
        // with its audit (a lock that merely expired by its TTL has none); the successor that takes over the absorbed
        // work may take the lock at once.
        JsonNode audit = await(
                        "the lock released by a watchdog tick",
                        () -> {
                            invokeWatchdog();
                            return eventsOf("dh-lost", "LOCK_RELEASED");
                        },
                        l -> !l.isEmpty())
                .getFirst();
        assertThat(lockOwner("dh-lost", date)).isNotEqualTo(holder);
        assertThat(audit.path("details").path("previousHolder").asText()).isEqualTo(holder);
        assertThat(audit.path("details").path("releasedBy").asText()).isEqualTo("interlock (watchdog)");
        assertThat(audit.path("details").path("executionStatus").asText()).isEqualTo("ABORTED");
        assertThat(alerts("dh-lost"))
                .as("the holder had absorbed a marker's work and its end went unseen: on-call hears of it")
                .anyMatch(a -> a.path("kind").asText().equals("EXECUTION_ERROR"));

        // The absorbed marker is handed on to a new execution, which evaluates the day until the data lands.
        List<String> successors = await(
                "the absorbed marker handed on to a new execution",
                () -> executions("dh-lost").stream()
                        .map(ExecutionListItem::name)
                        .filter(n -> !n.equals(holder) && !n.equals(absorbed))
                        .toList(),
                l -> !l.isEmpty());
        assertThat(successors).hasSize(1);
        JsonNode arrival = expect(200, "PUT", "/sensors/dh-lost-src", "application/json", "{\"count\":5}");
        assertThat(awaitDone(successors.getFirst())).isEqualTo(ExecutionStatus.SUCCEEDED);
        for (JsonNode started : arrival.path("evaluations")) {
            assertThat(awaitDone(started.path("executionName").asText())).isEqualTo(ExecutionStatus.SUCCEEDED);
        }
        assertThat(runLogStatus("dh-lost", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("dh-lost")).isEqualTo(1);

        // A later tick finds nothing more to do for this lock: its entries are gone.
        invokeWatchdog();
        assertThat(eventsOf("dh-lost", "LOCK_RELEASED")).hasSize(1);
    }
}
