package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cross-check's own helpers: the mismatch listing and the intrinsic fields it may normalise. */
class CrossEngineDiffTest {

    @Test
    void sideBySideMarksEveryDifferingStepFromWhereTheEnginesPart() {
        String diff = CrossEngineScenarioTest.sideBySide(
                "visited top-level states",
                List.of("A", "B", "C", "D", "E", "Fail"),
                List.of("A", "B", "C", "D", "X", "E", "Fail"));

        assertThat(diff).isEqualTo("""
                visited top-level states differ at step 5 (Java engine: 6 steps, aws-local-stepfunctions: 7 steps)
                       #  Java engine  aws-local-stepfunctions
                       2  B            B
                       3  C            C
                       4  D            D
                 >>    5  E            X
                 >>    6  Fail         E
                 >>    7  -            Fail
                """);
    }

    @Test
    void onlyTheAlertBodyAndSubjectAreBuiltByIntrinsicsInTaskRequests() {
        assertThat(CrossEngineScenarioTest.intrinsicFieldsByState(Asl.definition()))
                .isEqualTo(Map.of("AlertErrorViaTopic", List.of("/Subject", "/Message")));
    }
}
