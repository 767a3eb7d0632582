package dev.interlock.infra.conformance;

import dev.interlock.infra.DeploymentOptions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The deployment whose roles the recorded requests are judged against: the defaults, plus — as a user would name them
 * in context — exactly the jobs the trigger, the run-checker and {@code lambda:} evaluators called while the tests ran.
 * Job grants depend on those names only by putting them into ARNs, so this asks the real question: does a deployment
 * configured for these jobs allow every call the code makes on them?
 */
final class ConformanceDeployment {

    private static final Set<String> JOB_FUNCTIONS = Set.of("trigger", "run-checker", "evaluator");
    private static final Pattern GLUE_JOB = Pattern.compile("arn:[^:]+:glue:[^:]*:[^:]*:job/(.+)");
    private static final Pattern EMR_CLUSTER = Pattern.compile("arn:[^:]+:elasticmapreduce:[^:]*:[^:]*:cluster/(.+)");
    private static final Pattern EMR_SERVERLESS_APPLICATION =
            Pattern.compile("arn:[^:]+:emr-serverless:[^:]*:[^:]*:/applications/([^/]+).*");
    private static final Pattern EXECUTION = Pattern.compile("(arn:[^:]+:states:[^:]*:[^:]*):execution:([^:]+):.+");

    private ConformanceDeployment() {
    }

    /** CDK context naming the recorded jobs (empty lists are left out). */
    static Map<String, Object> jobContext(Collection<RecordedRequest> requests) {
        Set<String> glue = new LinkedHashSet<>();
        Set<String> clusters = new LinkedHashSet<>();
        Set<String> applications = new LinkedHashSet<>();
        Set<String> roles = new LinkedHashSet<>();
        Set<String> stateMachines = new LinkedHashSet<>();
        Set<String> triggerFunctions = new LinkedHashSet<>();
        Set<String> evaluatorFunctions = new LinkedHashSet<>();
        for (RecordedRequest r : requests) {
            if (!JOB_FUNCTIONS.contains(r.function()) || r.resource() == null || r.resourceIsPattern()) {
                continue;
            }
            String resource = r.resource();
            // By the action's service: an EMR Serverless start is recorded with the iam:PassRole it implies.
            switch (r.action().substring(0, Math.max(0, r.action().indexOf(':')))) {
                case "glue" -> group(GLUE_JOB, resource).ifPresent(glue::add);
                case "elasticmapreduce" -> group(EMR_CLUSTER, resource).ifPresent(clusters::add);
                case "emr-serverless" -> group(EMR_SERVERLESS_APPLICATION, resource).ifPresent(applications::add);
                case "iam" -> {
                    if (r.action().equals("iam:PassRole")) {
                        roles.add(resource);
                    }
                }
                case "states" -> {
                    Matcher m = EXECUTION.matcher(resource);
                    stateMachines.add(m.matches() ? m.group(1) + ":stateMachine:" + m.group(2) : resource);
                }
                case "lambda" -> (r.function().equals("evaluator") ? evaluatorFunctions : triggerFunctions).add(resource);
                default -> {
                    // not a job service
                }
            }
        }
        if (!applications.isEmpty() && roles.isEmpty()) {
            // Only polled, never started here: the options want a role beside the applications. This one is never used.
            roles.add("arn:aws:iam::000000000000:role/interlock-conformance-no-job-started");
        }
        Map<String, Object> context = new LinkedHashMap<>();
        put(context, DeploymentOptions.GLUE_JOB_NAMES, glue);
        put(context, DeploymentOptions.EMR_CLUSTER_IDS, clusters);
        put(context, DeploymentOptions.EMR_SERVERLESS_APPLICATION_IDS, applications);
        put(context, DeploymentOptions.EMR_SERVERLESS_EXECUTION_ROLE_ARNS, applications.isEmpty() ? Set.of() : roles);
        put(context, DeploymentOptions.STATE_MACHINE_ARNS, stateMachines);
        put(context, DeploymentOptions.TRIGGER_FUNCTION_ARNS, triggerFunctions);
        put(context, DeploymentOptions.EVALUATOR_FUNCTION_ARNS, evaluatorFunctions);
        return context;
    }

    private static java.util.Optional<String> group(Pattern pattern, String value) {
        Matcher m = pattern.matcher(value);
        return m.matches() ? java.util.Optional.of(m.group(1)) : java.util.Optional.empty();
    }

    private static void put(Map<String, Object> context, String key, Set<String> values) {
        if (!values.isEmpty()) {
            context.put(key, List.copyOf(new ArrayList<>(values)));
        }
    }
}
