package dev.interlock.model.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class RuntimeFactsTest {

    @Test
    void readmeDocumentsEveryEnvironmentVariable() throws IOException {
        String readme = Files.readString(Path.of("..", "README.md"));
        for (EnvVar v : EnvVar.values()) {
            assertThat(readme).as("README documents %s", v).contains("`" + v.name() + "`");
        }
    }

    @Test
    void requiredVariablesHaveNoDefaultAndOptionalOnesDo() {
        for (EnvVar v : EnvVar.values()) {
            assertThat(v.defaultValue() == null).as(v.name()).isEqualTo(v.required());
        }
    }

    @Test
    void streamFilterAndPredicateAgree() {
        TableDefinition t = TableDefinition.INTERLOCK;
        assertThat(t.markerStreamFilterPattern())
                .isEqualTo(
                        "{\"eventName\":[\"INSERT\"],\"dynamodb\":{\"Keys\":{\"SK\":{\"S\":[{\"prefix\":\"MARKER#\"}]}}}}");
        assertThat(t.isMarkerInsert("INSERT", "MARKER#cascade#silver#1")).isTrue();
        assertThat(t.isMarkerInsert("MODIFY", "MARKER#cascade#silver#1")).isFalse();
        assertThat(t.isMarkerInsert("INSERT", "RUNLOG#2026-01-01#daily")).isFalse();
        assertThat(t.isMarkerInsert("INSERT", null)).isFalse();
    }

    @Test
    void runChangeFilterAndPredicateAgree() {
        TableDefinition t = TableDefinition.INTERLOCK;
        assertThat(t.runStreamFilterPattern())
                .isEqualTo("{\"eventName\":[\"INSERT\",\"MODIFY\"],\"dynamodb\":{\"Keys\":{\"PK\":{\"S\":"
                        + "[{\"prefix\":\"RUN#\"}]},\"SK\":{\"S\":[\"STATE\"]}}}}");
        assertThat(t.isRunChange("MODIFY", "RUN#0b8f", "STATE")).isTrue();
        assertThat(t.isRunChange("INSERT", "RUN#0b8f", "STATE")).isTrue();
        assertThat(t.isRunChange("REMOVE", "RUN#0b8f", "STATE"))
                .as("TTL expiry is no run change")
                .isFalse();
        assertThat(t.isRunChange("MODIFY", "RUNLOG#gold", "2026-01-01#daily")).isFalse();
        assertThat(t.isRunChange("MODIFY", "SENSOR#x", "STATE")).isFalse();
        assertThat(t.isRunChange("MODIFY", null, null)).isFalse();
    }

    @Test
    void functionsNameTheirHandlersAndJars() {
        assertThat(InterlockFunction.ORCHESTRATOR.handler())
                .isEqualTo("dev.interlock.orchestrator.OrchestratorHandler::handleRequest");
        assertThat(InterlockFunction.fromModuleName("run-checker")).isEqualTo(InterlockFunction.RUN_CHECKER);
        assertThat(InterlockFunction.API.deployableJar(Path.of("/repo")))
                .isEqualTo(Path.of("/repo/lambdas/api/target/api-lambda.jar"));
        assertThat(EnvVar.usedBy(InterlockFunction.STREAM_ROUTER))
                .containsExactlyInAnyOrder(
                        EnvVar.TABLE_NAME,
                        EnvVar.STATE_MACHINE_ARN,
                        EnvVar.STALE_MARKER_DAYS,
                        EnvVar.RETENTION_DAYS,
                        EnvVar.OPENLINEAGE_URL,
                        EnvVar.OPENLINEAGE_EVENT_BUS,
                        EnvVar.OPENLINEAGE_NAMESPACE);
    }
}
