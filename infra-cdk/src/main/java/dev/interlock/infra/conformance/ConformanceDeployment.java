package dev.interlock.infra.conformance;

import dev.interlock.infra.DeploymentOptions;
import dev.interlock.model.runtime.InterlockFunction;
import java.util.ArrayList;
import java.util.Arrays;
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
 * in context — exactly the jobs the trigger, the run-checker and {@code lambda:} evaluators (of readiness traits and
 * of post-run checks) called while the tests ran,
 * and the secret and parameter name prefixes (the common path of the names they read) their credential references
 * needed, and the event bus the stream router put OpenLineage run events on.
 * Job grants depend on those names only by putting them into ARNs, so this asks the real question: does a deployment
 * configured for these jobs allow every call the code makes on them?
 */
final class ConformanceDeployment {

    private static final Set<String> JOB_FUNCTIONS = Set.of("trigger", "run-checker", "evaluator");
    /** What an evaluator call reaches beyond HTTP: {@code lambda:} evaluators and the credentials of its headers. */
    private static final Set<String> EVALUATOR_SERVICES = Set.of("lambda", "secretsmanager", "ssm");

    private static final Pattern GLUE_JOB = Pattern.compile("arn:[^:]+:glue:[^:]*:[^:]*:job/(.+)");
    private static final Pattern EMR_CLUSTER = Pattern.compile("arn:[^:]+:elasticmapreduce:[^:]*:[^:]*:cluster/(.+)");
    private static final Pattern EMR_SERVERLESS_APPLICATION =
            Pattern.compile("arn:[^:]+:emr-serverless:[^:]*:[^:]*:/applications/([^/]+).*");
    private static final Pattern EXECUTION = Pattern.compile("(arn:[^:]+:states:[^:]*:[^:]*):execution:([^:]+):.+");
    /** The recorder names a secret by its name and the six-character suffix AWS appends, as a pattern. */
    private static final Pattern SECRET =
            Pattern.compile("arn:[^:]+:secretsmanager:[^:]*:[^:]*:secret:(.+?)(-[?]{6})?");

    private static final Pattern PARAMETER = Pattern.compile("arn:[^:]+:ssm:[^:]*:[^:]*:parameter/(.+)");
    private static final Pattern EVENT_BUS = Pattern.compile("arn:[^:]+:events:[^:]*:[^:]*:event-bus/(.+)");

    private ConformanceDeployment() {}

    /**
     * Whether a request names a job, a {@code lambda:} evaluator or a credential a deployment would list: any request of
     * the job functions; of the orchestrator, only the evaluator calls of its post-run checks (its other requests go to
     * Interlock's own resources and the jobs the trigger started).
     */
    private static boolean namesJobs(RecordedRequest r) {
        return JOB_FUNCTIONS.contains(r.function()) || callsEvaluators(r) && EVALUATOR_SERVICES.contains(service(r));
    }

    /** A request of a function that evaluates traits (the evaluator; the orchestrator's post-run checks). */
    private static boolean callsEvaluators(RecordedRequest r) {
        return Arrays.stream(InterlockFunction.values())
                .anyMatch(f -> f.evaluatesTraits() && f.moduleName().equals(r.function()));
    }

    private static String service(RecordedRequest r) {
        return r.action().substring(0, Math.max(0, r.action().indexOf(':')));
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
        Set<String> secrets = new LinkedHashSet<>();
        Set<String> parameters = new LinkedHashSet<>();
        Set<String> lineageBuses = new LinkedHashSet<>();
        for (RecordedRequest r : requests) {
            // The stream router's OpenLineage run events: the bus a deployment names in openLineageEventBus.
            if (r.function().equals("stream-router") && r.action().equals("events:PutEvents") && r.resource() != null) {
                group(EVENT_BUS, r.resource()).ifPresent(lineageBuses::add);
                continue;
            }
            if (!namesJobs(r) || r.resource() == null) {
                continue;
            }
            if (r.action().equals("secretsmanager:GetSecretValue")) {
                group(SECRET, r.resource()).ifPresent(secrets::add);
                continue;
            }
            if (r.action().equals("ssm:GetParameter")) {
                group(PARAMETER, r.resource()).ifPresent(name -> parameters.add("/" + name));
                continue;
            }
            if (r.resourceIsPattern()) {
                continue;
            }
            String resource = r.resource();
            // By the action's service: an EMR Serverless start is recorded with the iam:PassRole it implies.
            switch (service(r)) {
                case "glue" -> group(GLUE_JOB, resource).ifPresent(glue::add);
                case "elasticmapreduce" -> group(EMR_CLUSTER, resource).ifPresent(clusters::add);
                case "emr-serverless" ->
                    group(EMR_SERVERLESS_APPLICATION, resource).ifPresent(applications::add);
                case "iam" -> {
                    if (r.action().equals("iam:PassRole")) {
                        roles.add(resource);
                    }
                }
                case "states" -> {
                    Matcher m = EXECUTION.matcher(resource);
                    stateMachines.add(m.matches() ? m.group(1) + ":stateMachine:" + m.group(2) : resource);
                }
                case "lambda" -> (callsEvaluators(r) ? evaluatorFunctions : triggerFunctions).add(resource);
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
        // A deployment names one bus: events put on any other are then judged, rightly, not allowed.
        lineageBuses.stream().findFirst().ifPresent(bus -> context.put(DeploymentOptions.OPEN_LINEAGE_EVENT_BUS, bus));
        commonPath(secrets).ifPresent(prefix -> context.put(DeploymentOptions.SECRETS_PREFIX, prefix));
        commonPath(parameters).ifPresent(prefix -> context.put(DeploymentOptions.SSM_PARAMETER_PREFIX, prefix));
        return context;
    }

    /**
     * The prefix a deployment would name for these names: their common leading path up to its last {@code /}
     * ({@code interlock/airflow/prod} and {@code interlock/checks} → {@code interlock/}), else their common prefix.
     */
    static java.util.Optional<String> commonPath(Set<String> names) {
        if (names.isEmpty()) {
            return java.util.Optional.empty();
        }
        String common = names.iterator().next();
        for (String name : names) {
            int i = 0;
            while (i < common.length() && i < name.length() && common.charAt(i) == name.charAt(i)) {
                i++;
            }
            common = common.substring(0, i);
        }
        int slash = common.lastIndexOf('/');
        String prefix = slash > 0 ? common.substring(0, slash + 1) : common;
        return prefix.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(prefix);
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
