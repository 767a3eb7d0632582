package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.statemachine.intrinsics.IntrinsicFunctions;
import dev.interlock.statemachine.model.DefinitionValidator;
import dev.interlock.statemachine.model.StateMachineDefinition;
import dev.interlock.statemachine.model.ValidationProblem;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.random.RandomGenerator;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local Step Functions state machine: runs executions of one ASL definition and answers StartExecution,
 * DescribeExecution, ListExecutions, GetExecutionHistory and StopExecution with AWS's semantics.
 */
public final class StateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(StateMachine.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** AWS rejects whitespace, brackets, wildcards, these punctuation marks and control characters in names. */
    private static final Pattern INVALID_NAME_CHARS =
            Pattern.compile("[\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\p{Cntrl}]");

    private final String name;
    private final String arn;
    private final String roleArn;
    private final String region;
    private final StateMachineDefinition definition;
    private final TaskResources resources;
    private final EngineClock clock;
    private final RandomGenerator random;
    private final DataFlow data;
    private final Map<String, Execution> executions = new LinkedHashMap<>();
    private final TaskTokens tokens = new TaskTokens();

    private StateMachine(Builder b) {
        this.name = b.name;
        this.region = b.region;
        this.arn = "arn:aws:states:" + b.region + ":" + b.accountId + ":stateMachine:" + b.name;
        this.roleArn = b.roleArn != null ? b.roleArn
                : "arn:aws:iam::" + b.accountId + ":role/" + b.name + "-role";
        this.definition = b.definition;
        this.resources = b.resources;
        this.clock = b.clock;
        this.random = b.random;
        this.data = new DataFlow(new IntrinsicFunctions(b.random));
    }

    /** Starts building a machine called {@code name} that runs {@code definition}. */
    public static Builder builder(String name, StateMachineDefinition definition) {
        return new Builder(name, definition);
    }

    public String name() {
        return name;
    }

    public String arn() {
        return arn;
    }

    public StateMachineDefinition definition() {
        return definition;
    }

    public EngineClock clock() {
        return clock;
    }

    /**
     * Starts an execution. A null or blank name gets a random UUID; a null input means {@code {}}. Starting a
     * name that is still running with the same input returns that execution (AWS's idempotency); any other
     * reuse of a name fails with ExecutionAlreadyExists.
     */
    public Execution start(String executionName, String input) {
        String resolvedName = executionName == null || executionName.isBlank()
                ? new UUID(random.nextLong(), random.nextLong()).toString() : executionName;
        if (resolvedName.length() > 80 || INVALID_NAME_CHARS.matcher(resolvedName).find()) {
            throw new StepFunctionsException(StepFunctionsException.Code.InvalidName,
                    "Invalid Name: '" + resolvedName + "'");
        }
        JsonNode inputJson = parseInput(input);
        Execution execution;
        synchronized (executions) {
            Execution existing = executions.get(resolvedName);
            if (existing != null) {
                if (existing.status() == ExecutionStatus.RUNNING && existing.input().equals(inputJson)) {
                    return existing;
                }
                throw new StepFunctionsException(StepFunctionsException.Code.ExecutionAlreadyExists,
                        "Execution Already Exists: '" + existing.executionArn() + "'");
            }
            execution = new Execution(executionArn(resolvedName), arn, resolvedName, inputJson, clock);
            executions.put(resolvedName, execution);
        }
        launch(execution);
        return execution;
    }

    /** StartExecution. */
    public StartExecutionResult startExecution(String executionName, String input) {
        Execution execution = start(executionName, input);
        return new StartExecutionResult(execution.executionArn(), execution.startDate());
    }

    /** DescribeExecution. */
    public ExecutionDescription describeExecution(String executionArn) {
        return execution(executionArn).describe();
    }

    /** ListExecutions, newest first, optionally only those with {@code statusFilter}. */
    public List<ExecutionSummary> listExecutions(ExecutionStatus statusFilter) {
        List<Execution> all;
        synchronized (executions) {
            all = new ArrayList<>(executions.values());
        }
        // Newest first; reversing before the stable sort keeps later starts first among equal start dates.
        return all.reversed().stream()
                .map(e -> e.describe().summary())
                .filter(s -> statusFilter == null || s.status() == statusFilter)
                .sorted(Comparator.comparing(ExecutionSummary::startDate).reversed())
                .toList();
    }

    /** ListExecutions with AWS-style paging ({@code maxResults} 0 = 100). */
    public Page<ExecutionSummary> listExecutions(ExecutionStatus statusFilter, int maxResults, String nextToken) {
        return Page.of(listExecutions(statusFilter), maxResults, nextToken);
    }

    /** GetExecutionHistory, oldest first. */
    public List<HistoryEvent> getExecutionHistory(String executionArn) {
        return execution(executionArn).history();
    }

    /** GetExecutionHistory with AWS-style paging and ordering. */
    public Page<HistoryEvent> getExecutionHistory(String executionArn, int maxResults, boolean reverseOrder,
            String nextToken) {
        List<HistoryEvent> events = new ArrayList<>(getExecutionHistory(executionArn));
        if (reverseOrder) {
            events = events.reversed();
        }
        return Page.of(events, maxResults, nextToken);
    }

    /** StopExecution: ends a running execution as ABORTED at once; stopping an ended one changes nothing. */
    /** Whether a {@code .waitForTaskToken} task of this machine is waiting under {@code taskToken}. */
    public boolean waitsFor(String taskToken) {
        return tokens.isOpen(taskToken);
    }

    /** SendTaskSuccess: the waiting task succeeds with {@code output} (JSON text). */
    public void sendTaskSuccess(String taskToken, String output) {
        JsonNode parsed;
        try {
            parsed = MAPPER.readTree(output == null ? "" : output);
        } catch (JsonProcessingException e) {
            throw new StepFunctionsException(StepFunctionsException.Code.InvalidOutput,
                    "Invalid task output: " + e.getOriginalMessage());
        }
        if (parsed == null || parsed.isMissingNode()) {
            throw new StepFunctionsException(StepFunctionsException.Code.InvalidOutput, "Task output is required");
        }
        tokens.sendSuccess(taskToken, parsed);
    }

    /** SendTaskFailure: the waiting task fails with {@code error}/{@code cause}; Retry and Catch apply. */
    public void sendTaskFailure(String taskToken, String error, String cause) {
        tokens.sendFailure(taskToken, error, cause);
    }

    /** SendTaskHeartbeat: the waiting task's HeartbeatSeconds count again from now. */
    public void sendTaskHeartbeat(String taskToken) {
        tokens.sendHeartbeat(taskToken);
    }

    public StopExecutionResult stopExecution(String executionArn, String error, String cause) {
        Execution execution = execution(executionArn);
        if (execution.close(ExecutionStatus.ABORTED, null, error, cause, HistoryEventType.ExecutionAborted,
                new EventDetails.Failure(error, cause), execution.lastEventId())) {
            execution.cancellation().cancel(Cancellation.Reason.ABORTED);
        }
        return new StopExecutionResult(execution.describe().stopDate());
    }

    /** The execution with this ARN (or plain name). */
    public Execution execution(String executionArnOrName) {
        Objects.requireNonNull(executionArnOrName, "executionArn");
        String prefix = "arn:aws:states:" + region + ":" + accountId() + ":execution:" + name + ":";
        String executionName = executionArnOrName;
        if (executionArnOrName.startsWith("arn:")) {
            if (!executionArnOrName.startsWith(prefix)) {
                throw new StepFunctionsException(StepFunctionsException.Code.ExecutionDoesNotExist,
                        "Execution Does Not Exist: '" + executionArnOrName + "'");
            }
            executionName = executionArnOrName.substring(prefix.length());
        }
        synchronized (executions) {
            Execution execution = executions.get(executionName);
            if (execution == null) {
                throw new StepFunctionsException(StepFunctionsException.Code.ExecutionDoesNotExist,
                        "Execution Does Not Exist: '" + executionArnOrName + "'");
            }
            return execution;
        }
    }

    private String accountId() {
        return arn.split(":")[4];
    }

    private String executionArn(String executionName) {
        return arn.replace(":stateMachine:", ":execution:") + ":" + executionName;
    }

    private static JsonNode parseInput(String input) {
        if (input == null || input.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            return MAPPER.readTree(input);
        } catch (JsonProcessingException e) {
            throw new StepFunctionsException(StepFunctionsException.Code.InvalidExecutionInput,
                    "Invalid execution input: " + e.getOriginalMessage());
        }
    }

    private void launch(Execution execution) {
        long startedId = execution.emit(HistoryEventType.ExecutionStarted, new EventDetails.ExecutionStarted(
                execution.input().toString(), EventDetails.PayloadDetails.NOT_TRUNCATED, roleArn), 0);
        Interpreter interpreter = new Interpreter(execution, contextBase(execution), clock, resources, data, region,
                random, tokens);
        EngineClock.Gate finished = clock.newGate();
        // The timeout watcher is started from the execution's own thread: under a VirtualClock a participant
        // holds the turn while starting it, so no virtual time can pass between the two.
        clock.start("execution-" + execution.name(), () -> {
            if (definition.timeoutSeconds() != null) {
                Instant deadline = execution.startDate().plusSeconds(definition.timeoutSeconds());
                clock.start("timeout-" + execution.name(), () -> {
                    try {
                        if (!finished.await(deadline)) {
                            timeOut(execution);
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            run(execution, interpreter, startedId, finished);
        });
    }

    private void run(Execution execution, Interpreter interpreter, long startedId, EngineClock.Gate finished) {
        Interpreter.Frame root = new Interpreter.Frame(execution.cancellation(), startedId, null);
        try {
            JsonNode output = interpreter.run(definition.graph(), execution.input(), root);
            execution.close(ExecutionStatus.SUCCEEDED, output.toString(), null, null,
                    HistoryEventType.ExecutionSucceeded, new EventDetails.ExecutionSucceeded(output.toString(),
                            EventDetails.PayloadDetails.NOT_TRUNCATED), execution.lastEventId());
        } catch (StatesError e) {
            execution.close(ExecutionStatus.FAILED, null, e.error(), e.cause(), HistoryEventType.ExecutionFailed,
                    new EventDetails.Failure(e.error(), e.cause()), execution.lastEventId());
        } catch (Cancellation.Cancelled c) {
            // Stop and timeout close the execution themselves before cancelling; this only covers interrupts.
            execution.close(ExecutionStatus.ABORTED, null, null, null, HistoryEventType.ExecutionAborted,
                    new EventDetails.Failure(null, null), execution.lastEventId());
        } catch (RuntimeException e) {
            LOG.error("{\"message\":\"engine error\",\"executionName\":\"{}\",\"stateMachine\":\"{}\"}",
                    execution.name(), name, e);
            String cause = "Internal engine error: " + e;
            execution.close(ExecutionStatus.FAILED, null, StatesErrors.RUNTIME, cause,
                    HistoryEventType.ExecutionFailed, new EventDetails.Failure(StatesErrors.RUNTIME, cause),
                    execution.lastEventId());
        } finally {
            finished.open();
        }
    }

    private void timeOut(Execution execution) {
        String cause = "The execution did not complete within " + definition.timeoutSeconds() + " seconds";
        if (execution.close(ExecutionStatus.TIMED_OUT, null, StatesErrors.TIMEOUT, cause,
                HistoryEventType.ExecutionTimedOut, new EventDetails.Failure(StatesErrors.TIMEOUT, cause),
                execution.lastEventId())) {
            execution.cancellation().cancel(Cancellation.Reason.TIMED_OUT);
        }
    }

    private ObjectNode contextBase(Execution execution) {
        ObjectNode context = JsonNodeFactory.instance.objectNode();
        ObjectNode exec = context.putObject("Execution");
        exec.put("Id", execution.executionArn());
        exec.set("Input", execution.input());
        exec.put("Name", execution.name());
        exec.put("RoleArn", roleArn);
        exec.put("StartTime", Interpreter.contextTime(execution.startDate()));
        exec.put("RedriveCount", 0);
        ObjectNode machine = context.putObject("StateMachine");
        machine.put("Id", arn);
        machine.put("Name", name);
        return context;
    }

    /** Configures a {@link StateMachine}; defaults: real time, no task resources, us-east-1, account 000000000000. */
    public static final class Builder {
        private final String name;
        private final StateMachineDefinition definition;
        private TaskResources resources = TaskResources.none();
        private EngineClock clock = ScaledRealClock.realTime();
        private RandomGenerator random = new java.security.SecureRandom();
        private String region = "us-east-1";
        private String accountId = "000000000000";
        private String roleArn;
        private boolean validate = true;

        private Builder(String name, StateMachineDefinition definition) {
            if (name == null || name.isBlank() || INVALID_NAME_CHARS.matcher(name).find()) {
                throw new IllegalArgumentException("invalid state machine name: " + name);
            }
            this.name = name;
            this.definition = Objects.requireNonNull(definition, "definition");
        }

        public Builder resources(TaskResources resources) {
            this.resources = Objects.requireNonNull(resources);
            return this;
        }

        public Builder clock(EngineClock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        /** Randomness for States.UUID, States.MathRandom, retry jitter and generated names; fix it in tests. */
        public Builder random(RandomGenerator random) {
            this.random = Objects.requireNonNull(random);
            return this;
        }

        public Builder region(String region) {
            this.region = Objects.requireNonNull(region);
            return this;
        }

        public Builder accountId(String accountId) {
            this.accountId = Objects.requireNonNull(accountId);
            return this;
        }

        public Builder roleArn(String roleArn) {
            this.roleArn = roleArn;
            return this;
        }

        /**
         * Whether {@link #build()} rejects definitions with structural problems, as CreateStateMachine does
         * (default true). Tests of single features may switch it off to keep their snippets short.
         */
        public Builder validate(boolean validate) {
            this.validate = validate;
            return this;
        }

        /** Builds the machine; throws IllegalArgumentException listing every structural problem. */
        public StateMachine build() {
            if (validate) {
                List<ValidationProblem> problems = DefinitionValidator.validate(definition);
                if (!problems.isEmpty()) {
                    throw new IllegalArgumentException("Invalid definition for state machine " + name + ": "
                            + problems.stream().map(ValidationProblem::toString).toList());
                }
            }
            return new StateMachine(this);
        }
    }
}
