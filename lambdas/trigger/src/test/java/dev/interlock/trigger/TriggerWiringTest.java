package dev.interlock.trigger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.Environment;
import dev.interlock.wiring.Deps;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The handler built from Deps the way the Lambda entry and the local runtime build it. */
class TriggerWiringTest {

    @Test
    void buildingTheHandlerCreatesNoJobOrAlertClient() {
        try (Deps deps = new Deps(
                Environment.of(Map.of(
                        "TABLE_NAME",
                        "interlock-test",
                        "ALERT_TOPIC_ARN",
                        "arn:aws:sns:us-east-1:123456789012:alerts")),
                Clock.systemUTC())) {
            new TriggerHandler(deps);

            for (String client : List.of("glue", "emr", "emrserverless", "sfn", "lambda", "sns")) {
                assertThat(deps.clients().created(client)).as(client).isFalse();
            }
        }
    }
}
