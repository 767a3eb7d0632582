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
 * DescribeExecution, ListExecutions, GetExecutionHistory and StopExecution with AWS's semantics. With a durable
 * {@link ExecutionStore} its executions outlive the process: a new machine on the same store reads back every
 * execution's history, and {@link #resumeExecutions()} continues the ones that were running where they stood.
 */
public final class StateMachine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StateMachine.class);
    private static final ObjectMapper MAPPER = new ObjectMapper();
    /** AWS rejects whitespace, brackets, wildcards, these punctuation marks and control characters in names. */
    private static final Pattern INVALID_NAME_CHARS = Pattern.compile("[\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\p{Cntrl}]");

    private final String name;
    private final String arn;
    private final String roleArn;
    private final String region;
    private final StateMachineDefinition definition;
    private final String source;
    private final TaskResources resources;
    private final EngineClock clock;
    private final RandomGenerator random;
    private final DataFlow data;
    private final ExecutionStore store;
    private final java.util.function.Consumer<ExecutionDescription> onEnded;
    private final Map<String, Execution> executions = new LinkedHashMap<>();
    private final TaskTokens tokens = new TaskTokens();
    /** Executions read back from the store that were running, waiting for {@link #resumeExecutions()}. */
    private final Map<Execution, ResumePoint> toResume = new LinkedHashMap<>();

    private boolean closed;

    private StateMachine(Builder b) {
        this.name = b.name;
        this.region = b.region;
        this.arn = "arn:aws:states:" + b.region + ":" + b.accountId + ":stateMachine:" + b.name;
        this.roleArn = b.roleArn != null ? b.roleArn : "arn:aws:iam::" + b.accountId + ":role/" + b.name + "-role";
        this.definition = b.definition;
        this.source = b.source;
        this.resources = b.resources;
        this.clock = b.clock;
        this.random = b.random;
        this.data = new DataFlow(new IntrinsicFunctions(b.random));
        this.store = b.store;
        this.onEnded = b.onEnded;
        restore();
    }

    /** Reads back every journaled execution: ended ones as they ended, running ones to be resumed. */
    private void restore() {
        for (ExecutionStore.Recorded recorded : store.load(clock.now())) {
            JournalEntry.Started started = recorded.started();
            List<HistoryEvent> history = recorded.entries().stream()
                    .filter(JournalEntry.Event.class::isInstance)
                    .map(e -> ((JournalEntry.Event) e).event())
                    .toList();
            Execution execution =
                    new Execution(executionArn(started.name()), arn, started, history, clock, store.reopen(recorded));
            executions.put(started.name(), execution);
            if (execution.status() == ExecutionStatus.RUNNING) {
                ResumePoint point = ResumePoint.of(recorded.entries(), started.input());
                toResume.put(execution, point);
                if (point.callbackWait() != null && point.callbackArrived() == null) {
                    // The token accepts its callback from now on, before the execution is resumed.
                    String token = point.callbackWait().token();
                    tokens.restore(token, point.callbackWait().openedAt(), clock)
                            .journalTo(callback -> execution.checkpoint(TaskTokens.toJournal(token, callback)));
                }
                reportEnd(execution);
            }
        }
    }

    /**
     * Continues every execution that was running when the store was last written: once the task resources it calls
     * are ready. A Wait resumes at its deadline, a Task attempt that was in flight is handled as failed under the
     * state's Retry rules, a callback Task whose call had returned waits on under its token (which accepts callbacks
     * from the moment the store is read), and the execution's TimeoutSeconds still counts from its start.
     */
    public void resumeExecutions() {
        Map<Execution, ResumePoint> resumed;
        synchronized (executions) {
            resumed = new LinkedHashMap<>(toResume);
            toResume.clear();
        }
        resumed.forEach((execution, point) -> {
            LOG.info(
                    "{\"message\":\"resuming execution\",\"executionName\":\"{}\",\"stateMachine\":\"{}\",\"at\":\"{} {}\"}",
                    execution.name(),
                    name,
                    point.kind(),
                    point.state() == null ? "" : point.state());
            if (execution.history().isEmpty()) {
                launch(execution);
            } else {
                launch(execution, point);
            }
        });
    }

    /** The executions read back from the store that {@link #resumeExecutions()} has not continued yet. */
    public List<String> executionsToResume() {
        synchronized (executions) {
            return toResume.keySet().stream().map(Execution::name).toList();
        }
    }

    /**
     * Stops the engine with its process: running executions stop where they are without another event, so that with a
     * durable store they continue in the next process; with an in-memory store they are gone.
     */
    @Override
    public void close() {
        List<Execution> running;
        synchronized (executions) {
            closed = true;
            running = executions.values().stream()
                    .filter(e -> e.status() == ExecutionStatus.RUNNING)
                    .toList();
        }
        for (Execution execution : running) {
            execution.halt();
            execution.cancellation().cancel(Cancellation.Reason.SHUTDOWN);
        }
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

    /** The ASL text the machine was built from, as DescribeStateMachine answers it (null when built from a model). */
    public String source() {
        return source;
    }

    /** The role the machine runs as (DescribeStateMachine's roleArn). */
    public String roleArn() {
        return roleArn;
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
                ? new UUID(random.nextLong(), random.nextLong()).toString()
                : executionName;
        if (resolvedName.length() > 80
                || INVALID_NAME_CHARS.matcher(resolvedName).find()) {
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidName, "Invalid Name: '" + resolvedName + "'");
        }
        JsonNode inputJson = parseInput(input);
        Execution execution;
        synchronized (executions) {
            if (closed) {
                throw new IllegalStateException("the state machine " + name + " has stopped");
            }
            Execution existing = executions.get(resolvedName);
            if (existing != null) {
                if (existing.status() == ExecutionStatus.RUNNING
                        && existing.input().equals(inputJson)) {
                    return existing;
                }
                throw new StepFunctionsException(
                        StepFunctionsException.Code.ExecutionAlreadyExists,
                        "Execution Already Exists: '" + existing.executionArn() + "'");
            }
            execution = new Execution(
                    executionArn(resolvedName), arn, resolvedName, inputJson, clock, store.create(resolvedName));
            executions.put(resolvedName, execution);
        }
        reportEnd(execution);
        launch(execution);
        return execution;
    }

    /** Hands the execution's end, when it comes, to the {@link Builder#onEnded} listener (as AWS emits its event). */
    private void reportEnd(Execution execution) {
        execution.completion().thenAccept(ended -> {
            try {
                onEnded.accept(ended);
            } catch (RuntimeException e) {
                LOG.warn("{\"message\":\"execution end listener failed\",\"executionName\":\"{}\"}", ended.name(), e);
            }
        });
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

    /** ListExecutions with AWS-style paging ({@code maxResults} 0 = 100); a token holds only for the same filter. */
    public Page<ExecutionSummary> listExecutions(ExecutionStatus statusFilter, int maxResults, String nextToken) {
        return Page.after(
                listExecutions(statusFilter),
                maxResults,
                nextToken,
                "executions:" + (statusFilter == null ? "" : statusFilter.name()),
                ExecutionSummary::name);
    }

    /** GetExecutionHistory, oldest first. */
    public List<HistoryEvent> getExecutionHistory(String executionArn) {
        return execution(executionArn).history();
    }

    /** GetExecutionHistory with AWS-style paging and ordering. */
    public Page<HistoryEvent> getExecutionHistory(
            String executionArn, int maxResults, boolean reverseOrder, String nextToken) {
        List<HistoryEvent> events = new ArrayList<>(getExecutionHistory(executionArn));
        if (reverseOrder) {
            events = events.reversed();
        }
        return Page.after(
                events,
                maxResults,
                nextToken,
                "history:" + (reverseOrder ? "newest-first" : "oldest-first"),
                e -> Long.toString(e.id()));
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
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidOutput, "Invalid task output: " + e.getOriginalMessage());
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
        if (execution.close(
                ExecutionStatus.ABORTED,
                null,
                error,
                cause,
                HistoryEventType.ExecutionAborted,
                new EventDetails.Failure(error, cause),
                execution.lastEventId())) {
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
                throw new StepFunctionsException(
                        StepFunctionsException.Code.ExecutionDoesNotExist,
                        "Execution Does Not Exist: '" + executionArnOrName + "'");
            }
            executionName = executionArnOrName.substring(prefix.length());
        }
        synchronized (executions) {
            Execution execution = executions.get(executionName);
            if (execution == null) {
                throw new StepFunctionsException(
                        StepFunctionsException.Code.ExecutionDoesNotExist,
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
            throw new StepFunctionsException(
                    StepFunctionsException.Code.InvalidExecutionInput,
                    "Invalid execution input: " + e.getOriginalMessage());
        }
    }

    private void launch(Execution execution) {
        long startedId = execution.emit(
                HistoryEventType.ExecutionStarted,
                new EventDetails.ExecutionStarted(
                        execution.input().toString(), EventDetails.PayloadDetails.NOT_TRUNCATED, roleArn),
                0,
                true,
                null,
                false);
        Interpreter interpreter = interpreter(execution);
        Frame root = Frame.root(execution.cancellation(), startedId);
        launch(execution, () -> interpreter.run(definition.graph(), execution.input(), root));
    }

    /** Continues a journaled execution from where it stood. */
    private void launch(Execution execution, ResumePoint point) {
        Interpreter interpreter = interpreter(execution);
        Frame root = Frame.root(execution.cancellation(), point.lastEventId());
        launch(execution, () -> interpreter.resume(definition.graph(), point, root));
    }

    private Interpreter interpreter(Execution execution) {
        return new Interpreter(execution, contextBase(execution), clock, resources, data, region, random, tokens);
    }

    private void launch(Execution execution, java.util.function.Supplier<JsonNode> body) {
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
            run(execution, body, finished);
        });
    }

    private void run(Execution execution, java.util.function.Supplier<JsonNode> body, EngineClock.Gate finished) {
        try {
            JsonNode output = body.get();
            execution.close(
                    ExecutionStatus.SUCCEEDED,
                    output.toString(),
                    null,
                    null,
                    HistoryEventType.ExecutionSucceeded,
                    new EventDetails.ExecutionSucceeded(output.toString(), EventDetails.PayloadDetails.NOT_TRUNCATED),
                    execution.lastEventId());
        } catch (StatesError e) {
            execution.close(
                    ExecutionStatus.FAILED,
                    null,
                    e.error(),
                    e.cause(),
                    HistoryEventType.ExecutionFailed,
                    new EventDetails.Failure(e.error(), e.cause()),
                    execution.lastEventId());
        } catch (Cancellation.Cancelled c) {
            // Stop and timeout close the execution themselves before cancelling, and a halted execution (the engine
            // stopping) is not closed at all: this only covers interrupts.
            execution.close(
                    ExecutionStatus.ABORTED,
                    null,
                    null,
                    null,
                    HistoryEventType.ExecutionAborted,
                    new EventDetails.Failure(null, null),
                    execution.lastEventId());
        } catch (RuntimeException e) {
            if (execution.halted()) {
                return;
            }
            LOG.error(
                    "{\"message\":\"engine error\",\"executionName\":\"{}\",\"stateMachine\":\"{}\"}",
                    execution.name(),
                    name,
                    e);
            String cause = "Internal engine error: " + e;
            execution.close(
                    ExecutionStatus.FAILED,
                    null,
                    StatesErrors.RUNTIME,
                    cause,
                    HistoryEventType.ExecutionFailed,
                    new EventDetails.Failure(StatesErrors.RUNTIME, cause),
                    execution.lastEventId());
        } finally {
            finished.open();
        }
    }

    private void timeOut(Execution execution) {
        String cause = "The execution did not complete within " + definition.timeoutSeconds() + " seconds";
        if (execution.close(
                ExecutionStatus.TIMED_OUT,
                null,
                StatesErrors.TIMEOUT,
                cause,
                HistoryEventType.ExecutionTimedOut,
                new EventDetails.Failure(StatesErrors.TIMEOUT, cause),
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
        exec.put("StartTime", StepSupport.contextTime(execution.startDate()));
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
        private ExecutionStore store = ExecutionStore.inMemory();
        private String source;
        private java.util.function.Consumer<ExecutionDescription> onEnded = ended -> {};

        private Builder(String name, StateMachineDefinition definition) {
            if (name == null
                    || name.isBlank()
                    || INVALID_NAME_CHARS.matcher(name).find()) {
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

        /** Where executions are kept (default: in memory); a durable store brings them back in the next process. */
        public Builder store(ExecutionStore store) {
            this.store = Objects.requireNonNull(store);
            return this;
        }

        /** The ASL text {@code definition} was parsed from, for DescribeStateMachine. */
        public Builder source(String source) {
            this.source = source;
            return this;
        }

        /**
         * Called once when an execution of this machine ends (succeeded, failed, timed out or aborted), with its final
         * description: what AWS publishes as a {@code Step Functions Execution Status Change} event. Not called for
         * executions that had ended before this process started, nor for those a stopping engine leaves running.
         */
        public Builder onEnded(java.util.function.Consumer<ExecutionDescription> onEnded) {
            this.onEnded = Objects.requireNonNull(onEnded);
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
