package dev.interlock.jobs;

import dev.interlock.log.LogContext;
import dev.interlock.log.StructuredLog;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.ArgumentTemplate;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import java.time.Clock;
import java.util.Map;
import java.util.function.Supplier;
import software.amazon.awssdk.services.emr.EmrClient;
import software.amazon.awssdk.services.emrserverless.EmrServerlessClient;
import software.amazon.awssdk.services.glue.GlueClient;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.sfn.SfnClient;

/**
 * Starts and polls jobs of every trigger type (docs/pipeline-reference.md). The AWS types reach their SDK client only when a
 * trigger of that type runs, so a function pays only for the clients its pipelines use.
 */
public final class TriggerRunners implements TriggerRunner, RunChecker, JobCanceller {

    private final HttpJob http;
    private final AirflowJob airflow;
    private final DatabricksJob databricks;
    private final GlueJob glue;
    private final EmrJob emr;
    private final EmrServerlessJob emrServerless;
    private final StepFunctionJob stepFunction;
    private final LambdaJob lambda;
    private final StructuredLog log;

    TriggerRunners(
            Supplier<GlueClient> glue,
            Supplier<EmrClient> emr,
            Supplier<EmrServerlessClient> emrServerless,
            Supplier<SfnClient> sfn,
            Supplier<LambdaClient> lambda,
            GuardedHttp http,
            OutboundTemplates templates,
            Clock clock) {
        this(glue, emr, emrServerless, sfn, lambda, http, templates, new StructuredLog("trigger", System.out, clock));
    }

    TriggerRunners(
            Supplier<GlueClient> glue,
            Supplier<EmrClient> emr,
            Supplier<EmrServerlessClient> emrServerless,
            Supplier<SfnClient> sfn,
            Supplier<LambdaClient> lambda,
            GuardedHttp http,
            OutboundTemplates templates,
            StructuredLog log) {
        this(glue, null, emr, emrServerless, sfn, lambda, http, templates, log);
    }

    TriggerRunners(
            Supplier<GlueClient> glue,
            GlueDriverLog glueDriverLog,
            Supplier<EmrClient> emr,
            Supplier<EmrServerlessClient> emrServerless,
            Supplier<SfnClient> sfn,
            Supplier<LambdaClient> lambda,
            GuardedHttp http,
            OutboundTemplates templates,
            StructuredLog log) {
        HttpCalls calls = new HttpCalls(http, templates);
        this.http = new HttpJob(calls);
        this.airflow = new AirflowJob(calls);
        this.databricks = new DatabricksJob(calls);
        this.glue = new GlueJob(glue, glueDriverLog);
        this.emr = new EmrJob(emr);
        this.emrServerless = new EmrServerlessJob(emrServerless);
        this.stepFunction = new StepFunctionJob(sfn);
        this.lambda = new LambdaJob(lambda);
        this.log = log;
    }

    /**
     * The runners a function uses.
     *
     * @param aws       the function's lazy AWS clients
     * @param templates renders URLs, headers and bodies with the run's values and credentials
     * @param http      the guarded HTTP client
     * @param clock     for log timestamps
     */
    public static TriggerRunners create(AwsClients aws, OutboundTemplates templates, GuardedHttp http, Clock clock) {
        return create(aws, templates, http, new StructuredLog("trigger", System.out, clock));
    }

    /** {@link #create(AwsClients, OutboundTemplates, GuardedHttp, Clock)} logging to {@code log}. */
    public static TriggerRunners create(
            AwsClients aws, OutboundTemplates templates, GuardedHttp http, StructuredLog log) {
        return new TriggerRunners(
                aws::glue,
                GlueDriverLog.of(aws),
                aws::emr,
                aws::emrServerless,
                aws::stepFunctions,
                new LambdaOf(aws),
                http,
                templates,
                log);
    }

    /**
     * The Lambda client as a named supplier rather than {@code aws::lambda}, which would link the Lambda service
     * classes when the runners are made: the run-checker's jar leaves them out (lambda jobs end inside the trigger).
     */
    private record LambdaOf(AwsClients aws) implements Supplier<LambdaClient> {
        @Override
        public LambdaClient get() {
            return aws.lambda();
        }
    }

    /**
     * The run checks of the job types that complete by callback (the job-state rules' types), for the orchestrator's
     * watchdog to ask about a job whose event did not come: the same checks the run-checker polls with, over the AWS
     * clients only (no outbound HTTP, no credentials). A failure to ask is {@code running} (asked again later), and so is
     * any other type (nothing waits for it by callback: never decided here).
     */
    public static RunChecker callbackJobChecks(AwsClients aws, StructuredLog log) {
        // Only these four clients: a function jar may leave the others (Lambda, HTTP credentials) out.
        GlueJob glue = new GlueJob(aws::glue);
        EmrJob emr = new EmrJob(aws::emr);
        EmrServerlessJob emrServerless = new EmrServerlessJob(aws::emrServerless);
        StepFunctionJob stepFunction = new StepFunctionJob(aws::stepFunctions);
        // A check that fails (even permanently: a missing grant) says nothing about the job, and the watchdog is only
        // a safety net: it asks again later and never decides a run on it; the execution's own wait decides then.
        return request -> checked(request, log, false, () -> switch (request.triggerType()) {
            case GLUE -> glue.check(request);
            case EMR -> emr.check(request);
            case EMR_SERVERLESS -> emrServerless.check(request);
            case STEP_FUNCTION -> stepFunction.check(request);
            case HTTP, AIRFLOW, DATABRICKS, LAMBDA ->
                RunCheck.running(request.triggerType().wireName()
                        + " jobs do not complete by callback; their own polls follow them");
        });
    }

    @Override
    public TriggerResult start(TriggerRequest request) {
        LogContext ctx =
                new LogContext(request.pipelineId(), request.scheduleId(), request.date(), request.runId(), null);
        try {
            // Execution values in the job's data fields; URLs, headers and bodies are rendered by the HTTP jobs.
            TriggerConfig trigger;
            try {
                trigger = ArgumentTemplate.expand(request.trigger(), request.templateValues());
            } catch (ArgumentTemplate.TemplateException e) {
                throw JobFailure.permanent(e.getMessage());
            }
            return switch (trigger) {
                case HttpTrigger t -> http.start(t, request);
                case AirflowTrigger t -> airflow.start(t, request);
                case DatabricksTrigger t -> databricks.start(t, request);
                case GlueTrigger t -> glue.start(t, request);
                case EmrTrigger t -> emr.start(t, request);
                case EmrServerlessTrigger t -> emrServerless.start(t, request);
                case StepFunctionTrigger t -> stepFunction.start(t, request);
                case LambdaTrigger t -> lambda.start(t);
            };
        } catch (JobFailure e) {
            log.warn(
                    ctx,
                    "trigger failed",
                    Map.of(
                            "triggerType",
                            request.trigger().type().wireName(),
                            "failureCategory",
                            e.category().name(),
                            "reason",
                            e.getMessage()));
            return TriggerResult.failed(e.getMessage(), e.category());
        } catch (RuntimeException e) {
            // A defect, not a job outcome: recorded as a failed trigger (retryable) so the run is not left hanging.
            log.error(
                    ctx,
                    "trigger crashed",
                    Map.of("triggerType", request.trigger().type().wireName()),
                    e);
            return TriggerResult.failed("trigger crashed: " + e, FailureCategory.TRANSIENT);
        }
    }

    @Override
    public Cancellation cancel(RunCheckRequest request) {
        LogContext ctx = new LogContext(request.pipelineId(), null, null, request.runId(), null);
        try {
            return switch (request.triggerType()) {
                case AIRFLOW -> airflow.cancel(request);
                case DATABRICKS -> databricks.cancel(request);
                case GLUE -> glue.cancel(request);
                case EMR -> emr.cancel(request);
                case EMR_SERVERLESS -> emrServerless.cancel(request);
                case STEP_FUNCTION -> stepFunction.cancel(request);
                case HTTP, LAMBDA ->
                    Cancellation.refused(request.triggerType().wireName()
                            + " jobs finish inside the trigger call; there is nothing to cancel");
            };
        } catch (JobFailure e) {
            log.warn(
                    ctx,
                    "job cancel failed",
                    Map.of(
                            "triggerType",
                            request.triggerType().wireName(),
                            "failureCategory",
                            e.category().name(),
                            "reason",
                            e.getMessage()));
            return Cancellation.refused("cancel failed: " + e.getMessage());
        } catch (RuntimeException e) {
            log.error(
                    ctx,
                    "job cancel crashed",
                    Map.of("triggerType", request.triggerType().wireName()),
                    e);
            return Cancellation.refused("cancel crashed: " + e);
        }
    }

    @Override
    public RunCheck check(RunCheckRequest request) {
        return checked(request, log, true, () -> switch (request.triggerType()) {
            case AIRFLOW -> airflow.check(request);
            case DATABRICKS -> databricks.check(request);
            case GLUE -> glue.check(request);
            case EMR -> emr.check(request);
            case EMR_SERVERLESS -> emrServerless.check(request);
            case STEP_FUNCTION -> stepFunction.check(request);
            // Synchronous types finish inside the trigger call; nothing is left to poll.
            case HTTP, LAMBDA ->
                RunCheck.succeeded(request.triggerType().wireName() + " triggers complete when started");
        });
    }

    /** One job system's check, which may fail with the job system's own category. */
    @FunctionalInterface
    private interface Check {
        RunCheck get() throws JobFailure;
    }

    /**
     * Runs one check, never throwing: a permanent failure to check is {@code failed} when {@code permanentFails},
     * anything else {@code running}.
     */
    private static RunCheck checked(RunCheckRequest request, StructuredLog log, boolean permanentFails, Check check) {
        LogContext ctx = new LogContext(request.pipelineId(), null, null, request.runId(), null);
        try {
            return check.get();
        } catch (JobFailure e) {
            if (permanentFails && e.category() == FailureCategory.PERMANENT) {
                log.warn(
                        ctx,
                        "run check failed",
                        Map.of("triggerType", request.triggerType().wireName(), "reason", e.getMessage()));
                return RunCheck.failed(e.getMessage(), FailureCategory.PERMANENT);
            }
            // Throttling, a 5xx, a network error or a timeout says nothing about the job: poll again next time.
            log.warn(
                    ctx,
                    "run check will be retried at the next poll",
                    Map.of(
                            "triggerType",
                            request.triggerType().wireName(),
                            "failureCategory",
                            e.category().name(),
                            "reason",
                            e.getMessage()));
            return new RunCheck(
                    RunCheckState.RUNNING, "check failed, retrying at the next poll: " + e.getMessage(), e.category());
        } catch (RuntimeException e) {
            log.error(
                    ctx,
                    "run check crashed",
                    Map.of("triggerType", request.triggerType().wireName()),
                    e);
            return new RunCheck(
                    RunCheckState.RUNNING, "check crashed, retrying at the next poll: " + e, FailureCategory.TRANSIENT);
        }
    }
}
