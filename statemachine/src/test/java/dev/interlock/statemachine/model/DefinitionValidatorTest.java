package dev.interlock.statemachine.model;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DefinitionValidatorTest {

    private static List<String> problems(String asl) {
        return DefinitionValidator.validate(AslParser.parse(asl)).stream()
                .map(ValidationProblem::toString)
                .toList();
    }

    @Test
    void aSoundDefinitionHasNoProblems() {
        assertThat(problems("""
                {"StartAt":"A","TimeoutSeconds":60,"States":{
                  "A":{"Type":"Task","Resource":"r","Parameters":{"x.$":"States.Format('{}', $.y)"},
                       "Retry":[{"ErrorEquals":["E"]},{"ErrorEquals":["States.ALL"]}],
                       "Catch":[{"ErrorEquals":["States.ALL"],"Next":"F"}],"Next":"C"},
                  "C":{"Type":"Choice","Choices":[{"Variable":"$.v","IsPresent":true,"Next":"S"}],"Default":"F"},
                  "S":{"Type":"Succeed"},
                  "F":{"Type":"Fail","Error":"E"}}}""")).isEmpty();
    }

    @Test
    void reportsDanglingNamesUnreachableStatesAndEmptyChoices() {
        assertThat(problems("""
                {"StartAt":"Nowhere","States":{
                  "A":{"Type":"Pass","Next":"Missing"},
                  "B":{"Type":"Choice","Choices":[],"Default":"Gone"},
                  "C":{"Type":"Task","Resource":"r","End":true,"Catch":[{"ErrorEquals":["X"],"Next":"Lost"}]},
                  "D":{"Type":"Pass"}}}"""))
                .containsExactly(
                        "StartAt: names no state of this graph: Nowhere",
                        "States.A: transitions to a state that does not exist here: Missing",
                        "States.B.Choices: a Choice state needs at least one choice rule",
                        "States.B: transitions to a state that does not exist here: Gone",
                        "States.C: transitions to a state that does not exist here: Lost",
                        "States.D: needs Next or End",
                        "States.A: is not reachable from StartAt",
                        "States.B: is not reachable from StartAt",
                        "States.C: is not reachable from StartAt",
                        "States.D: is not reachable from StartAt");
    }

    @Test
    void nestedGraphsAreCheckedInTheirOwnScope() {
        assertThat(problems("""
                {"StartAt":"M","States":{
                  "M":{"Type":"Map","ItemProcessor":{"StartAt":"I","States":{"I":{"Type":"Pass","Next":"Out"}}},
                       "Next":"Out"},
                  "Out":{"Type":"Parallel","Branches":[],"End":true}}}"""))
                .containsExactly(
                        "States.M.ItemProcessor.States.I: transitions to a state that does not exist here: Out",
                        "States.Out.Branches: a Parallel state needs at least one branch");
    }

    @Test
    void statesAllMustBeAloneAndLast() {
        assertThat(problems("""
                {"StartAt":"A","States":{"A":{"Type":"Task","Resource":"r","End":true,
                  "Retry":[{"ErrorEquals":["States.ALL","X"]},{"ErrorEquals":["Y"]}],
                  "Catch":[{"ErrorEquals":["States.ALL"],"Next":"A"},{"ErrorEquals":["Z"],"Next":"A"}]}}}"""))
                .containsExactly(
                        "States.A.Retry[0].ErrorEquals: States.ALL must appear alone",
                        "States.A.Retry[0].ErrorEquals: States.ALL must be in the last entry",
                        "States.A.Catch[0].ErrorEquals: States.ALL must be in the last entry");
    }

    @Test
    void retryValuesTimeoutsAndFailFieldsAreChecked() {
        assertThat(problems("""
                {"StartAt":"A","TimeoutSeconds":0,"States":{
                  "A":{"Type":"Task","Resource":"r","TimeoutSeconds":5,"HeartbeatSeconds":5,"Next":"W",
                       "Retry":[{"ErrorEquals":[],"IntervalSeconds":0,"MaxAttempts":-1,"BackoffRate":0.5,
                                 "MaxDelaySeconds":0}]},
                  "W":{"Type":"Wait","End":true},
                  "F":{"Type":"Fail","Error":"E","ErrorPath":"$.e","CausePath":"States.Format('x'"}}}"""))
                .contains(
                        "TimeoutSeconds: must be a positive integer",
                        "States.A.HeartbeatSeconds: must be smaller than TimeoutSeconds",
                        "States.A.Retry[0].ErrorEquals: must not be empty",
                        "States.A.Retry[0].MaxAttempts: must not be negative",
                        "States.A.Retry[0].IntervalSeconds: must be at least 1",
                        "States.A.Retry[0].BackoffRate: must be at least 1.0",
                        "States.A.Retry[0].MaxDelaySeconds: must be at least 1",
                        "States.W: needs one of Seconds, SecondsPath, Timestamp, TimestampPath",
                        "States.F: has both Error and ErrorPath");
    }

    @Test
    void badPathsAndIntrinsicsAreReported() {
        assertThat(problems("""
                {"StartAt":"A","States":{"A":{"Type":"Pass","InputPath":"not-a-path","ResultPath":"$.a[*]",
                  "Parameters":{"x.$":"States.Format('{}'","y.$":"$..[","z":{"w.$":"oops"}},"Next":"C"},
                 "C":{"Type":"Choice","Choices":[{"Variable":"$.[","IsNull":true,"Next":"A"}],"Default":"A"}}}"""))
                .containsExactly(
                        "States.A.InputPath: not a valid JSONPath: not-a-path",
                        "States.A.ResultPath: not a reference path (a JSONPath selecting one node): $.a[*]",
                        "States.A.Parameters.x.$: Cannot parse intrinsic 'States.Format('{}'' at position 18: "
                                + "expected ')'",
                        "States.A.Parameters.y.$: not a valid JSONPath: $..[",
                        "States.A.Parameters.z.w.$: not a valid JSONPath: oops",
                        "States.C.Choices[0].Variable: not a valid JSONPath: $.[");
    }
}
