package dev.interlock.infra;

import dev.interlock.model.contract.OrchestratorAction;
import java.util.List;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/** The orchestrator's watchdog tick (absent markers, missed SLAs, stuck runs) every {@code watchdogRateMinutes}. */
final class WatchdogSchedule {

    WatchdogSchedule(Construct scope, DeploymentOptions options, Alias orchestrator, IQueue deadLetters) {
        Rule.Builder.create(scope, "WatchdogSchedule")
                .description("Interlock watchdog: absent markers, missed SLAs, stuck runs")
                .schedule(Schedule.rate(Duration.minutes(options.watchdogRateMinutes())))
                .targets(List.of(LambdaFunction.Builder.create(orchestrator)
                        .event(RuleTargetInput.fromObject(OrchestratorAction.WATCHDOG.invocation(null)))
                        // A tick missed is covered by the next one; retrying an old tick only adds load.
                        .retryAttempts(2)
                        .maxEventAge(Duration.minutes(options.watchdogRateMinutes()))
                        .deadLetterQueue(deadLetters)
                        .build()))
                .build();
    }
}
