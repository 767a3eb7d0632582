package dev.interlock.infra;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.runtime.InterlockFunction;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The point-in-time restore runbook (docs/operations.md) switches a deployed stack to the restored table with
 * {@code -c restoredTableStreamArn=…}: the stack then creates no table, and every function, grant, the stream mapping
 * and the {@code TableName} output name the restored one.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RestoredTableTest {

    private static final String RESTORED = "Interlock-restored-20260301";
    private static final String STREAM_ARN =
            "arn:aws:dynamodb:eu-west-1:123456789012:table/" + RESTORED + "/stream/2026-03-02T09:15:00.123";

    private SynthesizedStack synth;

    @BeforeAll
    void synthesize() {
        synth = SynthesizedStack.synthesize(Map.of("restoredTableStreamArn", STREAM_ARN));
    }

    @Test
    void theStackCreatesNoTableOfItsOwn() {
        assertThat(synth.resourcesOfType("AWS::DynamoDB::Table")).isEmpty();
        assertThat(SynthesizedStack.describe(synth.errors())).isEmpty();
        assertThat(SynthesizedStack.describe(synth.warnings())).isEmpty();
    }

    @ParameterizedTest
    @EnumSource(InterlockFunction.class)
    void everyFunctionThatUsesTheTableIsGivenTheRestoredOne(InterlockFunction function) {
        Object tableName = Json.at(synth.function(function), "Properties", "Environment", "Variables", "TABLE_NAME");
        assertThat(tableName).isEqualTo(RESTORED);
        List<Map<String, Object>> tableStatements = synth.statementsOf(function).stream()
                .filter(s -> "InterlockTable".equals(s.get("Sid")) || "InterlockIndexes".equals(s.get("Sid")))
                .toList();
        assertThat(tableStatements).isNotEmpty();
        for (Map<String, Object> statement : tableStatements) {
            assertThat(Json.write(statement.get("Resource")))
                    .as("%s %s", function, statement.get("Sid"))
                    .contains(":table/" + RESTORED);
        }
    }

    @Test
    void theStreamRouterReadsTheRestoredTablesStream() {
        Map<String, Map<String, Object>> mappings = synth.resourcesOfType("AWS::Lambda::EventSourceMapping");
        assertThat(mappings).hasSize(1);
        assertThat(Json.at(mappings.values().iterator().next(), "Properties", "EventSourceArn"))
                .isEqualTo(STREAM_ARN);
        assertThat(synth.statementsOf(InterlockFunction.STREAM_ROUTER).stream().map(s -> Json.write(s.get("Resource"))))
                .anySatisfy(resource -> assertThat(resource).contains(STREAM_ARN));
    }

    @Test
    void theTableNameOutputIsTheRestoredTable() {
        assertThat(Json.at(synth.templateJson(), "Outputs", "TableName", "Value"))
                .isEqualTo(RESTORED);
    }
}
