package dev.interlock.orchestrator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.runtime.Environment;
import dev.interlock.wiring.Deps;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DepsWiringTest {

    @Test
    void settingsComeFromTheEnvironmentWithTheirDocumentedDefaults() {
        OrchestratorSettings defaults = OrchestratorSettings.from(Environment.of(Map.of()));
        OrchestratorSettings set = OrchestratorSettings.from(Environment.of(Map.of(
                EnvVar.EXECUTION_TIMEOUT_SECONDS.name(),
                "3600",
                EnvVar.MAX_RERUNS_PER_DAY.name(),
                "5",
                EnvVar.RETENTION_DAYS.name(),
                "14")));

        assertThat(defaults)
                .isEqualTo(new OrchestratorSettings(14400, 3, Integer.parseInt(EnvVar.RETENTION_DAYS.defaultValue())));
        assertThat(set).isEqualTo(new OrchestratorSettings(3600, 5, 14));
        assertThat(set.lockTtl(3600).getSeconds()).isEqualTo(3600 + 1800);
    }

    @Test
    void aNonsenseTimeoutIsRejectedNamingTheVariable() {
        assertThatThrownBy(() ->
                        OrchestratorSettings.from(Environment.of(Map.of(EnvVar.EXECUTION_TIMEOUT_SECONDS.name(), "0"))))
                .hasMessageContaining("EXECUTION_TIMEOUT_SECONDS");
    }

    @Test
    void theDepsHandlerBuildsNothingBeforeItsFirstRequest() throws Exception {
        // No table and no endpoint: constructing must not touch DynamoDB; an unknown action needs no store either.
        Deps deps = new Deps(
                Environment.of(Map.of(
                        EnvVar.TABLE_NAME.name(),
                        "interlock",
                        EnvVar.ALERT_TOPIC_ARN.name(),
                        "arn:aws:sns:us-east-1:000000000000:alerts")),
                Clock.systemUTC());
        OrchestratorHandler handler = new OrchestratorHandler(deps);
        assertThat(deps.clients()).isNotNull();

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(
                new ByteArrayInputStream("{\"action\":\"nothing\"}".getBytes(StandardCharsets.UTF_8)), out, null);

        assertThat(out.toString(StandardCharsets.UTF_8)).contains("\"reason\":\"unknown action: nothing\"");
        deps.close();
    }
}
