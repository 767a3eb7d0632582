package dev.interlock.statemachine.asl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.contract.OrchestratorAction;
import dev.interlock.statemachine.AslDefinition;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Structural invariants of the ASL definition (docs/state-machine.md), checked on the file itself without executing it. */
class AslStructureTest {

    private static final List<String> LAMBDA_RETRY_ERRORS = List.of(
            "Lambda.ServiceException",
            "Lambda.AWSLambdaException",
            "Lambda.SdkClientException",
            "Lambda.TooManyRequestsException");
    private static final Set<String> LAMBDA_PLACEHOLDERS = Set.of(
            "${OrchestratorFunctionArn}",
            "${EvaluatorFunctionArn}",
            "${TriggerFunctionArn}",
            "${RunCheckerFunctionArn}");

    private final ObjectNode asl = Asl.definition();
    private final JsonNode states = asl.get("States");

    @Test
    void hasExactlyFortySevenTopLevelStatesInPhaseOrder() {
        List<String> names = new ArrayList<>();
        states.fieldNames().forEachRemaining(names::add);
        assertThat(names).hasSize(47);
        assertThat(names).startsWith("InitDefaults", "CheckExclusion", "IsExcluded", "AcquireLock");
        assertThat(names.indexOf("EvaluateTraits")).isLessThan(names.indexOf("TriggerPipeline"));
        assertThat(names.indexOf("TriggerPipeline")).isLessThan(names.indexOf("CheckCompletionSLA"));
        assertThat(names.indexOf("CheckCompletionSLA")).isLessThan(names.indexOf("MonitoringWait"));
        assertThat(names.indexOf("MonitoringWait")).isLessThan(names.indexOf("ShouldRetry"));
        assertThat(names.indexOf("ShouldRetry")).isLessThan(names.indexOf("AlertError"));
        assertThat(asl.get("StartAt").asText()).isEqualTo("InitDefaults");
    }

    @Test
    void bothMapsEvaluateTheResolvedTraitsWithTwoInnerStatesEach() {
        for (String map : List.of("EvaluateTraits", "MonitoringEvaluate")) {
            JsonNode state = states.get(map);
            assertThat(state.get("Type").asText()).isEqualTo("Map");
            // Monitoring evaluates the traits checkMonitoringExpired answered: its own run's, or those a monitoring
            // successor's input carried.
            assertThat(state.get("ItemsPath").asText())
                    .isEqualTo(
                            map.equals("EvaluateTraits")
                                    ? "$.resolvePipeline.payload.traits"
                                    : "$.monitoringExpiry.payload.traits");
            assertThat(state.get("MaxConcurrency").asInt())
                    .as("0 = unbounded, traits evaluate in parallel")
                    .isZero();
            assertThat(state.get("ItemProcessor").get("States").size()).isEqualTo(2);
        }
        assertThat(states.get("EvaluateTraits").get("ResultPath").asText()).isEqualTo("$.traitResults");
        assertThat(states.get("MonitoringEvaluate").get("ResultPath").asText()).isEqualTo("$.monitoringResults");
    }

    @Test
    void everyTransitionTargetExistsAtItsLevel() {
        List<String> dangling = new ArrayList<>();
        forEachMachine(asl, (machineStates, startAt) -> {
            if (!machineStates.has(startAt)) {
                dangling.add("StartAt -> " + startAt);
            }
            machineStates
                    .properties()
                    .forEach(e -> Asl.successors(e.getValue()).stream()
                            .filter(target -> !machineStates.has(target))
                            .forEach(target -> dangling.add(e.getKey() + " -> " + target)));
        });
        assertThat(dangling).isEmpty();
    }

    @Test
    void everyStateIsReachableFromStartAt() {
        forEachMachine(asl, (machineStates, startAt) -> {
            Set<String> all = new TreeSet<>();
            machineStates.fieldNames().forEachRemaining(all::add);
            Set<String> reached = new TreeSet<>(Asl.reachable(machineStates, List.of(startAt), Set.of()));
            assertThat(reached).isEqualTo(all);
        });
    }

    @Test
    void stateNamesAreUniqueAcrossTheWholeDefinition() {
        List<String> names = new ArrayList<>();
        forEachMachine(
                asl, (machineStates, startAt) -> machineStates.fieldNames().forEachRemaining(names::add));
        assertThat(names).doesNotHaveDuplicates().hasSize(47 + 4);
    }

    @Test
    void everyLambdaTaskUsesAFunctionPlaceholderRetriesLambdaServiceErrorsAndCatches() {
        List<JsonNode> tasks = Asl.allTasks(states);
        List<JsonNode> lambdaTasks = tasks.stream()
                .filter(t -> !t.get("Resource").asText().startsWith("arn:aws:states:::"))
                .toList();
        assertThat(lambdaTasks).hasSize(tasks.size() - 2);
        for (JsonNode task : lambdaTasks) {
            assertThat(LAMBDA_PLACEHOLDERS).contains(task.get("Resource").asText());
            JsonNode retrier = task.get("Retry").get(0);
            List<String> errors = new ArrayList<>();
            retrier.get("ErrorEquals").forEach(e -> errors.add(e.asText()));
            assertThat(errors).containsExactlyElementsOf(LAMBDA_RETRY_ERRORS);
            assertThat(retrier.get("IntervalSeconds").asInt()).isEqualTo(2);
            assertThat(retrier.get("MaxAttempts").asInt()).isEqualTo(3);
            assertThat(retrier.get("BackoffRate").asDouble()).isEqualTo(2.0);
            assertThat(task.path("Catch").size())
                    .as("Catch of " + task.get("Comment").asText())
                    .isEqualTo(1);
            assertThat(task.get("Catch").get(0).get("ErrorEquals").get(0).asText())
                    .isEqualTo("States.ALL");
        }
    }

    @Test
    void executionErrorsAreAlertedThroughTheOrchestratorsDeduplicationAndOnlyItsFailureGoesStraightToTheTopic() {
        JsonNode alert = states.get("AlertError");
        assertThat(Asl.isOrchestratorAction(alert, OrchestratorAction.ALERT_EXECUTION_ERROR))
                .isTrue();
        assertThat(alert.get("Parameters").get("payload").get("error.$").asText())
                .isEqualTo("$.errorInfo");
        assertThat(alert.get("Catch").get(0).get("Next").asText()).isEqualTo("AlertErrorViaTopic");
        assertThat(alert.get("Next").asText()).isEqualTo("ReleaseLockAfterError");
        List<String> toTheTopic = new ArrayList<>();
        states.properties().forEach(e -> {
            if (Asl.successors(e.getValue()).contains("AlertErrorViaTopic")) {
                toTheTopic.add(e.getKey());
            }
        });
        assertThat(toTheTopic).containsExactly("AlertError");
    }

    @Test
    void theServiceIntegrationsAreTheJobCallbackAndTheAlertPublishWithSpecSubjectAndMessage() throws Exception {
        List<JsonNode> integrations = Asl.allTasks(states).stream()
                .filter(t -> t.get("Resource").asText().startsWith("arn:aws:states:::"))
                .toList();
        assertThat(integrations).containsExactly(states.get("WaitForJobCallback"), states.get("AlertErrorViaTopic"));
        JsonNode alert = states.get("AlertErrorViaTopic");
        assertThat(alert.get("Resource").asText()).isEqualTo("arn:aws:states:::sns:publish");
        JsonNode parameters = alert.get("Parameters");
        assertThat(parameters.get("TopicArn").asText()).isEqualTo("${AlertTopicArn}");
        assertThat(parameters.get("Subject.$").asText())
                .isEqualTo("States.Format('[error] EXECUTION_ERROR {}', $.pipelineId)");
        // The body is a States.Format template whose {} are filled with States.JsonToString values: fill them with
        // JSON strings and it must be the alert body of statemachine/CONTRACT.md §6.
        String template = intrinsicStringLiteral(parameters.get("Message.$").asText());
        JsonNode body = Asl.JSON.readTree(
                template.replace("\\{", "{").replace("\\}", "}").replace("{}", "\"x\""));
        List<String> bodyFields = new ArrayList<>();
        body.fieldNames().forEachRemaining(bodyFields::add);
        assertThat(bodyFields)
                .containsExactly(
                        "level", "kind", "pipelineId", "scheduleId", "date", "message", "details", "timestamp");
        assertThat(body.get("level").asText()).isEqualTo("error");
        assertThat(body.get("kind").asText()).isEqualTo("EXECUTION_ERROR");
        assertThat(parameters.get("Message.$").asText())
                .endsWith(", States.JsonToString($.pipelineId), States.JsonToString($.scheduleId), "
                        + "States.JsonToString($.date), States.JsonToString($$.Execution.Name), States.JsonToString($.errorInfo), "
                        + "States.JsonToString($$.State.EnteredTime))");
        assertThat(alert.get("Catch").get(0).get("Next").asText()).isEqualTo("ReleaseLockAfterError");
        assertThat(alert.get("Next").asText()).isEqualTo("ReleaseLockAfterError");
    }

    @Test
    void everyCatchOutsideTheExitAndMonitoringPathsLeadsToTheAlert() {
        Set<String> catchTargets = new TreeSet<>();
        states.properties()
                .forEach(e -> e.getValue().path("Catch").forEach(c -> {
                    String target = c.get("Next").asText();
                    if (!e.getKey().startsWith("ReleaseLock") && !e.getKey().startsWith("AlertError")) {
                        catchTargets.add(e.getKey() + "->" + target);
                    }
                }));
        // The callback wait's catch of a failed job, a lost event or its timeout is the fallback poll, not an alert.
        assertThat(catchTargets)
                .allMatch(t -> t.endsWith("->AlertError")
                        || t.equals("NotifyDownstream->ShouldMonitor")
                        || t.equals("WaitForJobCallback->PollRunStatus"));
    }

    @Test
    void placeholdersInTheFileAreExactlyTheDocumentedFive() {
        Matcher m = Pattern.compile("\\$\\{([A-Za-z0-9]+)}").matcher(asl.toString());
        Set<String> found = new TreeSet<>();
        while (m.find()) {
            found.add(m.group(1));
        }
        Set<String> documented = new TreeSet<>();
        Asl.contract().get("placeholders").forEach(p -> documented.add(p.asText()));
        assertThat(AslDefinition.PLACEHOLDERS).isEqualTo(found);
        assertThat(found)
                .isEqualTo(documented)
                .containsExactlyInAnyOrder(
                        "OrchestratorFunctionArn",
                        "EvaluatorFunctionArn",
                        "TriggerFunctionArn",
                        "RunCheckerFunctionArn",
                        "AlertTopicArn");
    }

    @Test
    void machineHasTimeoutSecondsAndTellsTheOrchestratorTheSameValueForTheLockTtl() {
        int timeout = asl.get("TimeoutSeconds").asInt();
        assertThat(timeout)
                .isEqualTo(14400)
                .isEqualTo(Asl.contract().get("timeoutSeconds").asInt());
        List<Integer> told = new ArrayList<>();
        states.properties()
                .forEach(e -> told.addAll(e.getValue().path("Parameters").findValues("executionTimeoutSeconds").stream()
                        .map(JsonNode::asInt)
                        .toList()));
        assertThat(told)
                .as("acquireLock, checkValidationDeadline, the run-checker, checkMonitoringExpired, planRetry")
                .hasSize(5)
                .containsOnly(timeout);
        assertThat(states.get("AcquireLock")
                        .get("Parameters")
                        .get("payload")
                        .get("executionTimeoutSeconds")
                        .asInt())
                .isEqualTo(timeout);
    }

    @Test
    void lockIsAcquiredAndReleasedByTheExecutionNameAsOwner() {
        JsonNode acquire = states.get("AcquireLock").get("Parameters").get("payload");
        assertThat(acquire.get("owner.$").asText()).isEqualTo("$$.Execution.Name");
        assertThat(acquire.get("executionId.$").asText())
                .as("the holder's ARN, for the watchdog's holder check")
                .isEqualTo("$$.Execution.Id");
        List<String> releases = releaseStates();
        assertThat(releases)
                .containsExactlyInAnyOrder("ReleaseLockAfterError", "ReleaseLockAndSucceed", "ReleaseLockAndFail");
        for (String release : releases) {
            assertThat(states.get(release)
                            .get("Parameters")
                            .get("payload")
                            .get("owner.$")
                            .asText())
                    .isEqualTo("$$.Execution.Name");
            assertThat(states.get(release).get("Catch"))
                    .as(release + " has its own Catch")
                    .hasSize(1);
        }
    }

    @Test
    void everyPathToAnEndAfterTheLockWasAcquiredPassesALockRelease() {
        List<String> lockHeld = new ArrayList<>();
        states.get("AcquireLock")
                .get("Catch")
                .forEach(c -> lockHeld.add(c.get("Next").asText()));
        JsonNode gate = states.get(states.get("AcquireLock").get("Next").asText());
        assertThat(gate.get("Type").asText()).isEqualTo("Choice");
        for (JsonNode rule : gate.get("Choices")) {
            if (!testsResult(rule, "skip")) {
                lockHeld.add(rule.get("Next").asText());
            }
        }
        lockHeld.add(gate.get("Default").asText());

        Set<String> beforeRelease = Asl.reachable(states, lockHeld, Set.copyOf(releaseStates()));
        List<String> endsWithoutRelease = beforeRelease.stream()
                .filter(n -> Asl.isTerminal(states.get(n)))
                .toList();
        assertThat(endsWithoutRelease).isEmpty();
        assertThat(beforeRelease)
                .contains(
                        "TriggerPipeline",
                        "WaitForRun",
                        "MonitoringWait",
                        "PlanRetry",
                        "ShouldRetry",
                        "WaitForRetryWindow",
                        "AlertError",
                        "AlertErrorViaTopic")
                .doesNotContain("WaitForLock");
    }

    @Test
    void skipsEndInSucceedWithoutTouchingAnotherOwnersLock() {
        assertThat(skipTarget("IsExcluded")).isEqualTo("Done");
        assertThat(skipTarget("IsLockAcquired")).isEqualTo("Done");
        assertThat(skipTarget("ShouldProceedAfterRunLog")).isEqualTo("ReleaseLockAndSucceed");
        assertThat(states.get("Done").get("Type").asText()).isEqualTo("Succeed");
        assertThat(endsReachableFrom("ReleaseLockAndSucceed")).containsExactly("Done");
    }

    @Test
    void businessFailuresEndInAFailState() {
        assertThat(endsReachableFrom("LogValidationExhausted")).containsExactly("PipelineFailed");
        assertThat(endsReachableFrom(states.get("ShouldRetry").get("Default").asText()))
                .containsExactly("PipelineFailed");
        assertThat(endsReachableFrom(states.get("IsResolved").get("Default").asText()))
                .containsExactly("PipelineFailed");
        assertThat(endsReachableFrom("AlertError")).containsExactly("ExecutionFailed");
        assertThat(Asl.reachable(states, List.of("AlertError"), Set.of(), true).stream()
                        .filter(n -> Asl.isTerminal(states.get(n))))
                .as("even when the alert or the release throws")
                .containsExactly("ExecutionFailed");
        assertThat(states.get("PipelineFailed").get("Type").asText()).isEqualTo("Fail");
        assertThat(states.get("PipelineFailed").get("Error").asText()).isEqualTo("Interlock.PipelineFailed");
        assertThat(states.get("ExecutionFailed").get("Type").asText()).isEqualTo("Fail");
        assertThat(states.get("ExecutionFailed").get("Error").asText()).isEqualTo("Interlock.ExecutionError");
    }

    @Test
    void triggerAndRunFailuresReachTheRetryPlanWithTheirCategoryAndTheRetryWaitsAtTheRunLogGate() {
        for (String log : List.of("LogTriggerFailed", "LogRunFailed")) {
            JsonNode state = states.get(log);
            assertThat(state.get("Next").asText()).isEqualTo("PlanRetry");
            assertThat(state.get("ResultPath").asText())
                    .as("PlanRetry reads one place")
                    .isEqualTo("$.failureLog");
            JsonNode payload = state.get("Parameters").get("payload");
            assertThat(payload.has("failureCategory") || payload.has("failureCategory.$"))
                    .isTrue();
        }
        JsonNode plan = states.get("PlanRetry").get("Parameters").get("payload");
        assertThat(plan.get("retryable.$").asText()).isEqualTo("$.failureLog.payload.retryable");
        assertThat(plan.get("retryBackoffSeconds.$").asText()).isEqualTo("$.failureLog.payload.retryBackoffSeconds");
        assertThat(states.get("PlanRetry").get("Next").asText()).isEqualTo("ShouldRetry");
        JsonNode retry = states.get("ShouldRetry");
        assertThat(retry.get("Choices").get(0).get("Variable").asText())
                .isEqualTo("$.planRetry.payload.retryInExecution");
        assertThat(retry.get("Choices").get(0).get("Next").asText())
                .as("the lock stays held for the retry")
                .isEqualTo("CheckRunLog");
        assertThat(retry.get("Choices").get(1).get("Variable").asText()).isEqualTo("$.planRetry.payload.handedOver");
        assertThat(retry.get("Choices").get(1).get("Next").asText()).isEqualTo("ReleaseLockAndSucceed");
        assertThat(states.get("WaitForRetryWindow").get("SecondsPath").asText())
                .isEqualTo("$.checkRunLog.payload.retryAfterSeconds");
        assertThat(states.get("WaitForRetryWindow").get("Next").asText()).isEqualTo("CheckRunLog");
    }

    @Test
    void aHeldLockIsWaitedForWithTheOrchestratorsBackoffWhileAbsorbedAndHandedOverMarkersEnd() {
        JsonNode acquire = states.get("AcquireLock").get("Parameters").get("payload");
        assertThat(acquire.get("executionStartTime.$").asText()).isEqualTo("$$.Execution.StartTime");
        assertThat(acquire.get("replay.$").asText()).isEqualTo("$.replay");
        JsonNode wait = states.get("IsLockAcquired").get("Choices").get(1);
        assertThat(testsResult(wait, "skip")).isTrue();
        assertThat(wait.get("And").get(1).get("Variable").asText()).isEqualTo("$.acquireLock.payload.waitSeconds");
        assertThat(wait.get("Next").asText()).isEqualTo("WaitForLock");
        assertThat(states.get("WaitForLock").get("SecondsPath").asText())
                .isEqualTo("$.acquireLock.payload.waitSeconds");
        assertThat(states.get("WaitForLock").get("Next").asText()).isEqualTo("AcquireLock");
    }

    @Test
    void theSameJobIsFollowedUntilTheRunCheckerEndsItNoPollLimitInTheMachineStartsItAgain() {
        JsonNode decide = states.get("EvaluatePollResult");
        assertThat(decide.get("Default").asText()).isEqualTo("WaitForRun");
        assertThat(decide.get("Choices")).hasSize(3);
        assertThat(states.get("IsTriggerSuccessful")
                        .get("Choices")
                        .get(1)
                        .get("Next")
                        .asText())
                .isEqualTo("WaitForRun");
        JsonNode follow = states.get("PollRunStatus").get("Parameters").get("follow");
        assertThat(follow.get("since.$").asText())
                .as("following is measured from the trigger's answer")
                .isEqualTo("$.triggerResult.startedAt");
        assertThat(follow.get("nextPollSeconds.$").asText()).isEqualTo("$.resolvePipeline.payload.nextPollSeconds");
        assertThat(follow.get("maxJobDurationSeconds.$").asText())
                .isEqualTo("$.resolvePipeline.payload.maxJobDurationSeconds");
        assertThat(follow.get("executionStartTime.$").asText()).isEqualTo("$$.Execution.StartTime");
        Set<String> fromThePollLoop =
                Asl.reachable(states, List.of("WaitForRun"), Set.of("CheckCompletionSLA", "LogRunFailed"));
        assertThat(fromThePollLoop)
                .containsExactlyInAnyOrder(
                        "WaitForRun",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "WaitForJobCallback",
                        "AlertError",
                        "AlertErrorViaTopic",
                        "ReleaseLockAfterError",
                        "ExecutionFailed")
                .doesNotContain("TriggerPipeline");
    }

    @Test
    void callbackJobsWaitWithATaskTokenAndFallBackToThePollOnALostOrFailedEvent() {
        JsonNode wait = states.get("WaitForJobCallback");
        assertThat(wait.get("Resource").asText()).isEqualTo(Asl.LAMBDA_WAIT_FOR_TOKEN);
        assertThat(Asl.isOrchestratorAction(wait, OrchestratorAction.AWAIT_JOB_COMPLETION))
                .isTrue();
        assertThat(Asl.orchestratorRequest(wait)
                        .get("payload")
                        .get("taskToken.$")
                        .asText())
                .isEqualTo("$$.Task.Token");
        assertThat(wait.has("HeartbeatSecondsPath") || wait.has("HeartbeatSeconds"))
                .as("no heartbeat: a lost event is the watchdog's callback check's, not a poll inside the execution")
                .isFalse();
        assertThat(wait.get("TimeoutSecondsPath").asText())
                .isEqualTo("$.resolvePipeline.payload.callbackTimeoutSeconds");
        assertThat(wait.get("ResultPath").asText())
                .as("SendTaskSuccess sends the run-checker's answer")
                .isEqualTo("$.pollResult");
        assertThat(wait.get("Next").asText()).isEqualTo("EvaluatePollResult");
        JsonNode fallback = wait.get("Catch").get(0);
        List<String> errors = new ArrayList<>();
        fallback.get("ErrorEquals").forEach(e -> errors.add(e.asText()));
        assertThat(errors).containsExactly("Interlock.JobFailed", "Interlock.JobToVerify", "States.Timeout");
        assertThat(fallback.get("Next").asText()).isEqualTo("PollRunStatus");
        assertThat(wait.get("Catch").get(1).get("Next").asText()).isEqualTo("AlertError");
        JsonNode callbackRule = states.get("IsTriggerSuccessful").get("Choices").get(0);
        assertThat(callbackRule.get("Next").asText()).isEqualTo("WaitForJobCallback");
        assertThat(states.get("EvaluatePollResult")
                        .get("Choices")
                        .get(2)
                        .get("Next")
                        .asText())
                .isEqualTo("WaitForJobCallback");
        Set<String> fromTheWait =
                Asl.reachable(states, List.of("WaitForJobCallback"), Set.of("CheckCompletionSLA", "LogRunFailed"));
        assertThat(fromTheWait)
                .containsExactlyInAnyOrder(
                        "WaitForJobCallback",
                        "WaitForRun",
                        "PollRunStatus",
                        "EvaluatePollResult",
                        "AlertError",
                        "AlertErrorViaTopic",
                        "ReleaseLockAfterError",
                        "ExecutionFailed")
                .doesNotContain("TriggerPipeline");
    }

    @Test
    void notReadyWaitsTheResolvedIntervalAndReEvaluates() {
        assertThat(states.get("IsReady").get("Default").asText()).isEqualTo("CheckValidationDeadline");
        assertThat(states.get("CheckValidationDeadline").get("Next").asText()).isEqualTo("IsValidationExhausted");
        JsonNode exhausted = states.get("IsValidationExhausted");
        assertThat(exhausted.get("Choices")).hasSize(2);
        assertThat(exhausted.get("Choices").get(0).get("Variable").asText())
                .isEqualTo("$.validationDeadline.payload.exhausted");
        assertThat(exhausted.get("Choices").get(0).get("Next").asText()).isEqualTo("LogValidationExhausted");
        // A wait that outlasts the execution continues in a successor that holds the lock now: this one ends.
        assertThat(exhausted.get("Choices").get(1).get("Variable").asText())
                .isEqualTo("$.validationDeadline.payload.handedOver");
        assertThat(exhausted.get("Choices").get(1).get("Next").asText()).isEqualTo("ReleaseLockAndSucceed");
        assertThat(exhausted.get("Default").asText()).isEqualTo("WaitBeforeReevaluation");
        JsonNode wait = states.get("WaitBeforeReevaluation");
        assertThat(wait.get("SecondsPath").asText()).isEqualTo("$.resolvePipeline.payload.evaluationIntervalSeconds");
        assertThat(wait.get("Next").asText()).isEqualTo("EvaluateTraits");
    }

    @Test
    void initDefaultsDefaultsEveryExecutionInputField() throws Exception {
        String expression =
                states.get("InitDefaults").get("Parameters").get("input.$").asText();
        String json = intrinsicStringLiteral(expression)
                .replace("\\{", "{")
                .replace("\\}", "}")
                .replace("\"{}\"", "\"2026-01-15\"");
        JsonNode defaults = Asl.JSON.readTree(json);
        assertThat(defaults.get("scheduleId").asText()).isEqualTo("daily");
        assertThat(defaults.get("replay").asBoolean()).isFalse();
        Set<String> keys = new LinkedHashSet<>();
        defaults.fieldNames().forEachRemaining(keys::add);
        Set<String> input = new LinkedHashSet<>();
        Asl.contract().get("executionInput").fieldNames().forEachRemaining(input::add);
        assertThat(keys)
                .isEqualTo(input)
                .containsExactly(
                        "pipelineId",
                        "scheduleId",
                        "date",
                        "markerSource",
                        "replay",
                        "validationDeadline",
                        "planRetry");
        assertThat(defaults.get("validationDeadline").isNull())
                .as("null until a NOT READY round reports to the lock")
                .isTrue();
        assertThat(defaults.get("planRetry").isNull())
                .as("null until a planned retry reports to the lock")
                .isTrue();
        assertThat(expression).endsWith(", $, false)");
        assertThat(states.get("InitDefaults").get("OutputPath").asText()).isEqualTo("$.input");
    }

    /** The first single-quoted literal of an intrinsic function call, with its escapes still in place. */
    private static String intrinsicStringLiteral(String expression) {
        Matcher literal = Pattern.compile("'((?:\\\\.|[^'\\\\])*)'").matcher(expression);
        assertThat(literal.find()).as(expression).isTrue();
        return literal.group(1);
    }

    private String skipTarget(String choice) {
        for (JsonNode rule : states.get(choice).get("Choices")) {
            if (isResultTest(rule, "skip")) {
                return rule.get("Next").asText();
            }
        }
        throw new AssertionError(choice + " has no skip rule");
    }

    /** Terminal states reached without an error being thrown (thrown errors end in ExecutionFailed, tested separately). */
    private Set<String> endsReachableFrom(String start) {
        Set<String> ends = new TreeSet<>();
        for (String name : Asl.reachable(states, List.of(start), Set.of(), false)) {
            if (Asl.isTerminal(states.get(name))) {
                ends.add(name);
            }
        }
        return ends;
    }

    private List<String> releaseStates() {
        List<String> out = new ArrayList<>();
        states.properties().forEach(e -> {
            if (Asl.isOrchestratorAction(e.getValue(), OrchestratorAction.RELEASE_LOCK)) {
                out.add(e.getKey());
            }
        });
        return out;
    }

    private static boolean isResultTest(JsonNode rule, String result) {
        return rule.path("Variable").asText().endsWith(".result")
                && rule.path("StringEquals").asText().equals(result);
    }

    /** The rule requires {@code result}, alone or as a conjunct. */
    private static boolean testsResult(JsonNode rule, String result) {
        if (isResultTest(rule, result)) {
            return true;
        }
        for (JsonNode conjunct : rule.path("And")) {
            if (isResultTest(conjunct, result)) {
                return true;
            }
        }
        return false;
    }

    private interface MachineVisitor {
        void visit(JsonNode states, String startAt);
    }

    private static void forEachMachine(JsonNode machine, MachineVisitor visitor) {
        visitor.visit(machine.get("States"), machine.get("StartAt").asText());
        machine.get("States").properties().forEach(e -> {
            JsonNode processor = e.getValue().path("ItemProcessor");
            if (!processor.isMissingNode()) {
                forEachMachine(processor, visitor);
            }
        });
    }
}
