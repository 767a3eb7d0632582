package dev.interlock.statemachine.engine;

import static dev.interlock.statemachine.engine.Harness.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskResourcesTest {

    private final Harness h = new Harness();
    private final List<TaskInvocation> invocations = new ArrayList<>();

    private static String lambdaInvoke(String functionName) {
        return """
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                  "Parameters":{"FunctionName":"%s","Payload":{"action.$":"$.action"}},
                  "OutputPath":"$.Payload","End":true}}}""".formatted(functionName);
    }

    @Test
    void lambdaInvokePassesThePayloadAndWrapsTheResult() {
        h.resources.function("interlock-orchestrator", inv -> {
            invocations.add(inv);
            return json("{\"result\":\"proceed\"}");
        });
        ExecutionDescription d = h.run(lambdaInvoke("interlock-orchestrator"), "{\"action\":\"acquireLock\"}");
        assertThat(json(d.output())).isEqualTo(json("{\"result\":\"proceed\"}"));
        TaskInvocation inv = invocations.getFirst();
        assertThat(inv.payload()).isEqualTo(json("{\"action\":\"acquireLock\"}"));
        assertThat(inv.target()).isEqualTo("interlock-orchestrator");
        assertThat(inv.resource()).isEqualTo("arn:aws:states:::lambda:invoke");
        assertThat(inv.stateName()).isEqualTo("T");
        assertThat(inv.executionArn()).endsWith(":execution:test:run-1");
    }

    @Test
    void functionsAreFoundByNameArnOrQualifiedArn() {
        h.resources.function("arn:aws:lambda:us-east-1:123456789012:function:orchestrator", inv -> json("{}"));
        assertThat(h.run(lambdaInvoke("orchestrator"), "{\"action\":1}").status())
                .isEqualTo(ExecutionStatus.SUCCEEDED);
        Harness other = new Harness();
        other.resources.function("orchestrator", inv -> json("{}"));
        assertThat(other.run(
                                lambdaInvoke("arn:aws:lambda:us-east-1:123456789012:function:orchestrator:live"),
                                "{\"action\":1}")
                        .status())
                .isEqualTo(ExecutionStatus.SUCCEEDED);
    }

    @Test
    void aFunctionArnAsResourceIsCalledDirectlyWithTheEffectiveInput() {
        String arn = "arn:aws:lambda:us-east-1:123456789012:function:evaluator";
        h.resources.function(arn, inv -> {
            invocations.add(inv);
            return json("{\"status\":\"PASS\"}");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"%s","End":true}}}""".formatted(arn), "{\"trait\":\"fresh\"}");
        assertThat(json(d.output())).isEqualTo(json("{\"status\":\"PASS\"}"));
        assertThat(invocations.getFirst().payload()).isEqualTo(json("{\"trait\":\"fresh\"}"));
    }

    @Test
    void snsPublishGoesToTheRegisteredPublisher() {
        h.resources.resource(TaskResources.SNS_PUBLISH, inv -> {
            invocations.add(inv);
            return json("{\"MessageId\":\"m-1\"}");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"Alert","States":{"Alert":{"Type":"Task","Resource":"arn:aws:states:::sns:publish",
                  "Parameters":{"TopicArn":"arn:aws:sns:us-east-1:123456789012:alerts","Message.$":"$.msg"},
                  "ResultPath":"$.published","End":true}}}""", "{\"msg\":\"hello\"}");
        assertThat(json(d.output())).isEqualTo(json("{\"msg\":\"hello\",\"published\":{\"MessageId\":\"m-1\"}}"));
        assertThat(invocations.getFirst().payload())
                .isEqualTo(json("{\"TopicArn\":\"arn:aws:sns:us-east-1:123456789012:alerts\",\"Message\":\"hello\"}"));
    }

    @Test
    void anUnregisteredFunctionIsStatesRuntimeNamingIt() {
        ExecutionDescription d = h.run(lambdaInvoke("missing-fn"), "{\"action\":1}");
        assertThat(d.error()).isEqualTo("States.Runtime");
        assertThat(d.cause()).contains("lambda:invoke").contains("missing-fn");
    }

    @Test
    void functionErrorsKeepTheirNamesForRetryAndCatch() {
        h.resources.function("orchestrator", inv -> {
            throw new TaskFailedException("Lambda.ServiceException", "service unavailable");
        });
        ExecutionDescription d = h.run("""
                {"StartAt":"T","States":{"T":{"Type":"Task","Resource":"arn:aws:states:::lambda:invoke",
                  "Parameters":{"FunctionName":"orchestrator","Payload":{}},
                  "Retry":[{"ErrorEquals":["Lambda.ServiceException"],"MaxAttempts":2}],
                  "Catch":[{"ErrorEquals":["States.ALL"],"Next":"Alert"}],"End":true},
                 "Alert":{"Type":"Pass","End":true}}}""", "{}");
        assertThat(json(d.output()))
                .isEqualTo(json("{\"Error\":\"Lambda.ServiceException\",\"Cause\":\"service unavailable\"}"));
        assertThat(d.stopDate()).isEqualTo(Harness.T0.plusSeconds(1 + 2));
    }

    @Test
    void functionNameExtraction() {
        assertThat(TaskResources.functionName("my-fn")).isEqualTo("my-fn");
        assertThat(TaskResources.functionName("my-fn:live")).isEqualTo("my-fn");
        assertThat(TaskResources.functionName("123456789012:function:my-fn")).isEqualTo("my-fn");
        assertThat(TaskResources.functionName("arn:aws:lambda:eu-west-1:123456789012:function:my-fn:3"))
                .isEqualTo("my-fn");
    }
}
