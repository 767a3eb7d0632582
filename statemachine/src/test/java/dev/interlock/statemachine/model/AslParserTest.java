package dev.interlock.statemachine.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class AslParserTest {

    private static final String ALL_TYPES = """
            {"Comment":"c","StartAt":"P","TimeoutSeconds":600,"States":{
              "P":{"Type":"Pass","Result":{"a":1},"ResultPath":null,"Next":"T"},
              "T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke","Parameters":{"FunctionName":"f"},
                   "TimeoutSeconds":30,"HeartbeatSeconds":10,
                   "Retry":[{"ErrorEquals":["Lambda.ServiceException"],"IntervalSeconds":2,"MaxAttempts":6,
                             "BackoffRate":1.5,"MaxDelaySeconds":20,"JitterStrategy":"FULL"}],
                   "Catch":[{"ErrorEquals":["States.ALL"],"ResultPath":"$.error","Next":"F"}],"Next":"C"},
              "C":{"Type":"Choice","Choices":[
                     {"And":[{"Variable":"$.a","NumericGreaterThanPath":"$.b"},
                             {"Not":{"Variable":"$.s","StringMatches":"x*"}}],"Next":"W"}],
                   "Default":"M"},
              "W":{"Type":"Wait","Timestamp":"2026-01-01T00:00:00Z","Next":"M"},
              "M":{"Type":"Map","ItemsPath":"$.items","MaxConcurrency":4,"ItemSelector":{"i.$":"$$.Map.Item.Index"},
                   "ItemProcessor":{"StartAt":"S","States":{"S":{"Type":"Succeed"}}},"Next":"Par"},
              "Par":{"Type":"Parallel","Branches":[{"StartAt":"B","States":{"B":{"Type":"Pass","End":true}}}],
                     "Next":"Done"},
              "Done":{"Type":"Succeed","OutputPath":"$.x"},
              "F":{"Type":"Fail","ErrorPath":"$.error.Error","Cause":"failed"}}}""";

    @Test
    void parsesEveryStateType() {
        StateMachineDefinition d = AslParser.parse(ALL_TYPES);
        assertThat(d.comment()).isEqualTo("c");
        assertThat(d.startAt()).isEqualTo("P");
        assertThat(d.timeoutSeconds()).isEqualTo(600);
        assertThat(d.states().keySet()).containsExactly("P", "T", "C", "W", "M", "Par", "Done", "F");

        PassState p = (PassState) d.states().get("P");
        assertThat(p.resultPath()).as("explicit null").isNull();
        assertThat(p.inputPath()).as("absent").isEqualTo("$");
        assertThat(p.transition()).isEqualTo(new Transition.Next("T"));

        TaskState t = (TaskState) d.states().get("T");
        assertThat(t.retry())
                .containsExactly(new Retrier(
                        java.util.List.of("Lambda.ServiceException"), 2, 6, 1.5, 20, Retrier.JitterStrategy.FULL));
        assertThat(t.catchers()).containsExactly(new Catcher(java.util.List.of("States.ALL"), "F", "$.error"));
        assertThat(t.timeoutSeconds()).isEqualTo(30);
        assertThat(t.heartbeatSeconds()).isEqualTo(10);

        ChoiceState c = (ChoiceState) d.states().get("C");
        assertThat(c.defaultState()).isEqualTo("M");
        ChoiceRule.And and = (ChoiceRule.And) c.choices().getFirst().rule();
        ChoiceRule.Comparison first = (ChoiceRule.Comparison) and.rules().getFirst();
        assertThat(first.operator()).isEqualTo(ComparisonOperator.NUMERIC_GREATER_THAN);
        assertThat(first.operandIsPath()).isTrue();
        assertThat(and.rules().get(1)).isInstanceOf(ChoiceRule.Not.class);

        assertThat(((WaitState) d.states().get("W")).waitFor())
                .isEqualTo(new WaitFor.Timestamp(Instant.parse("2026-01-01T00:00:00Z")));
        MapState m = (MapState) d.states().get("M");
        assertThat(m.maxConcurrency()).isEqualTo(4);
        assertThat(m.itemProcessor().startAt()).isEqualTo("S");
        assertThat(m.itemSelector().has("i.$")).isTrue();
        assertThat(((ParallelState) d.states().get("Par")).branches()).hasSize(1);
        assertThat(((FailState) d.states().get("F")).errorPath()).isEqualTo("$.error.Error");
        assertThat(t.successors()).containsExactly("C", "F");
        assertThat(c.successors()).containsExactly("W", "M");
    }

    @Test
    void retrierDefaults() {
        StateMachineDefinition d = AslParser.parse("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"r","End":true,
                  "Retry":[{"ErrorEquals":["States.ALL"]}]}}}""");
        assertThat(((TaskState) d.states().get("T")).retry().getFirst())
                .isEqualTo(new Retrier(java.util.List.of("States.ALL"), 1, 3, 2.0, null, Retrier.JitterStrategy.NONE));
    }

    @Test
    void reportsEveryShapeProblemAtOnce() {
        assertThatThrownBy(() -> AslParser.parse("""
                {"StartAt":1,"States":{
                  "A":{"Type":"Bogus"},
                  "B":{"Type":"Task","Resource":"r","TimeoutSeconds":"ten","End":true},
                  "C":{"Type":"Choice","Choices":[{"Variable":"$.x","NumericEquals":"1","Next":"A"}]},
                  "D":{"Type":"Wait","Seconds":1,"SecondsPath":"$.s","End":true}}}"""))
                .isInstanceOfSatisfying(
                        AslParseException.class,
                        e -> assertThat(e.problems())
                                .containsExactly(
                                        "$.StartAt: must be a string",
                                        "$.StartAt: required",
                                        "$.States.A.Type: unknown state type Bogus",
                                        "$.States.B.TimeoutSeconds: must be an integer",
                                        "$.States.C.Choices[0].NumericEquals: operand of the wrong JSON type: \"1\"",
                                        "$.States.D: a Wait state takes exactly one of Seconds, SecondsPath, Timestamp, TimestampPath"));
    }

    @Test
    void rejectsNonJsonAndJsonata() {
        assertThatThrownBy(() -> AslParser.parse("{nope"))
                .isInstanceOf(AslParseException.class)
                .hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> AslParser.parse("""
                {"QueryLanguage":"JSONata","StartAt":"P","States":{"P":{"Type":"Pass","End":true}}}""")).hasMessageContaining("only JSONPath is supported");
    }

    @Test
    void comparisonOperatorLookup() {
        assertThat(ComparisonOperator.fromField("TimestampLessThanEqualsPath"))
                .contains(new ComparisonOperator.Match(ComparisonOperator.TIMESTAMP_LESS_THAN_EQUALS, true));
        assertThat(ComparisonOperator.fromField("StringMatchesPath")).isEmpty();
        assertThat(ComparisonOperator.fromField("IsPresent"))
                .contains(new ComparisonOperator.Match(ComparisonOperator.IS_PRESENT, false));
        assertThat(ComparisonOperator.allFieldNames()).hasSize(23 + 16);
    }
}
