package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ChoiceTest {

    /** A machine whose Choice has one rule: the output says which branch ran. */
    private static String machine(String rule) {
        return """
                {"StartAt":"C","States":{
                  "C":{"Type":"Choice","Choices":[%s],"Default":"No"},
                  "Yes":{"Type":"Pass","Result":"yes","End":true},
                  "No":{"Type":"Pass","Result":"no","End":true}}}""".formatted(rule);
    }

    private static String outcome(String rule, String input) {
        ExecutionDescription d = new Harness().run(machine(rule), input);
        if (d.status() != ExecutionStatus.SUCCEEDED) {
            return d.error();
        }
        return json(d.output()).asText();
    }

    /** rule body (without Next), input, expected branch. */
    @ParameterizedTest(name = "{0} on {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            "StringEquals":"abc"                       | {"v":"abc"}  | yes
            "StringEquals":"abc"                       | {"v":"abd"}  | no
            "StringEquals":"1"                         | {"v":1}      | no
            "StringLessThan":"b"                       | {"v":"a"}    | yes
            "StringLessThan":"a"                       | {"v":"a"}    | no
            "StringGreaterThan":"a"                    | {"v":"b"}    | yes
            "StringGreaterThan":"b"                    | {"v":"b"}    | no
            "StringLessThanEquals":"a"                 | {"v":"a"}    | yes
            "StringLessThanEquals":"a"                 | {"v":"b"}    | no
            "StringGreaterThanEquals":"b"              | {"v":"b"}    | yes
            "StringGreaterThanEquals":"b"              | {"v":"a"}    | no
            "StringMatches":"log-*.txt"                | {"v":"log-2024.txt"} | yes
            "StringMatches":"log-*.txt"                | {"v":"log-2024.csv"} | no
            "StringMatches":"a\\\\*b"                  | {"v":"a*b"}  | yes
            "StringMatches":"a\\\\*b"                  | {"v":"axxb"} | no
            "StringMatches":"*"                        | {"v":5}      | no
            "NumericEquals":5                          | {"v":5.0}    | yes
            "NumericEquals":5                          | {"v":6}      | no
            "NumericEquals":5                          | {"v":"5"}    | no
            "NumericLessThan":5                        | {"v":4.5}    | yes
            "NumericLessThan":5                        | {"v":5}      | no
            "NumericGreaterThan":5                     | {"v":6}      | yes
            "NumericGreaterThan":5                     | {"v":5}      | no
            "NumericLessThanEquals":5                  | {"v":5}      | yes
            "NumericLessThanEquals":5                  | {"v":5.1}    | no
            "NumericGreaterThanEquals":5               | {"v":5}      | yes
            "NumericGreaterThanEquals":5               | {"v":4}      | no
            "BooleanEquals":true                       | {"v":true}   | yes
            "BooleanEquals":true                       | {"v":false}  | no
            "BooleanEquals":true                       | {"v":"true"} | no
            "TimestampEquals":"2026-01-01T00:00:00Z"   | {"v":"2026-01-01T01:00:00+01:00"} | yes
            "TimestampEquals":"2026-01-01T00:00:00Z"   | {"v":"2026-01-01T00:00:01Z"} | no
            "TimestampEquals":"2026-01-01T00:00:00Z"   | {"v":"yesterday"} | no
            "TimestampLessThan":"2026-01-01T00:00:00Z" | {"v":"2025-12-31T23:59:59Z"} | yes
            "TimestampLessThan":"2026-01-01T00:00:00Z" | {"v":"2026-01-01T00:00:00Z"} | no
            "TimestampGreaterThan":"2026-01-01T00:00:00Z" | {"v":"2026-01-01T00:00:00.001Z"} | yes
            "TimestampGreaterThan":"2026-01-01T00:00:00Z" | {"v":"2026-01-01T00:00:00Z"} | no
            "TimestampLessThanEquals":"2026-01-01T00:00:00Z" | {"v":"2026-01-01T00:00:00Z"} | yes
            "TimestampLessThanEquals":"2026-01-01T00:00:00Z" | {"v":"2026-01-02T00:00:00Z"} | no
            "TimestampGreaterThanEquals":"2026-01-01T00:00:00Z" | {"v":"2026-01-01T00:00:00Z"} | yes
            "TimestampGreaterThanEquals":"2026-01-01T00:00:00Z" | {"v":"2025-01-01T00:00:00Z"} | no
            "IsNull":true                              | {"v":null}   | yes
            "IsNull":true                              | {"v":0}      | no
            "IsNull":false                             | {"v":0}      | yes
            "IsPresent":true                           | {"v":null}   | yes
            "IsPresent":true                           | {"w":1}      | no
            "IsPresent":false                          | {"w":1}      | yes
            "IsNumeric":true                           | {"v":1.5}    | yes
            "IsNumeric":true                           | {"v":"1.5"}  | no
            "IsString":true                            | {"v":"s"}    | yes
            "IsString":false                           | {"v":"s"}    | no
            "IsBoolean":true                           | {"v":false}  | yes
            "IsBoolean":true                           | {"v":0}      | no
            "IsTimestamp":true                         | {"v":"2026-01-01T00:00:00Z"} | yes
            "IsTimestamp":true                         | {"v":"2026-01-01"} | no
            """)
    void comparisonOperators(String body, String input, String expected) {
        assertThat(outcome("{\"Variable\":\"$.v\"," + body + ",\"Next\":\"Yes\"}", input))
                .isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} on {1} -> {2}")
    @CsvSource(delimiter = '|', textBlock = """
            StringEqualsPath               | {"v":"a","o":"a"}   | yes
            StringEqualsPath               | {"v":"a","o":"b"}   | no
            StringLessThanPath             | {"v":"a","o":"b"}   | yes
            StringGreaterThanPath          | {"v":"b","o":"a"}   | yes
            StringLessThanEqualsPath       | {"v":"b","o":"a"}   | no
            StringGreaterThanEqualsPath    | {"v":"a","o":"a"}   | yes
            NumericEqualsPath              | {"v":2,"o":2}       | yes
            NumericEqualsPath              | {"v":2,"o":"2"}     | no
            NumericLessThanPath            | {"v":1,"o":2}       | yes
            NumericGreaterThanPath         | {"v":1,"o":2}       | no
            NumericLessThanEqualsPath      | {"v":2,"o":2}       | yes
            NumericGreaterThanEqualsPath   | {"v":3,"o":2}       | yes
            BooleanEqualsPath              | {"v":true,"o":true} | yes
            BooleanEqualsPath              | {"v":true,"o":false} | no
            TimestampEqualsPath            | {"v":"2026-01-01T00:00:00Z","o":"2026-01-01T00:00:00Z"} | yes
            TimestampLessThanPath          | {"v":"2026-01-01T00:00:00Z","o":"2026-01-02T00:00:00Z"} | yes
            TimestampGreaterThanPath       | {"v":"2026-01-01T00:00:00Z","o":"2026-01-02T00:00:00Z"} | no
            TimestampLessThanEqualsPath    | {"v":"2026-01-02T00:00:00Z","o":"2026-01-02T00:00:00Z"} | yes
            TimestampGreaterThanEqualsPath | {"v":"2026-01-01T00:00:00Z","o":"2026-01-02T00:00:00Z"} | no
            """)
    void pathVariantsCompareWithAnotherValueOfTheInput(String operator, String input, String expected) {
        assertThat(outcome("{\"Variable\":\"$.v\",\"" + operator + "\":\"$.o\",\"Next\":\"Yes\"}", input))
                .isEqualTo(expected);
    }

    @Test
    void missingVariableIsStatesRuntime() {
        assertThat(outcome("{\"Variable\":\"$.missing\",\"StringEquals\":\"x\",\"Next\":\"Yes\"}", "{}"))
                .isEqualTo("States.Runtime");
    }

    @Test
    void missingOperandPathIsStatesRuntime() {
        assertThat(outcome("{\"Variable\":\"$.v\",\"NumericEqualsPath\":\"$.missing\",\"Next\":\"Yes\"}", "{\"v\":1}"))
                .isEqualTo("States.Runtime");
    }

    @Test
    void variableMayReadTheContextObject() {
        assertThat(outcome("{\"Variable\":\"$$.Execution.Name\",\"StringEquals\":\"run-1\",\"Next\":\"Yes\"}", "{}"))
                .isEqualTo("yes");
    }

    @Test
    void andOrNotCombine() {
        String and = "{\"And\":[{\"Variable\":\"$.a\",\"NumericGreaterThan\":1},"
                + "{\"Not\":{\"Variable\":\"$.b\",\"StringEquals\":\"x\"}}],\"Next\":\"Yes\"}";
        assertThat(outcome(and, "{\"a\":2,\"b\":\"y\"}")).isEqualTo("yes");
        assertThat(outcome(and, "{\"a\":2,\"b\":\"x\"}")).isEqualTo("no");
        String or = "{\"Or\":[{\"Variable\":\"$.a\",\"IsPresent\":false},{\"Variable\":\"$.a\",\"NumericEquals\":0}],"
                + "\"Next\":\"Yes\"}";
        assertThat(outcome(or, "{}")).isEqualTo("yes");
        assertThat(outcome(or, "{\"a\":0}")).isEqualTo("yes");
        assertThat(outcome(or, "{\"a\":1}")).isEqualTo("no");
    }

    @Test
    void orStopsAtTheFirstTrueRuleSoALaterMissingPathIsNotEvaluated() {
        String or = "{\"Or\":[{\"Variable\":\"$.a\",\"IsPresent\":false},"
                + "{\"Variable\":\"$.a\",\"NumericEquals\":0}],\"Next\":\"Yes\"}";
        assertThat(outcome(or, "{}")).isEqualTo("yes");
    }

    @Test
    void firstMatchingChoiceWins() {
        ExecutionDescription d = new Harness().run("""
                {"StartAt":"C","States":{
                  "C":{"Type":"Choice","Choices":[
                     {"Variable":"$.v","NumericGreaterThan":0,"Next":"A"},
                     {"Variable":"$.v","NumericGreaterThan":-1,"Next":"B"}]},
                  "A":{"Type":"Pass","Result":"A","End":true},
                  "B":{"Type":"Pass","Result":"B","End":true}}}""", "{\"v\":1}");
        assertThat(json(d.output()).asText()).isEqualTo("A");
    }

    @Test
    void noMatchWithoutDefaultFailsWithNoChoiceMatched() {
        ExecutionDescription d = new Harness().run("""
                {"StartAt":"C","States":{
                  "C":{"Type":"Choice","Choices":[{"Variable":"$.v","BooleanEquals":true,"Next":"A"}]},
                  "A":{"Type":"Succeed"}}}""", "{\"v\":false}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("States.NoChoiceMatched");
    }

    @Test
    void choiceOutputIsItsInputFilteredByInputPathAndOutputPath() {
        ExecutionDescription d = new Harness().run("""
                {"StartAt":"C","States":{
                  "C":{"Type":"Choice","InputPath":"$.x","OutputPath":"$.y","Default":"End"},
                  "End":{"Type":"Succeed"}}}""", "{\"x\":{\"y\":{\"z\":1}}}");
        assertThat(json(d.output())).isEqualTo(json("{\"z\":1}"));
    }
}
