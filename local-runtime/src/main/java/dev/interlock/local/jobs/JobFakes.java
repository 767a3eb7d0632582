package dev.interlock.local.jobs;

import dev.interlock.statemachine.engine.EngineClock;
import java.util.function.Supplier;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

/**
 * The local runtime's AWS job fakes (Glue, EMR steps, EMR Serverless, Step Functions executions of other state
 * machines, Lambda functions), all running on the engine's clock, so {@code --time-scale} shortens them like every
 * other wait, and publishing their job-state events through EventBridge {@code PutEvents}. How each behaves comes
 * from its own arguments: {@link FakeJob}.
 */
public final class JobFakes {

    private final GlueJobs glue;
    private final EmrSteps emr;
    private final EmrServerlessJobs emrServerless;
    private final StepFunctionsJobs stepFunctions;
    private final LambdaJobs lambda;

    /** Fakes on {@code clock} that publish with {@code eventBridge} (created on first event, once the endpoint is up). */
    public JobFakes(EngineClock clock, Supplier<EventBridgeClient> eventBridge) {
        JobEvents events = new JobEvents(eventBridge);
        this.glue = new GlueJobs(clock, events);
        this.emr = new EmrSteps(clock, events);
        this.emrServerless = new EmrServerlessJobs(clock, events);
        this.stepFunctions = new StepFunctionsJobs(clock, events);
        this.lambda = new LambdaJobs(clock);
    }

    public GlueJobs glue() {
        return glue;
    }

    public EmrSteps emr() {
        return emr;
    }

    public EmrServerlessJobs emrServerless() {
        return emrServerless;
    }

    public StepFunctionsJobs stepFunctions() {
        return stepFunctions;
    }

    public LambdaJobs lambda() {
        return lambda;
    }
}
