package dev.interlock.local.sfn;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.statemachine.engine.ScaledRealClock;
import dev.interlock.statemachine.engine.StateMachine;
import dev.interlock.statemachine.engine.TaskResources;
import dev.interlock.statemachine.model.StateMachineDefinition;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.SfnClient;
import software.amazon.awssdk.services.sfn.model.DescribeExecutionResponse;
import software.amazon.awssdk.services.sfn.model.ExecutionAlreadyExistsException;
import software.amazon.awssdk.services.sfn.model.ExecutionDoesNotExistException;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;
import software.amazon.awssdk.services.sfn.model.HistoryEventType;
import software.amazon.awssdk.services.sfn.model.InvalidArnException;
import software.amazon.awssdk.services.sfn.model.InvalidTokenException;
import software.amazon.awssdk.services.sfn.model.SfnException;
import software.amazon.awssdk.services.sfn.model.StateMachineDoesNotExistException;

class LocalStepFunctionsServerTest {

    private static final String ASL = """
            {"StartAt":"Call","States":{
              "Call":{"Type":"Task","Resource":"arn:aws:lambda:us-east-1:000000000000:function:double","Next":"Hold"},
              "Hold":{"Type":"Choice","Choices":[{"Variable":"$.hold","BooleanEquals":true,"Next":"Wait"}],"Default":"Done"},
              "Wait":{"Type":"Wait","Seconds":3600,"Next":"Done"},
              "Done":{"Type":"Succeed"}}}""";

    private LocalStepFunctionsServer server;
    private AwsClients clients;
    private SfnClient sfn;
    private StateMachine machine;

    @BeforeEach
    void start() throws Exception {
        TaskResources resources = TaskResources.builder()
                .function("arn:aws:lambda:us-east-1:000000000000:function:double", invocation -> {
                    var out = JsonNodeFactory.instance.objectNode();
                    out.put("n", invocation.payload().path("n").asInt() * 2);
                    out.put("hold", invocation.payload().path("hold").asBoolean(false));
                    return out;
                })
                .build();
        machine = StateMachine.builder("interlock-pipeline", StateMachineDefinition.parse(ASL))
                .source(ASL)
                .clock(ScaledRealClock.realTime())
                .resources(resources)
                .accountId("000000000000")
                .region("us-east-1")
                .build();
        server = LocalStepFunctionsServer.start(0, machine);
        clients = new AwsClients(Environment.of(
                Map.of("INTERLOCK_ENDPOINT_STEPFUNCTIONS", server.endpoint().toString())));
        sfn = clients.stepFunctions();
    }

    @AfterEach
    void stop() {
        clients.close();
        server.close();
    }

    @Test
    void startDescribeListAndHistoryThroughTheRealSdkClient() throws Exception {
        String arn = sfn.startExecution(b -> b.stateMachineArn(machine.arn())
                        .name("silver_2026-03-01_daily_abcd1234")
                        .input("{\"n\":21}"))
                .executionArn();
        assertThat(arn)
                .isEqualTo(
                        "arn:aws:states:us-east-1:000000000000:execution:interlock-pipeline:silver_2026-03-01_daily_abcd1234");
        machine.execution(arn).await(Duration.ofSeconds(10));

        DescribeExecutionResponse d = sfn.describeExecution(b -> b.executionArn(arn));
        assertThat(d.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(d.output()).isEqualTo("{\"n\":42,\"hold\":false}");
        assertThat(d.input()).isEqualTo("{\"n\":21}");
        assertThat(d.startDate()).isNotNull();
        assertThat(d.stopDate()).isAfterOrEqualTo(d.startDate());

        assertThat(sfn.listExecutions(b -> b.stateMachineArn(machine.arn()).statusFilter(ExecutionStatus.SUCCEEDED))
                        .executions())
                .extracting(e -> e.name())
                .containsExactly("silver_2026-03-01_daily_abcd1234");
        var history = sfn.getExecutionHistory(b -> b.executionArn(arn)).events();
        assertThat(history.getFirst().type()).isEqualTo(HistoryEventType.EXECUTION_STARTED);
        assertThat(history.getLast().type()).isEqualTo(HistoryEventType.EXECUTION_SUCCEEDED);
        assertThat(history).anySatisfy(e -> {
            assertThat(e.type()).isEqualTo(HistoryEventType.TASK_STATE_ENTERED);
            assertThat(e.stateEnteredEventDetails().name()).isEqualTo("Call");
        });
    }

    @Test
    void aReusedNameIsExecutionAlreadyExistsAndUnknownArnsAreTypedErrors() throws Exception {
        String arn = sfn.startExecution(
                        b -> b.stateMachineArn(machine.arn()).name("once").input("{\"n\":1}"))
                .executionArn();
        machine.execution(arn).await(Duration.ofSeconds(10));
        assertThatThrownBy(() -> sfn.startExecution(
                        b -> b.stateMachineArn(machine.arn()).name("once").input("{\"n\":2}")))
                .isInstanceOf(ExecutionAlreadyExistsException.class);
        assertThatThrownBy(() -> sfn.describeExecution(b -> b.executionArn(arn.replace("once", "never"))))
                .isInstanceOf(ExecutionDoesNotExistException.class);
        assertThatThrownBy(() -> sfn.startExecution(
                        b -> b.stateMachineArn(machine.arn() + "-other").name("x")))
                .isInstanceOf(StateMachineDoesNotExistException.class);
    }

    @Test
    void stopExecutionAbortsARunningExecution() throws Exception {
        String arn = sfn.startExecution(
                        b -> b.stateMachineArn(machine.arn()).name("held").input("{\"n\":1,\"hold\":true}"))
                .executionArn();
        assertThat(sfn.describeExecution(b -> b.executionArn(arn)).status()).isEqualTo(ExecutionStatus.RUNNING);
        sfn.stopExecution(b -> b.executionArn(arn).error("Operator").cause("stopped by test"));
        DescribeExecutionResponse d = sfn.describeExecution(b -> b.executionArn(arn));
        assertThat(d.status()).isEqualTo(ExecutionStatus.ABORTED);
        assertThat(d.error()).isEqualTo("Operator");
        assertThat(machine.execution(arn).await(Duration.ofSeconds(5)).status().name())
                .isEqualTo("ABORTED");
    }

    @Test
    void badArgumentsGetAwsErrorsThatNameNoClassOfOurs() {
        for (Runnable call : List.<Runnable>of(
                () -> sfn.listExecutions(b -> b.stateMachineArn(machine.arn()).statusFilter("NOT_A_STATUS")),
                () -> sfn.listExecutions(b -> b.stateMachineArn(machine.arn()).maxResults(1001)))) {
            assertThatThrownBy(call::run).isInstanceOfSatisfying(SfnException.class, e -> {
                assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                assertThat(e.awsErrorDetails().errorMessage())
                        .startsWith("1 validation error detected")
                        .doesNotContain("dev.interlock")
                        .doesNotContain("java.");
            });
        }
        assertThatThrownBy(() -> sfn.describeStateMachine(b -> b.stateMachineArn("not-an-arn")))
                .isInstanceOf(InvalidArnException.class);
        assertThatThrownBy(() ->
                        sfn.listExecutions(b -> b.stateMachineArn(machine.arn()).nextToken("1")))
                .isInstanceOf(InvalidTokenException.class);
    }

    @Test
    void describeStateMachineReturnsTheDefinitionAndHistoryCanLeaveOutExecutionData() throws Exception {
        assertThat(sfn.describeStateMachine(b -> b.stateMachineArn(machine.arn()))
                        .definition())
                .isEqualTo(ASL);
        String arn = sfn.startExecution(
                        b -> b.stateMachineArn(machine.arn()).name("data").input("{\"n\":1}"))
                .executionArn();
        machine.execution(arn).await(Duration.ofSeconds(10));
        var full = sfn.getExecutionHistory(b -> b.executionArn(arn)).events();
        var lean = sfn.getExecutionHistory(b -> b.executionArn(arn).includeExecutionData(false))
                .events();
        assertThat(full.getFirst().executionStartedEventDetails().input()).isEqualTo("{\"n\":1}");
        assertThat(lean).hasSameSizeAs(full);
        assertThat(lean.getFirst().executionStartedEventDetails().input()).isNull();
        assertThat(lean.getLast().executionSucceededEventDetails().output()).isNull();
        assertThat(lean.getFirst().executionStartedEventDetails().roleArn()).isNotNull();
    }
}
