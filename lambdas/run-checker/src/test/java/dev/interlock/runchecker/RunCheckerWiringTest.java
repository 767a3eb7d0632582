package dev.interlock.runchecker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.Environment;
import dev.interlock.wiring.Deps;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The handler built from Deps the way the Lambda entry builds it. */
class RunCheckerWiringTest {

    @Test
    void buildingTheHandlerCreatesNoJobClient() {
        try (Deps deps = new Deps(Environment.of(Map.of("TABLE_NAME", "interlock-test")), Clock.systemUTC())) {
            new RunCheckerHandler(deps);

            for (String client : List.of("glue", "emr", "emrserverless", "sfn", "lambda", "sns")) {
                assertThat(deps.clients().created(client)).as(client).isFalse();
            }
        }
    }
}
