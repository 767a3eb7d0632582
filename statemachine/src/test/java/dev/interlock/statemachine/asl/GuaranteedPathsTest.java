package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every path a Choice, Wait or Parameters reads is produced, per the contract, on every way to that state (CONTRACT.md §1). */
class GuaranteedPathsTest {

    private final JsonNode contract = Asl.contract();

    @Test
    void theDefinitionReadsOnlyGuaranteedPaths() {
        assertThat(new GuaranteedPaths(contract).check(Asl.definition())).isEmpty();
    }

    @Test
    void resolvedFieldsAreGuaranteedOnlyAfterResultProceedWasSeen() {
        ObjectNode asl = Asl.definition();
        Map<String, Map<String, String>> in =
                new GuaranteedPaths(contract).analyse(asl.get("States"), "InitDefaults", Map.of(), true);
        assertThat(in.get("IsResolved"))
                .containsKey("$.resolvePipeline.result")
                .doesNotContainKey("$.resolvePipeline.payload.runId");
        assertThat(in.get("EvaluateTraits"))
                .containsEntry("$.resolvePipeline.payload.runId", "string")
                .containsEntry("$.resolvePipeline.payload.traits", "array")
                .containsEntry("$.resolvePipeline.payload.monitoring.enabled", "boolean");
        assertThat(in.get("AlertError"))
                .containsEntry("$.errorInfo.Error", "string")
                .containsEntry("$.pipelineId", "string");
        assertThat(in.get("PlanRetry")).containsEntry("$.failureLog.payload.retryable", "boolean");
        assertThat(in.get("ShouldRetry")).containsEntry("$.planRetry.payload.retryInExecution", "boolean");
        assertThat(in.get("PollRunStatus")).containsKey("$.triggerResult.startedAt");
        assertThat(in.get("WaitForJobCallback"))
                .containsEntry("$.resolvePipeline.payload.callbackTimeoutSeconds", "integer");
        assertThat(in.get("WaitForLock")).containsEntry("$.acquireLock.payload.waitSeconds", "integer");
    }

    @Test
    void reportsAChoiceOnAFieldTheTaskDoesNotDocument() {
        ObjectNode asl = Asl.definition();
        choiceRule(asl, "IsTriggerSuccessful", 1).put("Variable", "$.triggerResult.state");
        assertThat(new GuaranteedPaths(contract).check(asl))
                .containsExactly(
                        "IsTriggerSuccessful: Variable reads $.triggerResult.state which is not guaranteed on every path to this state");
    }

    @Test
    void reportsAReadOfAResultThatOnlyOneIncomingPathProduces() {
        ObjectNode asl = Asl.definition();
        // The catch path into LogTriggerFailed would carry no trigger result: the classic States.Runtime trap.
        ObjectNode trigger = (ObjectNode) asl.get("States").get("TriggerPipeline");
        ((ObjectNode) trigger.get("Catch").get(0)).put("Next", "LogTriggerFailed");
        assertThat(new GuaranteedPaths(contract).check(asl))
                .containsExactlyInAnyOrder(
                        "LogTriggerFailed: failureCategory.$ reads $.triggerResult.failureCategory which is not guaranteed on every path to this state",
                        "LogTriggerFailed: message.$ reads $.triggerResult.error which is not guaranteed on every path to this state");
    }

    @Test
    void reportsResolvedFieldsReadOnAPathWhereResolveFailed() {
        ObjectNode asl = Asl.definition();
        ((ObjectNode) asl.get("States").get("IsResolved")).put("Default", "EvaluateTraits");
        List<String> problems = new GuaranteedPaths(contract).check(asl);
        assertThat(problems)
                .contains(
                        "EvaluateTraits: ItemsPath reads $.resolvePipeline.payload.traits which is not guaranteed on every path to this state",
                        "WaitBeforeReevaluation: SecondsPath reads $.resolvePipeline.payload.evaluationIntervalSeconds which is not guaranteed on every path to this state");
    }

    @Test
    void reportsAWaitOnANonIntegerAndABooleanTestOnAString() {
        ObjectNode asl = Asl.definition();
        ((ObjectNode) asl.get("States").get("WaitForRetryWindow")).put("SecondsPath", "$.checkRunLog.payload.status");
        choiceRule(asl, "ShouldRetry", 0).put("Variable", "$.planRetry.payload.successorExecution");
        assertThat(new GuaranteedPaths(contract).check(asl))
                .containsExactlyInAnyOrder(
                        "WaitForRetryWindow: SecondsPath reads $.checkRunLog.payload.status of type string where [integer] is needed",
                        "ShouldRetry: Variable reads $.planRetry.payload.successorExecution of type string where [boolean] is needed");
    }

    @Test
    void reportsAnUndocumentedContextPathAndAnUndocumentedAction() {
        ObjectNode asl = Asl.definition();
        ObjectNode payload = (ObjectNode) asl.get("States")
                .get("CheckMonitoringExpired")
                .get("Parameters")
                .get("payload");
        payload.put("monitoringStartedAt.$", "$$.State.RetryCount");
        ((ObjectNode) asl.get("States").get("CheckCompletionSLA").get("Parameters"))
                .put("action", "checkCompletionSla");
        assertThat(new GuaranteedPaths(contract).check(asl))
                .contains(
                        "CheckMonitoringExpired: monitoringStartedAt.$ reads context path $$.State.RetryCount which is not among [$$.Execution.Id, $$.Execution.Name, $$.Execution.StartTime, $$.State.EnteredTime, $$.Task.Token]",
                        "CheckCompletionSLA: orchestrator action 'checkCompletionSla' is not in contract.json");
    }

    @Test
    void findsPathArgumentsInsideIntrinsicFunctionsButNotInStringLiterals() {
        assertThat(
                        GuaranteedPaths.references(
                                "States.Format('Execution {} failed with {} $.notAPath', $$.Execution.Name, $.errorInfo.Error)"))
                .containsExactly("$$.Execution.Name", "$.errorInfo.Error");
        assertThat(GuaranteedPaths.references("$.poll.count")).containsExactly("$.poll.count");
    }

    private static ObjectNode choiceRule(ObjectNode asl, String choice, int index) {
        return (ObjectNode) ((ArrayNode) asl.get("States").get(choice).get("Choices")).get(index);
    }
}
