package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.json;
import static dev.interlock.statemachine.engine.Harness.pass;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DataFlowTest {

    private final Harness h = new Harness();

    private ExecutionDescription run(String fields, String input) {
        return h.run(pass(fields), input);
    }

    @Test
    void passWithoutFieldsReturnsItsInput() {
        assertThat(json(run("", "{\"a\":1}").output())).isEqualTo(json("{\"a\":1}"));
    }

    @Test
    void resultReplacesTheInputByDefault() {
        assertThat(json(run("\"Result\":{\"x\":true}", "{\"a\":1}").output())).isEqualTo(json("{\"x\":true}"));
    }

    @Test
    void resultPathCreatesNestedObjects() {
        ExecutionDescription d = run("\"Result\":\"v\",\"ResultPath\":\"$.a.b.c\"", "{\"a\":{\"k\":1}}");
        assertThat(json(d.output())).isEqualTo(json("{\"a\":{\"k\":1,\"b\":{\"c\":\"v\"}}}"));
    }

    @Test
    void resultPathNullDiscardsTheResult() {
        ExecutionDescription d = run("\"Result\":\"v\",\"ResultPath\":null", "{\"a\":1}");
        assertThat(json(d.output())).isEqualTo(json("{\"a\":1}"));
    }

    @Test
    void inputPathSelectsAndOutputPathFilters() {
        ExecutionDescription d = run(
                "\"InputPath\":\"$.in\",\"ResultPath\":\"$.copy\",\"OutputPath\":\"$.copy.v\"",
                "{\"in\":{\"v\":[1,2]}}");
        assertThat(json(d.output())).isEqualTo(json("[1,2]"));
    }

    @Test
    void inputPathNullGivesAnEmptyObjectAndOutputPathNullToo() {
        assertThat(json(run("\"InputPath\":null", "{\"a\":1}").output())).isEqualTo(json("{}"));
        assertThat(json(run("\"OutputPath\":null", "{\"a\":1}").output())).isEqualTo(json("{}"));
    }

    @Test
    void resultPathOverwritesAnExistingField() {
        ExecutionDescription d = run("\"Result\":2,\"ResultPath\":\"$.a\"", "{\"a\":1,\"b\":0}");
        assertThat(json(d.output())).isEqualTo(json("{\"a\":2,\"b\":0}"));
    }

    @Test
    void parametersResolvePathsContextAndIntrinsicsAndKeepLiterals() {
        ExecutionDescription d = run("""
                "Parameters":{"lit":"x","n.$":"$.n","nested":{"arr":[{"v.$":"$.n"}]},
                  "name.$":"$$.Execution.Name","state.$":"$$.State.Name","machine.$":"$$.StateMachine.Name",
                  "id.$":"$$.Execution.Id","start.$":"$$.Execution.StartTime","entered.$":"$$.State.EnteredTime",
                  "retry.$":"$$.State.RetryCount","input.$":"$$.Execution.Input.n",
                  "msg.$":"States.Format('n is {}', $.n)"}""", "{\"n\":7}");
        assertThat(json(d.output())).isEqualTo(json("""
                {"lit":"x","n":7,"nested":{"arr":[{"v":7}]},"name":"run-1","state":"P","machine":"test",
                 "id":"arn:aws:states:us-east-1:123456789012:execution:test:run-1",
                 "start":"2026-03-01T00:00:00.000Z","entered":"2026-03-01T00:00:00.000Z","retry":0,"input":7,
                 "msg":"n is 7"}"""));
    }

    @Test
    void missingPathInParametersFailsTheExecutionWithStatesRuntime() {
        ExecutionDescription d = run("\"Parameters\":{\"x.$\":\"$.missing\"}", "{\"a\":1}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("States.Runtime");
        assertThat(d.cause()).contains("$.missing").contains("x.$");
    }

    @Test
    void missingInputPathAndOutputPathAreRuntimeErrors() {
        assertThat(run("\"InputPath\":\"$.nope\"", "{}").error()).isEqualTo("States.Runtime");
        assertThat(run("\"OutputPath\":\"$.nope\"", "{}").error()).isEqualTo("States.Runtime");
    }

    @Test
    void resultPathIntoAScalarIsARuntimeError() {
        ExecutionDescription d = run("\"Result\":1,\"ResultPath\":\"$.a.b\"", "{\"a\":\"text\"}");
        assertThat(d.error()).isEqualTo("States.Runtime");
    }

    @Test
    void intrinsicFailureInPassFailsTheExecution() {
        ExecutionDescription d = run("\"Parameters\":{\"x.$\":\"States.StringToJson('{')\"}", "{}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(d.error()).isEqualTo("States.IntrinsicFailure");
    }

    @Test
    void indefinitePathsYieldArrays() {
        ExecutionDescription d =
                run("\"Parameters\":{\"ids.$\":\"$.items[*].id\"}", "{\"items\":[{\"id\":1},{\"id\":2}]}");
        assertThat(json(d.output())).isEqualTo(json("{\"ids\":[1,2]}"));
    }

    @Test
    void taskResultSelectorResultPathAndOutputPathApplyInOrder() {
        h.resources.resource("arn:test:echo", inv -> json("{\"Payload\":{\"v\":5},\"meta\":1}"));
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:echo",
                  "ResultSelector":{"value.$":"$.Payload.v","state.$":"$$.State.Name"},
                  "ResultPath":"$.result","OutputPath":"$.result","End":true}}}""", "{\"keep\":true}");
        assertThat(json(d.output())).isEqualTo(json("{\"value\":5,\"state\":\"T\"}"));
    }

    @Test
    void taskReceivesParametersBuiltFromTheEffectiveInput() {
        h.resources.resource("arn:test:echo", inv -> inv.payload());
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:test:echo","InputPath":"$.sub",
                  "Parameters":{"got.$":"$.x"},"ResultPath":"$.out","End":true}}}""", "{\"sub\":{\"x\":3}}");
        assertThat(json(d.output())).isEqualTo(json("{\"sub\":{\"x\":3},\"out\":{\"got\":3}}"));
    }

    @Test
    void succeedStateAppliesInputPathAndOutputPath() {
        ExecutionDescription d = h.run("""
                {"StartAt":"S","States":{"S":{"Type":"Succeed","InputPath":"$.a","OutputPath":"$.b"}}}""", "{\"a\":{\"b\":\"done\"}}");
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(json(d.output())).isEqualTo(json("\"done\""));
    }

    @Test
    void failStateUsesLiteralsOrPaths() {
        ExecutionDescription literal = h.run("""
                {"StartAt":"F","States":{"F":{"Type":"Fail","Error":"Boom","Cause":"because"}}}""", "{}");
        assertThat(literal.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(literal.error()).isEqualTo("Boom");
        assertThat(literal.cause()).isEqualTo("because");

        ExecutionDescription paths = new Harness().run("""
                {"StartAt":"F","States":{"F":{"Type":"Fail","ErrorPath":"$.e",
                  "CausePath":"States.Format('code {}', $.c)"}}}""", "{\"e\":\"E1\",\"c\":42}");
        assertThat(paths.error()).isEqualTo("E1");
        assertThat(paths.cause()).isEqualTo("code 42");
    }
}
