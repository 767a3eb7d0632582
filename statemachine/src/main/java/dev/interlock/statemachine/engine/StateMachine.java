package dev.interlock.statemachine.engine;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.interlock.statemachine.intrinsics.IntrinsicFunctions;
import dev.interlock.statemachine.model.StateMachineDefinition;
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
    static final Pattern INVALID_NAME_CHARS = Pattern.compile("[\\s<>{}\\[\\]?*\"#%\\\\^|~`$&,;:/\\p{Cntrl}]");

    private final String name;
    private final String arn;
    private final String roleArn;
    private final String region;
    private final StateMachineDefinition definition;
    private final String source;
    private final EngineClock clock;
    private final RandomGenerator random;
    private final ExecutionStore store;
    private final java.util.function.Consumer<ExecutionDescription> onEnded;
    private final Map<String, Execution> executions = new LinkedHashMap<>();
    private final TaskTokens tokens = new TaskTokens();
    /** Executions read back from the store that were running, waiting for {@link #resumeExecutions()}. */
    private final Map<Execution, ResumePoint> toResume = new LinkedHashMap<>();

    private final ExecutionLauncher launcher;

    private boolean closed;

    StateMachine(StateMachineBuilder b) {
        this.name = b.name;
        this.region = b.region;
        this.arn = "arn:aws:states:" + b.region + ":" + b.accountId + ":stateMachine:" + b.name;
        this.roleArn = b.roleArn != null ? b.roleArn : "arn:aws:iam::" + b.accountId + ":role/" + b.name + "-role";
        this.definition = b.definition;
        this.source = b.source;
        this.clock = b.clock;
        this.random = b.random;
        this.store = b.store;
        this.onEnded = b.onEnded;
        this.launcher = new ExecutionLauncher(
                name,
                arn,
                roleArn,
                region,
                definition,
                b.resources,
                clock,
                random,
                new DataFlow(new IntrinsicFunctions(b.random)),
                tokens);
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
                launcher.launch(execution);
            } else {
                launcher.launch(execution, point);
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
    public static StateMachineBuilder builder(String name, StateMachineDefinition definition) {
        return new StateMachineBuilder(name, definition);
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
        launcher.launch(execution);
        return execution;
    }

    /** Hands the execution's end, when it comes, to the {@link StateMachineBuilder#onEnded} listener (as AWS emits its event). */
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

    /** StopExecution: ends a running execution as ABORTED at once; stopping an ended one changes nothing. */
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
}
