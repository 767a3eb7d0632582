package dev.interlock.local.jobs;

import dev.interlock.statemachine.engine.EngineClock;
import java.nio.file.Path;
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
    private final GlueLogs glueLogs;
    private final StartHolds holds;

    /**
     * Fakes on {@code clock} that publish with {@code eventBridge} (created on first event, once the endpoint is up),
     * keeping their runs in {@code dir} (one journal per service; null: in memory only). The runs journaled there are
     * read back now, so the fakes answer for them from their first call — a resumed trigger looking up the job its
     * dead attempt started finds it even if it asks before {@link #resumeRuns()}.
     */
    public JobFakes(EngineClock clock, Supplier<EventBridgeClient> eventBridge, Path dir) {
        this(clock, eventBridge, dir, new StartHolds());
    }

    /** The same, with start calls held by {@code holds} (a test hook: {@link StartHolds}). */
    public JobFakes(EngineClock clock, Supplier<EventBridgeClient> eventBridge, Path dir, StartHolds holds) {
        this.holds = holds;
        JobEvents events = new JobEvents(eventBridge);
        this.glue = new GlueJobs(clock, events, journal(dir, "glue"), holds);
        this.emr = new EmrSteps(clock, events, journal(dir, "emr-steps"), holds);
        this.emrServerless = new EmrServerlessJobs(clock, events, journal(dir, "emr-serverless"), holds);
        this.stepFunctions = new StepFunctionsJobs(clock, events, journal(dir, "step-functions"), holds);
        this.lambda = new LambdaJobs(clock);
        this.glueLogs = new GlueLogs(glue, clock);
    }

    private static FakeRunJournal journal(Path dir, String service) {
        return dir == null ? FakeRunJournal.inMemory() : FakeRunJournal.inFile(dir.resolve(service + ".jsonl"));
    }

    /**
     * Lets the journaled runs go on, once the event bus and the executions are up: a run still running ends at its due
     * time and publishes its event then; a run that ended while the process was down publishes its event now. (A
     * Lambda function's synchronous invocation ends with the process, as its caller's connection does.)
     */
    public void resumeRuns() {
        glue.resume();
        emr.resume();
        emrServerless.resume();
        stepFunctions.resume();
    }

    public GlueJobs glue() {
        return glue;
    }

    /** CloudWatch Logs' FilterLogEvents over the Glue fakes' error log. */
    public GlueLogs glueLogs() {
        return glueLogs;
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

    /** The test hook that holds start calls in flight ({@link StartHolds}); nothing is held unless a test asks. */
    public StartHolds holds() {
        return holds;
    }
}
