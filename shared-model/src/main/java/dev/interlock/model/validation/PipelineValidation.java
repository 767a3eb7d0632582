package dev.interlock.model.validation;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.model.archetype.Archetype;
import dev.interlock.model.archetype.TraitDefinition;
import dev.interlock.model.archetype.TraitResolution;
import dev.interlock.model.json.JsonPath;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.json.WireEnum;
import dev.interlock.model.net.NeverAllowedAddresses;
import dev.interlock.model.pipeline.ExclusionConfig;
import dev.interlock.model.pipeline.MonitoringConfig;
import dev.interlock.model.pipeline.Ownership;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.pipeline.RetryPolicy;
import dev.interlock.model.pipeline.ScheduleConfig;
import dev.interlock.model.pipeline.SlaConfig;
import dev.interlock.model.pipeline.TraitConfig;
import dev.interlock.model.schedule.ClockTime;
import dev.interlock.model.schedule.CronSchedule;
import dev.interlock.model.schedule.DeadlineSpec;
import dev.interlock.model.schedule.Exclusions;
import dev.interlock.model.schedule.TimeSpan;
import dev.interlock.model.secret.OutboundPolicy;
import dev.interlock.model.trait.EvaluatorLocator;
import dev.interlock.model.trait.ResolvedTrait;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.DatabricksTrigger;
import dev.interlock.model.trigger.EmrServerlessTrigger;
import dev.interlock.model.trigger.EmrTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.model.trigger.LambdaTrigger;
import dev.interlock.model.trigger.StepFunctionTrigger;
import dev.interlock.model.trigger.TriggerConfig;
import dev.interlock.model.trigger.TriggerType;
import dev.interlock.model.window.WindowId;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Registration-time validation of a pipeline (docs/pipeline-reference.md): every problem at once, each with a JSON path. Works on a
 * bound {@link PipelineConfig} or on raw JSON/YAML text, where malformed documents and wrong types become
 * path-named errors instead of exceptions.
 */
public final class PipelineValidation {

    /** The pipeline id rule (docs/pipeline-reference.md, name). */
    public static final Pattern NAME = Pattern.compile("^[a-z0-9][a-z0-9._-]{0,62}[a-z0-9]$");
    /** Schedule ids appear in table keys, lock keys and execution names. */
    public static final Pattern SCHEDULE_NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$");
    /** A cron schedule's windows are {@code <name>.HHMM}, which must still be a schedule id. */
    static final int MAX_CRON_NAME = 58;

    /** Bounds that catch typos (e.g. milliseconds where seconds were meant) without limiting real pipelines. */
    public static final int MAX_ATTEMPTS = 20;

    public static final int MAX_BACKOFF_SECONDS = 3600;
    public static final double MIN_BACKOFF_MULTIPLIER = 1.0;
    public static final double MAX_BACKOFF_MULTIPLIER = 10.0;
    public static final int MAX_INTERVAL_SECONDS = 3600;
    public static final int MAX_POLL_LIMIT = 10_000;
    /** Half of the state machine's 4 h TimeoutSeconds: the other half stays for evaluation, retries and monitoring. */
    public static final int MAX_JOB_DURATION_SECONDS = 7200;

    public static final int MAX_TRIGGER_TIMEOUT_SECONDS = 900;
    public static final int MAX_TRAIT_TTL_SECONDS = 30 * 24 * 3600;
    public static final Duration MAX_MONITORING = Duration.ofDays(7);
    /**
     * The longest {@code sla.validationTimeout} span after the window opens: a wait longer than one execution continues
     * in successor executions, and a day's markers (its successors included) stay dated by the window's day, so a
     * window reaching past the next day is refused rather than cut. A wall-clock value lies within it by construction.
     */
    public static final Duration MAX_VALIDATION_WINDOW = Duration.ofHours(24);
    /** Registration updates the downstream index in one transaction (DynamoDB: at most 100 items), old and new entries. */
    public static final int MAX_UPSTREAMS = 40;

    private static final Set<String> HTTP_METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    private final Function<String, Optional<Archetype>> archetypes;
    private final OutboundPolicy outbound;
    private final NeverAllowedAddresses addresses;
    /** The registered pipelines; null when this validation has no registry (e.g. offline), so none is unknown. */
    private final Function<String, Optional<PipelineConfig>> pipelines;

    /**
     * @param archetypes looks up an archetype by name (bundled and registered ones)
     * @param outbound   which credentials this deployment may read and send to which hosts
     * @param addresses  refuses URLs that are or resolve to never-allowed addresses
     */
    public PipelineValidation(
            Function<String, Optional<Archetype>> archetypes,
            OutboundPolicy outbound,
            NeverAllowedAddresses addresses) {
        this(archetypes, outbound, addresses, null);
    }

    private PipelineValidation(
            Function<String, Optional<Archetype>> archetypes,
            OutboundPolicy outbound,
            NeverAllowedAddresses addresses,
            Function<String, Optional<PipelineConfig>> pipelines) {
        this.archetypes = archetypes;
        this.outbound = outbound;
        this.addresses = addresses;
        this.pipelines = pipelines;
    }

    /**
     * This validation, also checking what a pipeline says about the registered pipelines it names (a cycle through
     * them, their schedules: {@link GraphValidation}; a rollup's upstream: {@link RollupValidation}); without it, such
     * checks wait for a registry. With it, an upstream pipeline that is not registered is refused: register it first
     * ({@code interlock apply} registers the upstreams of its batch before their downstreams).
     */
    public PipelineValidation withPipelines(Function<String, Optional<PipelineConfig>> registered) {
        return new PipelineValidation(archetypes, outbound, addresses, registered);
    }

    /**
     * What a registered {@code downstream} would wait for in vain once {@code upstream} is registered as it is: windows
     * of the downstream the changed upstream no longer has (paths into the downstream's document); empty when the
     * change keeps them meeting.
     */
    public static List<ValidationError> downstreamProblems(PipelineConfig downstream, PipelineConfig upstream) {
        return GraphValidation.scheduleProblems(downstream, upstream);
    }

    /** Validation against {@code outbound}, resolving names with the JVM's resolver (bounded). */
    public PipelineValidation(Function<String, Optional<Archetype>> archetypes, OutboundPolicy outbound) {
        this(archetypes, outbound, NeverAllowedAddresses.system());
    }

    /** Validation for a deployment that allows no credential anywhere ({@link OutboundPolicy#NONE}). */
    public PipelineValidation(Function<String, Optional<Archetype>> archetypes) {
        this(archetypes, OutboundPolicy.NONE);
    }

    /** Parses and validates a JSON or YAML pipeline document. */
    public Validated<PipelineConfig> validateText(String text) {
        return DocumentValidation.validateText(
                text, "pipeline", DocumentShapes.PIPELINE, PipelineConfig.class, this::validate);
    }

    /** Validates a document already parsed into a tree (e.g. a request body). The tree is not modified. */
    public Validated<PipelineConfig> validateTree(JsonNode document) {
        return DocumentValidation.validateTree(
                document, "pipeline", DocumentShapes.PIPELINE, PipelineConfig.class, this::validate);
    }

    /** Every problem of a bound pipeline config; empty when it may be registered. */
    public List<ValidationError> validate(PipelineConfig config) {
        Errors errors = new Errors();
        String root = JsonPath.ROOT;
        checkName(config.name(), errors);
        checkArchetypeAndTraits(config, errors);
        PostRunValidation.check(config, addresses, errors);
        Archetype archetype = config.archetype() == null || config.archetype().isBlank()
                ? null
                : archetypes.apply(config.archetype()).orElse(null);
        TemplateValidation.checkEvaluatorHeaders(config, outbound, archetype)
                .forEach(e -> errors.add(e.path(), e.message()));
        if (config.tier() < 0) {
            errors.add(JsonPath.field(root, "tier"), "must not be negative");
        }
        checkTrigger(config, errors);
        checkRetry(config.retry(), errors);
        checkSla(config.sla(), errors);
        checkSchedules(config.schedules(), errors);
        HourTemplates.check(config).forEach(e -> errors.add(e.path(), e.message()));
        ReadinessRuleValidation.checkFallback(config, archetype, errors);
        checkExclusions(config.exclusions(), errors);
        checkMonitoring(config.monitoring(), errors);
        checkSpan("quietPeriod", config.quietPeriod(), MAX_QUIET_PERIOD, errors);
        checkSpan("minInterval", config.minInterval(), MAX_MIN_INTERVAL, errors);
        errors.range(
                JsonPath.field(root, "evaluationIntervalSeconds"),
                config.evaluationIntervalSeconds(),
                1,
                MAX_INTERVAL_SECONDS);
        errors.range(
                JsonPath.field(root, "pollIntervalSeconds"), config.pollIntervalSeconds(), 1, MAX_INTERVAL_SECONDS);
        errors.range(JsonPath.field(root, "pollLimit"), config.pollLimit(), 1, MAX_POLL_LIMIT);
        checkMaxJobDuration(config, errors);
        checkOwnership(config.ownership(), errors);
        Function<String, Optional<PipelineConfig>> registered =
                pipelines == null ? name -> Optional.empty() : pipelines;
        GraphValidation.check(config, registered, pipelines != null, errors);
        RollupValidation.check(config, registered, errors);
        return errors.list();
    }

    /** The longest owner, team or label value: they travel in every alert and as SNS message attributes. */
    static final int MAX_OWNERSHIP_TEXT = 128;
    /** The most labels a pipeline may carry (SNS allows 10 message attributes; labels travel in the body). */
    static final int MAX_LABELS = 20;
    /** A team: what an SNS subscription filter and a mute's path name, so no spaces, slashes or odd characters. */
    static final Pattern ROUTING_NAME = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$");
    /** A label key; it may hold a '/' ({@code example.com/domain}). */
    static final Pattern LABEL_KEY = Pattern.compile("^[A-Za-z0-9][A-Za-z0-9._/-]{0,62}$");

    /** Whether {@code name} may be a team (or a mute's target): 1-63 letters, digits, '.', '_' or '-'. */
    public static boolean isRoutingName(String name) {
        return name != null && ROUTING_NAME.matcher(name).matches();
    }

    /** {@code owner}, {@code team}, {@code labels} and {@code runbook}: short, filterable, and a runbook that opens. */
    private static void checkOwnership(Ownership ownership, Errors errors) {
        String root = JsonPath.ROOT;
        if (ownership.owner() != null && ownership.owner().length() > MAX_OWNERSHIP_TEXT) {
            errors.add(JsonPath.field(root, "owner"), "must be at most " + MAX_OWNERSHIP_TEXT + " characters");
        }
        if (ownership.team() != null && !ROUTING_NAME.matcher(ownership.team()).matches()) {
            errors.add(
                    JsonPath.field(root, "team"),
                    "'" + ownership.team() + "' must be 1-63 letters, digits, '.', '_' or '-', starting with a"
                            + " letter or digit (alert subscriptions filter on it), e.g. data-platform");
        }
        if (ownership.labels().size() > MAX_LABELS) {
            errors.add(
                    JsonPath.field(root, "labels"),
                    "has " + ownership.labels().size() + " labels; at most " + MAX_LABELS + " are allowed");
        }
        ownership.labels().forEach((key, value) -> {
            String path = JsonPath.field(JsonPath.field(root, "labels"), key);
            if (!LABEL_KEY.matcher(key).matches()) {
                errors.add(path, "label key '" + key + "' must be 1-63 letters, digits, '.', '_', '/' or '-'");
            }
            if (value == null || value.isBlank()) {
                errors.add(path, "must not be empty");
            } else if (value.length() > MAX_OWNERSHIP_TEXT) {
                errors.add(path, "must be at most " + MAX_OWNERSHIP_TEXT + " characters");
            }
        });
        String runbook = ownership.runbook();
        if (runbook != null) {
            String path = JsonPath.field(root, "runbook");
            try {
                URI uri = new URI(runbook);
                String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
                if (!(scheme.equals("https") || scheme.equals("http")) || uri.getHost() == null) {
                    errors.add(
                            path,
                            "'" + runbook
                                    + "' must be an absolute http(s) URL, e.g. https://wiki.example.com/runbooks/orders");
                }
            } catch (URISyntaxException e) {
                errors.add(path, "'" + runbook + "' is not a URL: " + e.getReason());
            }
        }
    }

    /** The longest quiet period: a day whose data must rest longer would wait past any validation window. */
    static final Duration MAX_QUIET_PERIOD = Duration.ofHours(6);
    /** The longest spacing of two runs of one day. */
    static final Duration MAX_MIN_INTERVAL = Duration.ofHours(24);

    /** {@code quietPeriod} and {@code minInterval}: durations of at least a second and at most their maximum. */
    private static void checkSpan(String field, String text, Duration max, Errors errors) {
        if (text == null) {
            return;
        }
        String path = JsonPath.field(JsonPath.ROOT, field);
        Duration span;
        try {
            span = TimeSpan.parse(text);
        } catch (IllegalArgumentException e) {
            errors.add(path, "'" + text + "' is not a duration (e.g. 10m, 1h30m): " + e.getMessage());
            return;
        }
        if (span.compareTo(Duration.ofSeconds(1)) < 0 || span.compareTo(max) > 0) {
            errors.add(path, "'" + text + "' must be between 1s and " + max.toHours() + "h");
        }
    }

    /** A maximum shorter than one poll interval would cancel every job at its first poll. */
    private static void checkMaxJobDuration(PipelineConfig config, Errors errors) {
        String path = JsonPath.field(JsonPath.ROOT, "maxJobDurationSeconds");
        int max = config.maxJobDurationSeconds();
        if (max < 1 || max > MAX_JOB_DURATION_SECONDS) {
            errors.range(path, max, 1, MAX_JOB_DURATION_SECONDS);
        } else if (max < config.pollIntervalSeconds() && config.pollIntervalSeconds() <= MAX_INTERVAL_SECONDS) {
            errors.add(
                    path,
                    max + " is shorter than pollIntervalSeconds (" + config.pollIntervalSeconds()
                            + "): the job would be cancelled at its first poll");
        }
    }

    private static void checkName(String name, Errors errors) {
        String path = JsonPath.field(JsonPath.ROOT, "name");
        if (name == null || name.isBlank()) {
            errors.add(path, "name is required (it is the pipeline id)");
        } else if (!NAME.matcher(name).matches()) {
            errors.add(
                    path,
                    "'" + name + "' is not a pipeline id: 2–64 characters a-z 0-9 . _ -, starting and ending "
                            + "with a letter or digit");
        }
    }

    private void checkArchetypeAndTraits(PipelineConfig config, Errors errors) {
        String archetypePath = JsonPath.field(JsonPath.ROOT, "archetype");
        Archetype archetype = null;
        if (config.archetype() == null || config.archetype().isBlank()) {
            errors.add(archetypePath, "archetype is required");
        } else {
            archetype = archetypes.apply(config.archetype()).orElse(null);
            if (archetype == null) {
                errors.add(archetypePath, "unknown archetype '" + config.archetype() + "'");
            }
        }
        String traitsPath = JsonPath.field(JsonPath.ROOT, "traits");
        for (Map.Entry<String, TraitConfig> entry : config.traits().entrySet()) {
            String path = JsonPath.field(traitsPath, entry.getKey());
            TraitConfig trait = entry.getValue();
            if (trait == null) {
                continue;
            }
            if (archetype != null && archetype.trait(entry.getKey()).isEmpty()) {
                errors.add(
                        path,
                        "trait '" + entry.getKey() + "' is not declared by archetype '" + archetype.name()
                                + "' (declared: " + declared(archetype) + ")");
            }
            if (trait.evaluator() != null && !trait.evaluator().isBlank()) {
                try {
                    EvaluatorLocator.parse(trait.evaluator());
                } catch (IllegalArgumentException e) {
                    errors.add(JsonPath.field(path, "evaluator"), e.getMessage());
                }
                EvaluatorLocator.refusal(trait.evaluator(), addresses)
                        .ifPresent(refusal -> errors.add(JsonPath.field(path, "evaluator"), refusal));
            }
            errors.range(JsonPath.field(path, "ttl"), trait.ttl(), 0, MAX_TRAIT_TTL_SECONDS);
            errors.range(JsonPath.field(path, "timeout"), trait.timeout(), 0, TraitResolution.MAX_TIMEOUT_SECONDS);
            checkUpstreamId(
                    trait.config().get(PipelineConfig.UPSTREAM_PIPELINE),
                    JsonPath.field(JsonPath.field(path, "config"), PipelineConfig.UPSTREAM_PIPELINE),
                    errors);
        }
        if (config.upstreamPipelines().size() > MAX_UPSTREAMS) {
            errors.add(
                    traitsPath,
                    "at most " + MAX_UPSTREAMS + " upstream pipelines, got "
                            + config.upstreamPipelines().size());
        }
        if (archetype == null) {
            return;
        }
        checkBuiltinConfigs(config, archetype, traitsPath, errors);
        ReadinessRuleValidation.check(config, archetype, errors);
        // A required trait nobody can evaluate would leave the pipeline NOT READY forever: reject it now.
        for (TraitDefinition required : archetype.requiredTraits()) {
            TraitConfig override = config.traits().get(required.type());
            boolean hasEvaluator = (override != null
                            && override.evaluator() != null
                            && !override.evaluator().isBlank())
                    || (required.evaluator() != null && !required.evaluator().isBlank());
            if (!hasEvaluator) {
                errors.add(
                        JsonPath.field(JsonPath.field(traitsPath, required.type()), "evaluator"),
                        "required trait '" + required.type() + "' of archetype '" + archetype.name()
                                + "' needs an evaluator");
            }
        }
    }

    /** The upstream becomes a key of the downstream index: text that is not a pipeline id would alias another key. */
    private static void checkUpstreamId(Object upstream, String path, Errors errors) {
        if (upstream instanceof String id
                && !id.isBlank()
                && !NAME.matcher(id.trim()).matches()) {
            errors.add(path, "'" + id + "' is not a pipeline id (" + NAME.pattern() + ")");
        }
    }

    /** Builtin evaluators know their config keys: a missing one would otherwise only fail at evaluation time. */
    private static void checkBuiltinConfigs(
            PipelineConfig config, Archetype archetype, String traitsPath, Errors errors) {
        // Schedule and date only feed the injected keys, which no builtin rule reads; any values do.
        for (ResolvedTrait trait : TraitResolution.resolve(config, archetype, ScheduleConfig.DAILY, LocalDate.EPOCH)) {
            if (!(parsedOrNull(trait.evaluator()) instanceof EvaluatorLocator.Builtin builtin)) {
                continue;
            }
            String configPath = JsonPath.field(JsonPath.field(traitsPath, trait.traitType()), "config");
            builtin.evaluator()
                    .configErrors(trait.config(), configPath)
                    .forEach(e -> errors.add(e.path(), e.message()));
        }
    }

    private static EvaluatorLocator parsedOrNull(String locator) {
        try {
            return locator == null || locator.isBlank() ? null : EvaluatorLocator.parse(locator);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    static String declared(Archetype archetype) {
        List<String> names = new ArrayList<>();
        archetype.requiredTraits().forEach(t -> names.add(t.type()));
        archetype.optionalTraits().forEach(t -> names.add(t.type()));
        return String.join(", ", names);
    }

    private void checkTrigger(PipelineConfig config, Errors errors) {
        TriggerConfig trigger = config.trigger();
        String path = JsonPath.field(JsonPath.ROOT, "trigger");
        if (trigger == null) {
            errors.add(path, "trigger is required; type is one of " + WireEnum.allowed(TriggerType.class));
            return;
        }
        // URLs first (they lead each trigger), then each type's own fields; templates are checked in both.
        TemplateValidation.checkTrigger(config, outbound, addresses).forEach(e -> errors.add(e.path(), e.message()));
        switch (trigger) {
            case HttpTrigger http -> {
                if (!HTTP_METHODS.contains(http.method().toUpperCase(Locale.ROOT))) {
                    errors.add(
                            JsonPath.field(path, "method"),
                            "'" + http.method() + "' is not one of " + String.join(", ", sorted(HTTP_METHODS)));
                }
                errors.range(
                        JsonPath.field(path, "timeoutSeconds"), http.timeoutSeconds(), 1, MAX_TRIGGER_TIMEOUT_SECONDS);
            }
            case AirflowTrigger airflow -> {
                errors.required(JsonPath.field(path, "dagId"), airflow.dagId(), "the DAG to run");
                errors.range(
                        JsonPath.field(path, "timeoutSeconds"),
                        airflow.timeoutSeconds(),
                        1,
                        MAX_TRIGGER_TIMEOUT_SECONDS);
            }
            case GlueTrigger glue -> {
                errors.required(JsonPath.field(path, "jobName"), glue.jobName(), "the Glue job to start");
                if (glue.errorLogPattern() != null
                        && (glue.errorLogPattern().isBlank()
                                || glue.errorLogPattern().length() > GlueTrigger.MAX_ERROR_LOG_PATTERN_LENGTH)) {
                    errors.add(
                            JsonPath.field(path, "errorLogPattern"),
                            "must be a CloudWatch Logs filter pattern of 1 to "
                                    + GlueTrigger.MAX_ERROR_LOG_PATTERN_LENGTH
                                    + " characters (to turn the driver-log check off, set errorLogCheck: false)");
                }
            }
            case EmrTrigger emr -> {
                errors.required(
                        JsonPath.field(path, "clusterId"), emr.clusterId(), "the EMR cluster to add the step to");
                errors.required(JsonPath.field(path, "stepName"), emr.stepName(), "the name of the EMR step");
                errors.required(JsonPath.field(path, "jar"), emr.jar(), "the JAR the step runs");
            }
            case EmrServerlessTrigger emr -> {
                errors.required(
                        JsonPath.field(path, "applicationId"), emr.applicationId(), "the EMR Serverless application");
                errors.arn(
                        JsonPath.field(path, "executionRoleArn"),
                        emr.executionRoleArn(),
                        "iam",
                        "the job's execution role");
                errors.required(
                        JsonPath.field(path, "entryPoint"), emr.entryPoint(), "the Spark job driver's entry point");
            }
            case StepFunctionTrigger sfn ->
                errors.arn(
                        JsonPath.field(path, "stateMachineArn"),
                        sfn.stateMachineArn(),
                        "states",
                        "the state machine to start");
            case DatabricksTrigger dbx -> {
                boolean hasName = dbx.jobName() != null && !dbx.jobName().isBlank();
                if (!hasName && dbx.jobId() == null) {
                    errors.add(JsonPath.field(path, "jobName"), "jobName or jobId is required");
                }
                if (dbx.jobId() != null && dbx.jobId() <= 0) {
                    errors.add(JsonPath.field(path, "jobId"), "must be a positive job id");
                }
                errors.range(
                        JsonPath.field(path, "timeoutSeconds"), dbx.timeoutSeconds(), 1, MAX_TRIGGER_TIMEOUT_SECONDS);
            }
            case LambdaTrigger lambda ->
                errors.required(JsonPath.field(path, "functionName"), lambda.functionName(), "the function to invoke");
        }
    }

    private static List<String> sorted(Set<String> values) {
        return values.stream().sorted().toList();
    }

    private static void checkRetry(RetryPolicy retry, Errors errors) {
        String path = JsonPath.field(JsonPath.ROOT, "retry");
        errors.range(JsonPath.field(path, "maxAttempts"), retry.maxAttempts(), 1, MAX_ATTEMPTS);
        errors.range(JsonPath.field(path, "backoffSeconds"), retry.backoffSeconds(), 0, MAX_BACKOFF_SECONDS);
        double multiplier = retry.backoffMultiplier();
        if (Double.isNaN(multiplier) || multiplier < MIN_BACKOFF_MULTIPLIER || multiplier > MAX_BACKOFF_MULTIPLIER) {
            errors.add(
                    JsonPath.field(path, "backoffMultiplier"),
                    "must be between " + MIN_BACKOFF_MULTIPLIER + " and " + MAX_BACKOFF_MULTIPLIER + ", got "
                            + multiplier);
        }
    }

    private static void checkSla(SlaConfig sla, Errors errors) {
        if (sla == null) {
            return;
        }
        String path = JsonPath.field(JsonPath.ROOT, "sla");
        errors.zone(JsonPath.field(path, "timezone"), sla.timezone());
        errors.deadline(JsonPath.field(path, "evaluationDeadline"), sla.evaluationDeadline());
        errors.deadline(JsonPath.field(path, "completionDeadline"), sla.completionDeadline());
        String validationPath = JsonPath.field(path, "validationTimeout");
        errors.deadline(validationPath, sla.validationTimeout());
        try {
            if (sla.validationTimeout() != null
                    && !sla.validationTimeout().isBlank()
                    && DeadlineSpec.parse(sla.validationTimeout()) instanceof DeadlineSpec.AfterOpening after
                    && after.offset().compareTo(MAX_VALIDATION_WINDOW) > 0) {
                errors.add(
                        validationPath,
                        "must be at most " + MAX_VALIDATION_WINDOW.toHours() + "h after the window opens, got '"
                                + sla.validationTimeout() + "'");
            }
        } catch (IllegalArgumentException e) {
            // already reported by the format check above
        }
    }

    private static void checkSchedules(List<ScheduleConfig> schedules, Errors errors) {
        String path = JsonPath.field(JsonPath.ROOT, "schedules");
        Set<String> names = new HashSet<>();
        for (int i = 0; i < schedules.size(); i++) {
            String at = JsonPath.index(path, i);
            ScheduleConfig schedule = schedules.get(i);
            if (schedule == null) {
                errors.add(at, "a schedule must be an object with a name");
                continue;
            }
            String namePath = JsonPath.field(at, "name");
            if (schedule.name() == null || schedule.name().isBlank()) {
                errors.add(namePath, "name is required (e.g. daily, h07)");
            } else if (!SCHEDULE_NAME.matcher(schedule.name()).matches()) {
                errors.add(namePath, "'" + schedule.name() + "' must match " + SCHEDULE_NAME.pattern());
            } else if (!names.add(schedule.name())) {
                errors.add(namePath, "schedule '" + schedule.name() + "' is declared twice");
            } else if (schedule.hasCron() && schedule.name().length() > MAX_CRON_NAME) {
                errors.add(
                        namePath,
                        "a cron schedule's name may have at most " + MAX_CRON_NAME + " characters: its windows are "
                                + "named '" + schedule.name() + ".HHMM'");
            } else if (!schedule.hasCron() && WindowId.parse(schedule.name()).isPresent()) {
                errors.add(
                        namePath,
                        "'" + schedule.name() + "' ends like the window of a cron schedule (.HHMM); choose another "
                                + "name");
            }
            if (schedule.hasCron()) {
                checkCronSchedule(schedule, at, errors);
                errors.zone(JsonPath.field(at, "timezone"), schedule.timezone());
                continue;
            }
            if (schedule.cron() != null) {
                errors.add(JsonPath.field(at, "cron"), "must be a cron expression, e.g. \"0 * * * *\" (hourly)");
            }
            if (schedule.after() != null && !schedule.after().isBlank()) {
                try {
                    ClockTime.parse(schedule.after());
                } catch (IllegalArgumentException e) {
                    errors.add(JsonPath.field(at, "after"), e.getMessage());
                }
            }
            errors.deadline(JsonPath.field(at, "deadline"), schedule.deadline());
            errors.zone(JsonPath.field(at, "timezone"), schedule.timezone());
        }
    }

    /**
     * A cron schedule: five fields that fire on some date; its {@code after} and {@code deadline} count from each
     * firing, so they are durations ({@code +5m}, {@code +40m}), never a time of day.
     */
    private static void checkCronSchedule(ScheduleConfig schedule, String at, Errors errors) {
        try {
            CronSchedule.parse(schedule.cron());
        } catch (IllegalArgumentException e) {
            errors.add(JsonPath.field(at, "cron"), e.getMessage());
        }
        if (schedule.after() != null && !schedule.after().isBlank()) {
            if (ClockTime.looksLikeClockTime(schedule.after())) {
                errors.add(
                        JsonPath.field(at, "after"),
                        "'" + schedule.after() + "' is a time of day; a cron schedule's window opens at each firing, "
                                + "so after is a duration from it (e.g. +5m)");
            } else {
                try {
                    TimeSpan.parse(schedule.after());
                } catch (IllegalArgumentException e) {
                    errors.add(JsonPath.field(at, "after"), e.getMessage());
                }
            }
        }
        if (schedule.deadline() != null && ClockTime.looksLikeClockTime(schedule.deadline())) {
            errors.add(
                    JsonPath.field(at, "deadline"),
                    "'" + schedule.deadline() + "' is a time of day; a cron schedule's deadline counts from each "
                            + "window (e.g. +40m)");
        } else {
            errors.deadline(JsonPath.field(at, "deadline"), schedule.deadline());
        }
    }

    private static void checkExclusions(ExclusionConfig exclusions, Errors errors) {
        if (exclusions == null) {
            return;
        }
        String path = JsonPath.field(JsonPath.ROOT, "exclusions");
        if (exclusions.calendar() != null
                && !exclusions.calendar().isBlank()
                && !ArchetypeValidation.NAME.matcher(exclusions.calendar()).matches()) {
            errors.add(JsonPath.field(path, "calendar"), "'" + exclusions.calendar() + "' is not a calendar name");
        }
        for (int i = 0; i < exclusions.days().size(); i++) {
            String day = exclusions.days().get(i);
            if (Exclusions.weekday(day) == null) {
                errors.add(
                        JsonPath.index(JsonPath.field(path, "days"), i),
                        "'" + day + "' is not a weekday; use full English names like saturday");
            }
        }
        for (int i = 0; i < exclusions.dates().size(); i++) {
            String date = exclusions.dates().get(i);
            if (Exclusions.date(date) == null) {
                errors.add(JsonPath.index(JsonPath.field(path, "dates"), i), "'" + date + "' is not a date YYYY-MM-DD");
            }
        }
    }

    private static void checkMonitoring(MonitoringConfig monitoring, Errors errors) {
        String path = JsonPath.field(JsonPath.ROOT, "monitoring");
        String durationPath = JsonPath.field(path, "duration");
        boolean hasDuration =
                monitoring.duration() != null && !monitoring.duration().isBlank();
        if (monitoring.enabled() && !hasDuration) {
            errors.add(durationPath, "duration is required when monitoring is enabled (e.g. 2h)");
        }
        if (hasDuration) {
            try {
                Duration duration = TimeSpan.parse(monitoring.duration());
                if (duration.isZero() || duration.compareTo(MAX_MONITORING) > 0) {
                    errors.add(durationPath, "must be more than 0 and at most " + MAX_MONITORING.toDays() + " days");
                }
            } catch (IllegalArgumentException e) {
                errors.add(durationPath, e.getMessage());
            }
        }
        if (monitoring.driftThreshold() != null
                && (monitoring.driftThreshold() < 0
                        || monitoring.driftThreshold().isNaN())) {
            errors.add(JsonPath.field(path, "driftThreshold"), "must not be negative");
        }
    }

    /** Collects errors and holds the small checks several sections share. */
    static final class Errors {
        private final List<ValidationError> list = new ArrayList<>();

        void add(String path, String message) {
            list.add(new ValidationError(path, message));
        }

        List<ValidationError> list() {
            return List.copyOf(list);
        }

        void range(String path, long value, long min, long max) {
            if (value < min || value > max) {
                add(path, "must be between " + min + " and " + max + ", got " + value);
            }
        }

        void required(String path, String value, String what) {
            if (value == null || value.isBlank()) {
                add(path, "is required: " + what);
            }
        }

        void arn(String path, String value, String service, String what) {
            if (value == null || value.isBlank()) {
                add(path, "is required: " + what);
            } else if (!value.startsWith("arn:") || !value.contains(":" + service + ":")) {
                add(path, "'" + value + "' is not an " + service + " ARN (arn:aws:" + service + ":…)");
            }
        }

        void zone(String path, String value) {
            if (value == null || value.isBlank()) {
                return;
            }
            try {
                ZoneId.of(value.trim());
            } catch (DateTimeException e) {
                add(path, "'" + value + "' is not a time zone; use an IANA name like Europe/Berlin or UTC");
            }
        }

        void deadline(String path, String value) {
            if (value == null || value.isBlank()) {
                return;
            }
            try {
                DeadlineSpec.parse(value);
            } catch (IllegalArgumentException e) {
                add(path, e.getMessage());
            }
        }
    }
}
