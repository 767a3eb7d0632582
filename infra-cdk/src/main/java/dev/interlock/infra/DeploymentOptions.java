package dev.interlock.infra;

import dev.interlock.model.lineage.LineageEventBus;
import dev.interlock.model.runtime.EnvVar;
import dev.interlock.model.secret.CredentialReference;
import dev.interlock.model.secret.SecretHosts;
import dev.interlock.model.validation.ClosestName;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Every deployment choice of the Interlock stack, read from CDK context in ONE place ({@link #fromContext}) and
 * validated as a whole: a bad context value fails synthesis with every problem listed, before any resource exists.
 * The keys are documented in {@code infra-cdk/README.md}.
 */
public record DeploymentOptions(
        String stackName,
        boolean deletionProtection,
        int logRetentionDays,
        ApiAuth apiAuth,
        int apiThrottleRateLimit,
        int apiThrottleBurstLimit,
        int apiMaxRequestBodyKb,
        boolean apiGatewayAccountRole,
        int watchdogRateMinutes,
        boolean jobStateRules,
        Optional<String> alarmTopicArn,
        String evaluatorBaseUrl,
        int staleMarkerDays,
        int runLogTtlDays,
        int retentionDays,
        int maxRerunsPerDay,
        JobTargets jobs,
        SecretAccess secrets,
        Optional<String> restoredTableStreamArn,
        String openLineageUrl,
        String openLineageNamespace,
        Optional<String> openLineageEventBus) {

    /** How callers of the registration API authenticate. */
    public enum ApiAuth {
        /** SigV4-signed requests by AWS principals allowed {@code execute-api:Invoke} (the default). */
        IAM,
        /** An API key in {@code x-api-key}, issued with a usage plan. */
        API_KEY;

        static ApiAuth fromContext(String value) {
            return switch (value) {
                case "iam" -> IAM;
                case "api-key" -> API_KEY;
                default -> throw new IllegalArgumentException("must be 'iam' or 'api-key', was '" + value + "'");
            };
        }
    }

    /**
     * The jobs Interlock may start and poll. Each list scopes one family of IAM permissions; an empty list means the
     * trigger and run-checker get no permission for that service at all.
     */
    public record JobTargets(
            List<String> glueJobNames,
            List<String> emrClusterIds,
            List<String> emrServerlessApplicationIds,
            List<String> emrServerlessExecutionRoleArns,
            List<String> stateMachineArns,
            List<String> triggerFunctionArns,
            List<String> evaluatorFunctionArns) {

        public JobTargets {
            glueJobNames = List.copyOf(glueJobNames);
            emrClusterIds = List.copyOf(emrClusterIds);
            emrServerlessApplicationIds = List.copyOf(emrServerlessApplicationIds);
            emrServerlessExecutionRoleArns = List.copyOf(emrServerlessExecutionRoleArns);
            stateMachineArns = List.copyOf(stateMachineArns);
            triggerFunctionArns = List.copyOf(triggerFunctionArns);
            evaluatorFunctionArns = List.copyOf(evaluatorFunctionArns);
        }

        /** No job of any kind configured. */
        public static JobTargets none() {
            return new JobTargets(List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        }
    }

    /**
     * Where pipelines' credential references may be read from and sent to. Without a prefix the functions get no
     * permission for that store and registration refuses its references.
     *
     * @param secretsPrefix      Secrets Manager names the functions may read ({@code INTERLOCK_SECRETS_PREFIX})
     * @param ssmParameterPrefix SSM parameter names, starting with {@code /} ({@code INTERLOCK_SSM_PARAMETER_PREFIX})
     * @param secretHosts        the allow-list in its environment form ({@code INTERLOCK_SECRET_HOSTS}); empty: none
     * @param kmsKeyArns         customer managed keys the secrets or parameters are encrypted with
     * @param cacheSeconds       {@code INTERLOCK_SECRET_CACHE_SECONDS}
     */
    public record SecretAccess(
            Optional<String> secretsPrefix,
            Optional<String> ssmParameterPrefix,
            String secretHosts,
            List<String> kmsKeyArns,
            int cacheSeconds) {
        public SecretAccess {
            kmsKeyArns = List.copyOf(kmsKeyArns);
        }

        /** Whether any function may read a secret or a parameter. */
        public boolean readsAny() {
            return secretsPrefix.isPresent() || ssmParameterPrefix.isPresent();
        }
    }

    // Context keys, one per option (README "Context options").
    public static final String STACK_NAME = "stackName";
    public static final String DELETION_PROTECTION = "deletionProtection";
    public static final String LOG_RETENTION_DAYS = "logRetentionDays";
    public static final String API_AUTH = "apiAuth";
    public static final String API_THROTTLE_RATE_LIMIT = "apiThrottleRateLimit";
    public static final String API_THROTTLE_BURST_LIMIT = "apiThrottleBurstLimit";
    public static final String API_MAX_REQUEST_BODY_KB = "apiMaxRequestBodyKb";
    public static final String API_GATEWAY_ACCOUNT_ROLE = "apiGatewayAccountRole";
    public static final String WATCHDOG_RATE_MINUTES = "watchdogRateMinutes";
    public static final String JOB_STATE_RULES = "jobStateRules";
    public static final String ALARM_TOPIC_ARN = "alarmTopicArn";
    public static final String EVALUATOR_BASE_URL = "evaluatorBaseUrl";
    public static final String STALE_MARKER_DAYS = "staleMarkerDays";
    public static final String RUN_LOG_TTL_DAYS = "runLogTtlDays";
    public static final String RETENTION_DAYS = "retentionDays";
    public static final String MAX_RERUNS_PER_DAY = "maxRerunsPerDay";
    public static final String GLUE_JOB_NAMES = "glueJobNames";
    public static final String EMR_CLUSTER_IDS = "emrClusterIds";
    public static final String EMR_SERVERLESS_APPLICATION_IDS = "emrServerlessApplicationIds";
    public static final String EMR_SERVERLESS_EXECUTION_ROLE_ARNS = "emrServerlessExecutionRoleArns";
    public static final String STATE_MACHINE_ARNS = "stateMachineArns";
    public static final String TRIGGER_FUNCTION_ARNS = "triggerFunctionArns";
    public static final String EVALUATOR_FUNCTION_ARNS = "evaluatorFunctionArns";
    public static final String SECRETS_PREFIX = "secretsPrefix";
    public static final String SSM_PARAMETER_PREFIX = "ssmParameterPrefix";
    public static final String SECRET_HOSTS = "secretHosts";
    public static final String SECRETS_KMS_KEY_ARNS = "secretsKmsKeyArns";
    public static final String SECRET_CACHE_SECONDS = "secretCacheSeconds";
    public static final String RESTORED_TABLE_STREAM_ARN = "restoredTableStreamArn";
    public static final String OPEN_LINEAGE_URL = "openLineageUrl";
    public static final String OPEN_LINEAGE_NAMESPACE = "openLineageNamespace";
    public static final String OPEN_LINEAGE_EVENT_BUS = "openLineageEventBus";

    /** An OpenLineage job namespace: what Marquez and most consumers accept in a URL path segment. */
    private static final Pattern LINEAGE_NAMESPACE = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    /** Whether the stack's stream router emits OpenLineage run events (docs/openlineage.md): over HTTP, to a bus, or both. */
    public boolean emitsLineage() {
        return !openLineageUrl.isEmpty() || openLineageEventBus.isPresent();
    }

    /** A context key this close to an option is taken for a misspelling of it; farther ones may be the team's own. */
    private static final int MAX_KEY_EDITS = 2;

    /** Every context key above: what a near-miss key is compared with, and what infra-cdk/README.md must document. */
    public static final List<String> OPTIONS = List.of(
            STACK_NAME,
            DELETION_PROTECTION,
            LOG_RETENTION_DAYS,
            API_AUTH,
            API_THROTTLE_RATE_LIMIT,
            API_THROTTLE_BURST_LIMIT,
            API_MAX_REQUEST_BODY_KB,
            API_GATEWAY_ACCOUNT_ROLE,
            WATCHDOG_RATE_MINUTES,
            JOB_STATE_RULES,
            ALARM_TOPIC_ARN,
            EVALUATOR_BASE_URL,
            STALE_MARKER_DAYS,
            RUN_LOG_TTL_DAYS,
            RETENTION_DAYS,
            MAX_RERUNS_PER_DAY,
            GLUE_JOB_NAMES,
            EMR_CLUSTER_IDS,
            EMR_SERVERLESS_APPLICATION_IDS,
            EMR_SERVERLESS_EXECUTION_ROLE_ARNS,
            STATE_MACHINE_ARNS,
            TRIGGER_FUNCTION_ARNS,
            EVALUATOR_FUNCTION_ARNS,
            SECRETS_PREFIX,
            SSM_PARAMETER_PREFIX,
            SECRET_HOSTS,
            SECRETS_KMS_KEY_ARNS,
            SECRET_CACHE_SECONDS,
            RESTORED_TABLE_STREAM_ARN,
            OPEN_LINEAGE_URL,
            OPEN_LINEAGE_NAMESPACE,
            OPEN_LINEAGE_EVENT_BUS);

    /** Retention periods CloudWatch Logs accepts. */
    static final List<Integer> LOG_RETENTION_CHOICES = List.of(
            1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653);
    /**
     * The registration API function refuses bodies over 256 KiB itself (413, see lambdas/api openapi.yaml); the
     * gateway guard defaults to the same limit so a refused body never reaches Lambda. API Gateway's own cap is 10 MB.
     */
    static final int DEFAULT_BODY_LIMIT_KB = 256;

    static final int MAX_BODY_LIMIT_KB = 10_240;

    private static final Pattern STACK_NAME_FORMAT = Pattern.compile("[A-Za-z][A-Za-z0-9-]{0,127}");
    private static final Pattern GLUE_JOB_NAME = Pattern.compile("[\\w.\\-]{1,255}");
    private static final Pattern EMR_CLUSTER_ID = Pattern.compile("j-[A-Z0-9]{1,64}");
    private static final Pattern EMR_SERVERLESS_APPLICATION_ID = Pattern.compile("[0-9a-z]{1,64}");
    private static final Pattern ROLE_ARN = Pattern.compile("arn:aws[a-z-]*:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");
    private static final Pattern STATE_MACHINE_ARN =
            Pattern.compile("arn:aws[a-z-]*:states:[a-z0-9-]+:\\d{12}:stateMachine:[A-Za-z0-9_-]{1,80}");
    private static final Pattern FUNCTION_ARN = Pattern.compile(
            "arn:aws[a-z-]*:lambda:[a-z0-9-]+:\\d{12}:function:[A-Za-z0-9_-]{1,64}(:[A-Za-z0-9$_-]{1,128})?");
    private static final Pattern TOPIC_ARN =
            Pattern.compile("arn:aws[a-z-]*:sns:[a-z0-9-]+:\\d{12}:[A-Za-z0-9_-]{1,256}");
    private static final Pattern KMS_KEY_ARN =
            Pattern.compile("arn:aws[a-z-]*:kms:[a-z0-9-]+:\\d{12}:key/[A-Za-z0-9-]{1,64}");
    /** A table's stream ARN; group 1 is the table's name. */
    private static final Pattern TABLE_STREAM_ARN = Pattern.compile(
            "arn:aws[a-z-]*:dynamodb:[a-z0-9-]+:\\d{12}:table/([A-Za-z0-9_.-]{3,255})/stream/[A-Za-z0-9:._-]+");
    /** A cached credential is at most this old; longer would delay a rotation past what an operator expects. */
    static final int MAX_SECRET_CACHE_SECONDS = 3_600;

    public DeploymentOptions {
        alarmTopicArn = alarmTopicArn == null ? Optional.empty() : alarmTopicArn;
        openLineageEventBus = openLineageEventBus == null ? Optional.empty() : openLineageEventBus;
        restoredTableStreamArn = restoredTableStreamArn == null ? Optional.empty() : restoredTableStreamArn;
    }

    /**
     * The table the functions use when it is not the stack's own: one restored from a backup or to a point in time
     * (docs/operations.md, "Restore to a point in time"), named by its stream's ARN, which the stream router reads.
     */
    public Optional<String> restoredTableName() {
        return restoredTableStreamArn.map(arn -> {
            Matcher m = TABLE_STREAM_ARN.matcher(arn);
            if (!m.matches()) {
                throw new IllegalStateException("not a table stream ARN: " + arn);
            }
            return m.group(1);
        });
    }

    /** The defaults: what {@code cdk deploy} without any {@code -c} builds. */
    public static DeploymentOptions defaults() {
        return fromContext(key -> null);
    }

    /**
     * Reads every option from CDK context ({@code node.tryGetContext}). Values come as strings from {@code -c key=value}
     * and as JSON values from {@code cdk.json}; lists accept a JSON array or a comma-separated string.
     *
     * @throws InvalidOptions listing every invalid option at once
     */
    public static DeploymentOptions fromContext(Function<String, Object> context) {
        ContextReader r = new ContextReader(context);
        String stackName = r.string(STACK_NAME, "Interlock", STACK_NAME_FORMAT);
        boolean deletionProtection = r.bool(DELETION_PROTECTION, true);
        int logRetentionDays = r.choice(LOG_RETENTION_DAYS, 30, LOG_RETENTION_CHOICES);
        ApiAuth apiAuth = r.apiAuth(API_AUTH);
        int rate = r.positiveInt(API_THROTTLE_RATE_LIMIT, 50, 10_000);
        int burst = r.positiveInt(API_THROTTLE_BURST_LIMIT, 100, 5_000);
        int bodyKb = r.positiveInt(API_MAX_REQUEST_BODY_KB, DEFAULT_BODY_LIMIT_KB, MAX_BODY_LIMIT_KB);
        boolean accountRole = r.bool(API_GATEWAY_ACCOUNT_ROLE, true);
        int watchdog = r.positiveInt(WATCHDOG_RATE_MINUTES, 5, 60);
        // On by default: jobs of the callback types complete by their state-change events (a lost one costs a fallback
        // poll).
        boolean jobStateRules = r.bool(JOB_STATE_RULES, true);
        Optional<String> alarmTopic = Optional.ofNullable(r.string(ALARM_TOPIC_ARN, null, TOPIC_ARN));
        String evaluatorBaseUrl = r.httpsUrl(EVALUATOR_BASE_URL);
        int staleMarkerDays = r.positiveInt(STALE_MARKER_DAYS, defaultOf(EnvVar.STALE_MARKER_DAYS), 30);
        int runLogTtlDays = r.positiveInt(RUN_LOG_TTL_DAYS, defaultOf(EnvVar.RUN_LOG_TTL_DAYS), 3_650);
        int retentionDays = r.positiveInt(RETENTION_DAYS, defaultOf(EnvVar.RETENTION_DAYS), 3_650);
        int maxReruns = r.positiveInt(MAX_RERUNS_PER_DAY, defaultOf(EnvVar.MAX_RERUNS_PER_DAY), 100);
        JobTargets jobs = new JobTargets(
                r.list(GLUE_JOB_NAMES, GLUE_JOB_NAME),
                r.list(EMR_CLUSTER_IDS, EMR_CLUSTER_ID),
                r.list(EMR_SERVERLESS_APPLICATION_IDS, EMR_SERVERLESS_APPLICATION_ID),
                r.list(EMR_SERVERLESS_EXECUTION_ROLE_ARNS, ROLE_ARN),
                r.list(STATE_MACHINE_ARNS, STATE_MACHINE_ARN),
                r.list(TRIGGER_FUNCTION_ARNS, FUNCTION_ARN),
                r.list(EVALUATOR_FUNCTION_ARNS, FUNCTION_ARN));
        SecretAccess secrets = r.secretAccess();
        Optional<String> restoredTable =
                Optional.ofNullable(r.string(RESTORED_TABLE_STREAM_ARN, null, TABLE_STREAM_ARN));
        String openLineageUrl = r.httpsUrl(OPEN_LINEAGE_URL);
        String openLineageNamespace =
                r.string(OPEN_LINEAGE_NAMESPACE, EnvVar.OPENLINEAGE_NAMESPACE.defaultValue(), LINEAGE_NAMESPACE);
        Optional<String> openLineageEventBus =
                Optional.ofNullable(r.string(OPEN_LINEAGE_EVENT_BUS, null, LineageEventBus.NAME_OR_ARN));
        if (burst < rate) {
            r.problem(API_THROTTLE_BURST_LIMIT, "must be at least " + API_THROTTLE_RATE_LIMIT + " (" + rate + ")");
        }
        // Starting an EMR Serverless job without passing its execution role cannot succeed, and passing a role to
        // any application is the broad grant we refuse: both lists are required together.
        if (jobs.emrServerlessApplicationIds().isEmpty()
                != jobs.emrServerlessExecutionRoleArns().isEmpty()) {
            r.problem(
                    EMR_SERVERLESS_EXECUTION_ROLE_ARNS,
                    "must be given together with " + EMR_SERVERLESS_APPLICATION_IDS);
        }
        r.failIfAnyProblem();
        return new DeploymentOptions(
                stackName,
                deletionProtection,
                logRetentionDays,
                apiAuth,
                rate,
                burst,
                bodyKb,
                accountRole,
                watchdog,
                jobStateRules,
                alarmTopic,
                evaluatorBaseUrl,
                staleMarkerDays,
                runLogTtlDays,
                retentionDays,
                maxReruns,
                jobs,
                secrets,
                restoredTable,
                openLineageUrl,
                openLineageNamespace,
                openLineageEventBus);
    }

    /**
     * Reads the same options from a plain map (what the CDK CLI hands the app, as tests and {@code cdk.json} hold
     * them); a key that is a near miss of an option ({@code apiAuht}, {@code glueJobName}) is a problem too, since it
     * would otherwise be ignored. Keys far from every option (CDK's own, a team's) are left alone.
     */
    public static DeploymentOptions fromContext(Map<String, ?> context) {
        List<String> misspelt = new ArrayList<>();
        for (String key : context.keySet()) {
            if (!OPTIONS.contains(key) && !key.contains(":") && !key.startsWith("@")) {
                ClosestName.within(key, OPTIONS, MAX_KEY_EDITS)
                        .ifPresent(meant ->
                                misspelt.add("context '" + key + "' is not an option; did you mean '" + meant + "'?"));
            }
        }
        try {
            DeploymentOptions options = fromContext(context::get);
            if (!misspelt.isEmpty()) {
                throw new InvalidOptions(misspelt);
            }
            return options;
        } catch (InvalidOptions e) {
            List<String> all = new ArrayList<>(misspelt);
            all.addAll(e.problems());
            throw new InvalidOptions(all.stream().distinct().toList());
        }
    }

    /** Every invalid context value, one self-contained sentence each ({@code context 'apiAuth' must be …}). */
    public static final class InvalidOptions extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;
        private final List<String> problems;

        InvalidOptions(List<String> problems) {
            super("Invalid deployment options:\n  - " + String.join("\n  - ", problems));
            this.problems = List.copyOf(problems);
        }

        public List<String> problems() {
            return problems;
        }
    }

    private static int defaultOf(EnvVar variable) {
        return Integer.parseInt(variable.defaultValue());
    }

    /** Typed reads of context values that collect problems instead of failing on the first. */
    private static final class ContextReader {
        private final Function<String, Object> context;
        private final List<String> problems = new ArrayList<>();

        ContextReader(Function<String, Object> context) {
            this.context = context;
        }

        void problem(String key, String message) {
            problems.add("context '" + key + "' " + message);
        }

        void failIfAnyProblem() {
            if (!problems.isEmpty()) {
                throw new InvalidOptions(problems);
            }
        }

        private Object raw(String key) {
            Object value = context.apply(key);
            return value instanceof String s && s.isBlank() ? null : value;
        }

        String string(String key, String fallback, Pattern format) {
            Object value = raw(key);
            if (value == null) {
                return fallback;
            }
            String s = value.toString().trim();
            if (!format.matcher(s).matches()) {
                problem(key, "must match " + format.pattern() + ", was '" + s + "'");
                return fallback;
            }
            return s;
        }

        String httpsUrl(String key) {
            Object value = raw(key);
            if (value == null) {
                return "";
            }
            String s = value.toString().trim();
            if (!s.startsWith("https://")) {
                problem(key, "must be an https:// URL, was '" + s + "'");
                return "";
            }
            return s;
        }

        boolean bool(String key, boolean fallback) {
            Object value = raw(key);
            if (value == null) {
                return fallback;
            }
            if (value instanceof Boolean b) {
                return b;
            }
            return switch (value.toString().trim()) {
                case "true" -> true;
                case "false" -> false;
                default -> {
                    problem(key, "must be true or false, was '" + value + "'");
                    yield fallback;
                }
            };
        }

        int positiveInt(String key, int fallback, int max) {
            Object value = raw(key);
            if (value == null) {
                return fallback;
            }
            try {
                int n = value instanceof Number num
                        ? num.intValue()
                        : Integer.parseInt(value.toString().trim());
                if (n < 1 || n > max) {
                    problem(key, "must be between 1 and " + max + ", was " + n);
                    return fallback;
                }
                return n;
            } catch (NumberFormatException e) {
                problem(key, "must be a whole number, was '" + value + "'");
                return fallback;
            }
        }

        int choice(String key, int fallback, List<Integer> allowed) {
            int n = positiveInt(key, fallback, Integer.MAX_VALUE);
            if (!allowed.contains(n)) {
                problem(key, "must be one of " + allowed + ", was " + n);
                return fallback;
            }
            return n;
        }

        ApiAuth apiAuth(String key) {
            Object value = raw(key);
            if (value == null) {
                return ApiAuth.IAM;
            }
            try {
                return ApiAuth.fromContext(value.toString().trim());
            } catch (IllegalArgumentException e) {
                problem(key, e.getMessage());
                return ApiAuth.IAM;
            }
        }

        /** The secret options, checked with the functions' own rules ({@link SecretHosts}, {@link CredentialReference}). */
        SecretAccess secretAccess() {
            Optional<String> secretsPrefix =
                    Optional.ofNullable(string(SECRETS_PREFIX, null, CredentialReference.SECRET_NAME));
            Optional<String> parameterPrefix =
                    Optional.ofNullable(string(SSM_PARAMETER_PREFIX, null, CredentialReference.PARAMETER_NAME));
            if (parameterPrefix.isPresent() && !parameterPrefix.get().startsWith("/")) {
                problem(
                        SSM_PARAMETER_PREFIX,
                        "must start with '/' (a parameter path such as /interlock/), was '" + parameterPrefix.get()
                                + "'");
                parameterPrefix = Optional.empty();
            }
            String hosts = secretHosts();
            List<String> keys = list(SECRETS_KMS_KEY_ARNS, KMS_KEY_ARN);
            if (!keys.isEmpty() && secretsPrefix.isEmpty() && parameterPrefix.isEmpty()) {
                problem(
                        SECRETS_KMS_KEY_ARNS,
                        "grants kms:Decrypt only for reading secrets or parameters: set " + SECRETS_PREFIX + " or "
                                + SSM_PARAMETER_PREFIX + " too");
            }
            int cache = nonNegativeInt(
                    SECRET_CACHE_SECONDS, defaultOf(EnvVar.INTERLOCK_SECRET_CACHE_SECONDS), MAX_SECRET_CACHE_SECONDS);
            return new SecretAccess(secretsPrefix, parameterPrefix, hosts, keys, cache);
        }

        /**
         * {@code secretHosts} as {@code INTERLOCK_SECRET_HOSTS}: the environment form as a string, or (in
         * {@code cdk.json}) an object from credential pattern to a host or a list of hosts.
         */
        private String secretHosts() {
            Object value = raw(SECRET_HOSTS);
            if (value == null) {
                return "";
            }
            String text;
            if (value instanceof Map<?, ?> map) {
                List<String> entries = new ArrayList<>();
                map.forEach((pattern, hosts) -> entries.add(pattern + "="
                        + (hosts instanceof Collection<?> c
                                ? String.join(
                                        ",", c.stream().map(String::valueOf).toList())
                                : String.valueOf(hosts))));
                text = String.join(";", entries);
            } else {
                text = value.toString().trim();
            }
            try {
                SecretHosts parsed = SecretHosts.parse(text);
                if (parsed.sendsAnywhere()) {
                    problem(
                            SECRET_HOSTS,
                            "lets a credential go to any host ('*'); name the hosts each credential is for");
                }
                return parsed.toString();
            } catch (IllegalArgumentException e) {
                problem(SECRET_HOSTS, e.getMessage());
                return "";
            }
        }

        int nonNegativeInt(String key, int fallback, int max) {
            Object value = raw(key);
            if (value == null) {
                return fallback;
            }
            try {
                int n = value instanceof Number num
                        ? num.intValue()
                        : Integer.parseInt(value.toString().trim());
                if (n < 0 || n > max) {
                    problem(key, "must be between 0 and " + max + ", was " + n);
                    return fallback;
                }
                return n;
            } catch (NumberFormatException e) {
                problem(key, "must be a whole number, was '" + value + "'");
                return fallback;
            }
        }

        List<String> list(String key, Pattern format) {
            Object value = raw(key);
            if (value == null) {
                return List.of();
            }
            Collection<?> items = value instanceof Collection<?> c
                    ? c
                    : Arrays.asList(value.toString().split(","));
            List<String> result = new ArrayList<>();
            for (Object item : items) {
                String s = String.valueOf(item).trim();
                if (s.isEmpty()) {
                    continue;
                }
                if (!format.matcher(s).matches()) {
                    problem(key, "item '" + s + "' must match " + format.pattern());
                } else if (!result.contains(s)) {
                    result.add(s);
                }
            }
            return List.copyOf(result);
        }
    }
}
