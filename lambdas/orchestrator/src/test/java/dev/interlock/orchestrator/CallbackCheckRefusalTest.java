package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.jobs.RunCheck;
import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.alert.AlertKind;
import dev.interlock.model.event.EventKind;
import dev.interlock.model.run.RunState;
import dev.interlock.model.run.RunStatus;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.wiring.alert.AlertPublisher;
import dev.interlock.wiring.alert.DeduplicatedAlerts;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CallbackCheckRefusalTest {

    private final Fixture f = new Fixture();

    @Test
    void twoWatchdogTicksReportingOneRefusalAtOnceSendOneAlert() {
        // Two ticks overlap (the one at a runtime's start and the schedule's, or two Lambda invocations): the second
        // reports the same refusal while the first is still publishing its alert.
        AtomicReference<Runnable> whilePublishing = new AtomicReference<>();
        AlertPublisher publisher = alert -> {
            f.alerts.publish(alert);
            Runnable second = whilePublishing.getAndSet(null);
            if (second != null) {
                second.run();
            }
        };
        StructuredLog log =
                new StructuredLog("orchestrator", new PrintStream(f.logs, true, StandardCharsets.UTF_8), f.clock);
        CallbackCheckRefusal refusal = new CallbackCheckRefusal(new Collaborators(
                f.provider,
                f.clock,
                new DeduplicatedAlerts(f.provider.alerts(), publisher, f.clock, log),
                f.settings,
                log,
                f.callbacks,
                f.jobSystem));
        RunState run = new RunState(
                "run-1",
                Fixture.PIPELINE,
                "daily",
                Fixture.DATE,
                RunStatus.RUNNING,
                1,
                TriggerType.GLUE,
                Fixture.EXECUTION,
                Map.of(),
                null,
                null,
                Fixture.T0,
                Fixture.T0);
        // The watchdog checks on behalf of the execution that waits for the job: its context names that execution.
        LogContext context = LogContext.of(Fixture.PIPELINE, "daily", Fixture.DATE.toString())
                .withRun("run-1")
                .withExecution(Fixture.EXECUTION);
        RunCheck refused = RunCheck.running("EntityNotFoundException: job run jr_1 not found");
        whilePublishing.set(() -> refusal.report(run, TriggerType.GLUE, "jr_1", refused, context));

        refusal.report(run, TriggerType.GLUE, "jr_1", refused, context);

        assertThat(f.alerts.of(AlertKind.JOB_CHECK_FAILED)).hasSize(1);
        assertThat(f.events(EventKind.JOB_CHECK_FAILED))
                .as("each refusal is still an event")
                .hasSize(2);
    }
}
