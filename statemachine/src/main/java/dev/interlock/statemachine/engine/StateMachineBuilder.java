package dev.interlock.statemachine.engine;

import dev.interlock.statemachine.model.DefinitionValidator;
import dev.interlock.statemachine.model.StateMachineDefinition;
import dev.interlock.statemachine.model.ValidationProblem;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/** Configures a {@link StateMachine}; defaults: real time, no task resources, us-east-1, account 000000000000. */
public final class StateMachineBuilder {
    final String name;
    final StateMachineDefinition definition;
    TaskResources resources = TaskResources.none();
    EngineClock clock = ScaledRealClock.realTime();
    RandomGenerator random = new java.security.SecureRandom();
    String region = "us-east-1";
    String accountId = "000000000000";
    String roleArn;
    boolean validate = true;
    ExecutionStore store = ExecutionStore.inMemory();
    String source;
    java.util.function.Consumer<ExecutionDescription> onEnded = ended -> {};

    StateMachineBuilder(String name, StateMachineDefinition definition) {
        if (name == null
                || name.isBlank()
                || StateMachine.INVALID_NAME_CHARS.matcher(name).find()) {
            throw new IllegalArgumentException("invalid state machine name: " + name);
        }
        this.name = name;
        this.definition = Objects.requireNonNull(definition, "definition");
    }

    public StateMachineBuilder resources(TaskResources resources) {
        this.resources = Objects.requireNonNull(resources);
        return this;
    }

    public StateMachineBuilder clock(EngineClock clock) {
        this.clock = Objects.requireNonNull(clock);
        return this;
    }

    /** Randomness for States.UUID, States.MathRandom, retry jitter and generated names; fix it in tests. */
    public StateMachineBuilder random(RandomGenerator random) {
        this.random = Objects.requireNonNull(random);
        return this;
    }

    public StateMachineBuilder region(String region) {
        this.region = Objects.requireNonNull(region);
        return this;
    }

    public StateMachineBuilder accountId(String accountId) {
        this.accountId = Objects.requireNonNull(accountId);
        return this;
    }

    /** Where executions are kept (default: in memory); a durable store brings them back in the next process. */
    public StateMachineBuilder store(ExecutionStore store) {
        this.store = Objects.requireNonNull(store);
        return this;
    }

    /** The ASL text {@code definition} was parsed from, for DescribeStateMachine. */
    public StateMachineBuilder source(String source) {
        this.source = source;
        return this;
    }

    /**
     * Called once when an execution of this machine ends (succeeded, failed, timed out or aborted), with its final
     * description: what AWS publishes as a {@code Step Functions Execution Status Change} event. Not called for
     * executions that had ended before this process started, nor for those a stopping engine leaves running.
     */
    public StateMachineBuilder onEnded(java.util.function.Consumer<ExecutionDescription> onEnded) {
        this.onEnded = Objects.requireNonNull(onEnded);
        return this;
    }

    public StateMachineBuilder roleArn(String roleArn) {
        this.roleArn = roleArn;
        return this;
    }

    /**
     * Whether {@link #build()} rejects definitions with structural problems, as CreateStateMachine does
     * (default true). Tests of single features may switch it off to keep their snippets short.
     */
    public StateMachineBuilder validate(boolean validate) {
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
