package dev.interlock.infra;

import dev.interlock.infra.DeploymentOptions.JobTargets;
import dev.interlock.model.trigger.GlueTrigger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Aws;
import software.amazon.awscdk.services.iam.Effect;
import software.amazon.awscdk.services.iam.PolicyStatement;

/**
 * The permissions that let the trigger start jobs, the run-checker poll them and the orchestrator's watchdog check a
 * callback job whose event did not come, each scoped to the jobs named in the deployment options (the {@code lambda:}
 * evaluators are {@link TraitEvaluatorAccess}'s). A service with nothing configured gets no
 * statement at all, so a default deployment can start no job anywhere (http/airflow/databricks triggers need none).
 */
final class JobPermissions {

    private final JobTargets jobs;

    JobPermissions(JobTargets jobs) {
        this.jobs = jobs;
    }

    /**
     * What the trigger may do: start the configured jobs and read the run it just started — and, for a trigger resumed
     * after a crash between its claim and its record, list the runs a Glue job or an EMR cluster has, to find the one
     * its run id started (Glue and EMR steps have no idempotency token).
     */
    List<PolicyStatement> trigger() {
        List<PolicyStatement> statements = new ArrayList<>();
        if (!jobs.glueJobNames().isEmpty()) {
            statements.add(allow(
                    "TriggerGlueJobs",
                    List.of("glue:StartJobRun", "glue:GetJobRun", "glue:GetJobRuns"),
                    glueJobArns()));
        }
        if (!jobs.emrClusterIds().isEmpty()) {
            statements.add(allow(
                    "TriggerEmrSteps",
                    List.of(
                            "elasticmapreduce:AddJobFlowSteps",
                            "elasticmapreduce:DescribeStep",
                            "elasticmapreduce:ListSteps"),
                    emrClusterArns()));
        }
        if (!jobs.emrServerlessApplicationIds().isEmpty()) {
            statements.add(allow(
                    "TriggerEmrServerlessJobs", List.of("emr-serverless:StartJobRun"), emrServerlessApplicationArns()));
            statements.add(
                    allow("ReadEmrServerlessJobRuns", List.of("emr-serverless:GetJobRun"), emrServerlessJobRunArns()));
            // A job runs as its execution role; passing exactly the configured roles, and only to EMR Serverless.
            statements.add(PolicyStatement.Builder.create()
                    .sid("PassEmrServerlessExecutionRoles")
                    .effect(Effect.ALLOW)
                    .actions(List.of("iam:PassRole"))
                    .resources(jobs.emrServerlessExecutionRoleArns())
                    .conditions(Map.of("StringEquals", Map.of("iam:PassedToService", "emr-serverless.amazonaws.com")))
                    .build());
        }
        if (!jobs.stateMachineArns().isEmpty()) {
            statements.add(allow("TriggerStateMachines", List.of("states:StartExecution"), jobs.stateMachineArns()));
            statements.add(allow(
                    "ReadStateMachineExecutions", List.of("states:DescribeExecution"), stateMachineExecutionArns()));
        }
        if (!jobs.triggerFunctionArns().isEmpty()) {
            statements.add(
                    allow("TriggerLambdaFunctions", List.of("lambda:InvokeFunction"), jobs.triggerFunctionArns()));
        }
        return statements;
    }

    /**
     * What the run-checker may do: read the runs of the configured jobs, and stop one that ran longer than its
     * pipeline's maximum job duration (before a retry may start it again); nothing else (lambda jobs are synchronous).
     */
    List<PolicyStatement> runChecker() {
        List<PolicyStatement> statements = new ArrayList<>();
        if (!jobs.glueJobNames().isEmpty()) {
            statements.add(allow("PollGlueJobRuns", List.of("glue:GetJobRun", "glue:BatchStopJobRun"), glueJobArns()));
            // The driver-log check of a run that ended SUCCEEDED (FALSE_SUCCESS): Glue's error log group, read only.
            statements.add(allow(
                    "ReadGlueDriverErrorLogs",
                    List.of("logs:FilterLogEvents"),
                    List.of(arnPrefix("logs") + "log-group:" + GlueTrigger.ERROR_LOG_GROUP + ":*")));
        }
        if (!jobs.emrClusterIds().isEmpty()) {
            statements.add(allow(
                    "PollEmrSteps",
                    List.of("elasticmapreduce:DescribeStep", "elasticmapreduce:CancelSteps"),
                    emrClusterArns()));
        }
        if (!jobs.emrServerlessApplicationIds().isEmpty()) {
            statements.add(allow(
                    "PollEmrServerlessJobRuns",
                    List.of("emr-serverless:GetJobRun", "emr-serverless:CancelJobRun"),
                    emrServerlessJobRunArns()));
        }
        if (!jobs.stateMachineArns().isEmpty()) {
            statements.add(allow(
                    "PollStateMachineExecutions",
                    List.of("states:DescribeExecution", "states:StopExecution"),
                    stateMachineExecutionArns()));
        }
        return statements;
    }

    /**
     * What the orchestrator's watchdog may do with jobs: read the runs of the configured callback jobs (Glue, EMR
     * steps, EMR Serverless, Step Functions) when their job-state event did not come, scoped as the run-checker's
     * reads; never start or stop one.
     */
    List<PolicyStatement> orchestrator() {
        List<PolicyStatement> statements = new ArrayList<>();
        if (!jobs.glueJobNames().isEmpty()) {
            statements.add(allow("CheckGlueJobRuns", List.of("glue:GetJobRun"), glueJobArns()));
        }
        if (!jobs.emrClusterIds().isEmpty()) {
            statements.add(allow("CheckEmrSteps", List.of("elasticmapreduce:DescribeStep"), emrClusterArns()));
        }
        if (!jobs.emrServerlessApplicationIds().isEmpty()) {
            statements.add(
                    allow("CheckEmrServerlessJobRuns", List.of("emr-serverless:GetJobRun"), emrServerlessJobRunArns()));
        }
        if (!jobs.stateMachineArns().isEmpty()) {
            statements.add(allow(
                    "CheckStateMachineExecutions", List.of("states:DescribeExecution"), stateMachineExecutionArns()));
        }
        return statements;
    }

    private static PolicyStatement allow(String sid, List<String> actions, List<String> resources) {
        return PolicyStatement.Builder.create()
                .sid(sid)
                .effect(Effect.ALLOW)
                .actions(actions)
                .resources(resources)
                .build();
    }

    private static String arnPrefix(String service) {
        return "arn:" + Aws.PARTITION + ":" + service + ":" + Aws.REGION + ":" + Aws.ACCOUNT_ID + ":";
    }

    private List<String> glueJobArns() {
        return jobs.glueJobNames().stream()
                .map(name -> arnPrefix("glue") + "job/" + name)
                .toList();
    }

    private List<String> emrClusterArns() {
        return jobs.emrClusterIds().stream()
                .map(id -> arnPrefix("elasticmapreduce") + "cluster/" + id)
                .toList();
    }

    private List<String> emrServerlessApplicationArns() {
        return jobs.emrServerlessApplicationIds().stream()
                .map(id -> arnPrefix("emr-serverless") + "/applications/" + id)
                .toList();
    }

    /** Job-run ids are minted by StartJobRun, so the grant names the application and leaves the run id open. */
    private List<String> emrServerlessJobRunArns() {
        return jobs.emrServerlessApplicationIds().stream()
                .map(id -> arnPrefix("emr-serverless") + "/applications/" + id + "/jobruns/*")
                .toList();
    }

    /** Execution names are minted per start, so the grant names the state machine and leaves the execution open. */
    private List<String> stateMachineExecutionArns() {
        return jobs.stateMachineArns().stream()
                .map(arn -> arn.replaceFirst(":stateMachine:", ":execution:") + ":*")
                .toList();
    }
}
