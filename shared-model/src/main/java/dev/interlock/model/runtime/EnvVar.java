package dev.interlock.model.runtime;

import static dev.interlock.model.runtime.InterlockFunction.API;
import static dev.interlock.model.runtime.InterlockFunction.EVALUATOR;
import static dev.interlock.model.runtime.InterlockFunction.ORCHESTRATOR;
import static dev.interlock.model.runtime.InterlockFunction.RUN_CHECKER;
import static dev.interlock.model.runtime.InterlockFunction.STREAM_ROUTER;
import static dev.interlock.model.runtime.InterlockFunction.TRIGGER;

import java.util.EnumSet;
import java.util.Set;

/**
 * Every environment variable the functions read, with the functions that need it: the CDK stack gives each
 * function only these, the local runtime sets them, and {@code Deps} reads them — one list for all three.
 */
public enum EnvVar {
    TABLE_NAME(
            "Name of the Interlock DynamoDB table.",
            null,
            true,
            EnumSet.of(STREAM_ROUTER, ORCHESTRATOR, EVALUATOR, TRIGGER, RUN_CHECKER, API)),
    STATE_MACHINE_ARN(
            "ARN of the pipeline state machine started by the stream router; the API asks it about a lock's holder.",
            null,
            true,
            EnumSet.of(STREAM_ROUTER, API)),
    ALERT_TOPIC_ARN("ARN of the SNS topic that receives alerts.", null, true, EnumSet.of(ORCHESTRATOR, TRIGGER)),
    EVALUATOR_BASE_URL(
            "Base URL for trait evaluators (readiness traits and post-run checks) given as relative paths.",
            "",
            false,
            InterlockFunction.traitEvaluatorsAnd(API)),
    OPENLINEAGE_URL(
            "Base URL of an OpenLineage HTTP receiver (Marquez-compatible: run events are POSTed to /api/v1/lineage "
                    + "under it); unset: none (docs/openlineage.md).",
            "",
            false,
            EnumSet.of(STREAM_ROUTER)),
    OPENLINEAGE_EVENT_BUS(
            "Name or ARN of an EventBridge event bus that receives each OpenLineage run event as one PutEvents entry "
                    + "(source interlock.openlineage, detail-type OpenLineage RunEvent); unset: none "
                    + "(docs/openlineage.md). With OPENLINEAGE_URL too, each event goes to both.",
            "",
            false,
            EnumSet.of(STREAM_ROUTER)),
    OPENLINEAGE_NAMESPACE(
            "The OpenLineage job namespace of this deployment's pipelines.",
            "interlock",
            false,
            EnumSet.of(STREAM_ROUTER)),
    STALE_MARKER_DAYS(
            "Markers older than this many days are skipped unless they are replays.",
            "2",
            false,
            EnumSet.of(STREAM_ROUTER, API)),
    EXECUTION_TIMEOUT_SECONDS(
            "The state machine's TimeoutSeconds; the evaluation lock outlives it.",
            "14400",
            false,
            EnumSet.of(ORCHESTRATOR)),
    RUN_LOG_TTL_DAYS("Days a run log is kept.", "30", false, EnumSet.of(ORCHESTRATOR, EVALUATOR, TRIGGER, API)),
    RETENTION_DAYS(
            "Days run states and events are kept.",
            "30",
            false,
            EnumSet.of(STREAM_ROUTER, ORCHESTRATOR, EVALUATOR, TRIGGER, RUN_CHECKER, API)),
    MAX_RERUNS_PER_DAY(
            "Reruns (late-arrival and requested via the API) allowed per pipeline, schedule and day.",
            "3",
            false,
            EnumSet.of(ORCHESTRATOR, API)),
    INTERLOCK_ALLOW_PRIVATE_URLS(
            "Allow outbound HTTP to private and loopback addresses (the local runtime sets true).",
            "false",
            false,
            InterlockFunction.traitEvaluatorsAnd(TRIGGER, RUN_CHECKER)),
    INTERLOCK_SECRET_HOSTS(
            "Which hosts each credential (${INTERLOCK_*}, ${secret:…}, ${ssm:…}) may be sent to: "
                    + "<credential pattern>=<host>[,<host>…] entries separated by ';' (e.g. INTERLOCK_AIRFLOW_*=airflow.example.com); "
                    + "unset: none may be sent anywhere.",
            "",
            false,
            InterlockFunction.traitEvaluatorsAnd(API, TRIGGER, RUN_CHECKER)),
    INTERLOCK_SECRETS_PREFIX(
            "Secrets Manager secret names pipelines may reference with ${secret:…} (a name prefix, or * "
                    + "for any); unset: none.",
            "",
            false,
            InterlockFunction.traitEvaluatorsAnd(API, TRIGGER, RUN_CHECKER)),
    INTERLOCK_SSM_PARAMETER_PREFIX(
            "SSM parameter names pipelines may reference with ${ssm:…} (a name prefix, or * for "
                    + "any); unset: none.",
            "",
            false,
            InterlockFunction.traitEvaluatorsAnd(API, TRIGGER, RUN_CHECKER)),
    INTERLOCK_SECRET_CACHE_SECONDS(
            "Seconds a resolved secret or parameter value is reused before it is read again "
                    + "(0: read on every call).",
            "300",
            false,
            InterlockFunction.traitEvaluatorsAnd(TRIGGER, RUN_CHECKER)),
    INTERLOCK_ENDPOINT_DYNAMODB(
            "Endpoint override for DynamoDB (local runtime, tests).",
            "",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_STEPFUNCTIONS(
            "Endpoint override for Step Functions.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_LAMBDA("Endpoint override for Lambda.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_SNS("Endpoint override for SNS.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_GLUE("Endpoint override for Glue.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_LOGS(
            "Endpoint override for CloudWatch Logs (the Glue driver-log check).",
            "",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_EMR("Endpoint override for EMR.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_EMR_SERVERLESS(
            "Endpoint override for EMR Serverless.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_EVENTS(
            "Endpoint override for EventBridge (OpenLineage run events on a bus).",
            "",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_SECRETSMANAGER(
            "Endpoint override for Secrets Manager.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_ENDPOINT_SSM(
            "Endpoint override for SSM Parameter Store.", "", false, EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_PRIMING(
            "When a function warms itself on its bundled priming events with every AWS call answered "
                    + "locally: auto (before a SnapStart snapshot and in provisioned-concurrency init), always (every init), never.",
            "auto",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    INTERLOCK_AWS_REQUEST_LOG_DIR(
            "Tests and the local runtime only: a directory where every AWS request a function "
                    + "makes is recorded as a JSON line (function, IAM action, resource ARN) for the IAM conformance check; "
                    + "empty records nothing.",
            "",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    AWS_LAMBDA_FUNCTION_NAME(
            "Name of the running function (set by Lambda; the local runtime sets each function's "
                    + "module name, which names its recorded AWS requests).",
            "",
            false,
            EnumSet.noneOf(InterlockFunction.class)),
    AWS_REGION(
            "Region of every AWS client (set by Lambda).", "us-east-1", false, EnumSet.noneOf(InterlockFunction.class)),
    AWS_LAMBDA_INITIALIZATION_TYPE(
            "How Lambda initialises the container: on-demand, provisioned-concurrency or "
                    + "snap-start (set by Lambda).",
            "on-demand",
            false,
            EnumSet.noneOf(InterlockFunction.class));

    private final String description;
    private final String defaultValue;
    private final boolean required;
    private final Set<InterlockFunction> usedBy;

    EnvVar(String description, String defaultValue, boolean required, Set<InterlockFunction> usedBy) {
        this.description = description;
        this.defaultValue = defaultValue;
        this.required = required;
        this.usedBy = usedBy;
    }

    /** What the variable means, for docs and error messages. */
    public String description() {
        return description;
    }

    /** Default when unset; {@code null} for required variables. */
    public String defaultValue() {
        return defaultValue;
    }

    /** Whether a function that uses it fails to start without it. */
    public boolean required() {
        return required;
    }

    /** Functions that read it (empty for variables set only by the local runtime or the Lambda service). */
    public Set<InterlockFunction> usedBy() {
        return Set.copyOf(usedBy);
    }

    /** The variables one function reads. */
    public static Set<EnvVar> usedBy(InterlockFunction function) {
        EnumSet<EnvVar> result = EnumSet.noneOf(EnvVar.class);
        for (EnvVar v : values()) {
            if (v.usedBy.contains(function)) {
                result.add(v);
            }
        }
        return result;
    }
}
