package dev.interlock.model.validation;

import static dev.interlock.model.validation.Shape.integer;
import static dev.interlock.model.validation.Shape.longInteger;
import static dev.interlock.model.validation.Shape.object;
import static dev.interlock.model.validation.Shape.text;

import dev.interlock.model.pipeline.ReadinessRuleType;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.TriggerType;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The JSON types of the documents users submit, for {@link Shape#check}; they mirror the records. */
final class DocumentShapes {
    private DocumentShapes() {}

    private static final Shape STRING_MAP = new Shape.MapOf(text());
    private static final Shape STRING_LIST = new Shape.ListOf(text());

    private static final Shape.Text TRIGGER_TYPE = new Shape.Text(TriggerType::fromJson);
    private static final Shape TIMEOUT = integer();

    /** Each trigger type's fields (with their aliases): a field of another type is a mistake, not a no-op. */
    private static final Shape TRIGGER = new Shape.Tagged(
            "type",
            TRIGGER_TYPE,
            type -> TriggerType.fromJson(type).wireName(),
            Map.of(
                    TriggerType.HTTP.wireName(),
                            trigger(
                                    TriggerType.HTTP,
                                    "method",
                                    text(),
                                    "url",
                                    text(),
                                    "headers",
                                    STRING_MAP,
                                    "body",
                                    text(),
                                    "timeoutSeconds",
                                    TIMEOUT,
                                    "timeout",
                                    TIMEOUT),
                    TriggerType.AIRFLOW.wireName(),
                            trigger(
                                    TriggerType.AIRFLOW,
                                    "url",
                                    text(),
                                    "dagId",
                                    text(),
                                    "headers",
                                    STRING_MAP,
                                    "body",
                                    text(),
                                    "conf",
                                    new Shape.MapOf(new Shape.Anything()),
                                    "timeoutSeconds",
                                    TIMEOUT,
                                    "timeout",
                                    TIMEOUT,
                                    "failedTaskCheck",
                                    new Shape.Flag()),
                    TriggerType.GLUE.wireName(),
                            trigger(
                                    TriggerType.GLUE,
                                    "jobName",
                                    text(),
                                    "arguments",
                                    STRING_MAP,
                                    "errorLogCheck",
                                    new Shape.Flag(),
                                    "errorLogPattern",
                                    text()),
                    TriggerType.EMR.wireName(),
                            trigger(
                                    TriggerType.EMR,
                                    "clusterId",
                                    text(),
                                    "stepName",
                                    text(),
                                    "jobName",
                                    text(),
                                    "jar",
                                    text(),
                                    "command",
                                    text(),
                                    "arguments",
                                    STRING_MAP),
                    TriggerType.EMR_SERVERLESS.wireName(),
                            trigger(
                                    TriggerType.EMR_SERVERLESS,
                                    "applicationId",
                                    text(),
                                    "jobName",
                                    text(),
                                    "executionRoleArn",
                                    text(),
                                    "entryPoint",
                                    text(),
                                    "entryPointArguments",
                                    STRING_LIST,
                                    "sparkSubmitParameters",
                                    text(),
                                    "arguments",
                                    STRING_MAP),
                    TriggerType.STEP_FUNCTION.wireName(),
                            trigger(
                                    TriggerType.STEP_FUNCTION,
                                    "stateMachineArn",
                                    text(),
                                    "arguments",
                                    STRING_MAP,
                                    "input",
                                    STRING_MAP),
                    TriggerType.DATABRICKS.wireName(),
                            trigger(
                                    TriggerType.DATABRICKS,
                                    "workspaceUrl",
                                    text(),
                                    "jobName",
                                    text(),
                                    "jobId",
                                    longInteger(),
                                    "notebookParams",
                                    STRING_MAP,
                                    "arguments",
                                    STRING_MAP,
                                    "headers",
                                    STRING_MAP,
                                    "timeoutSeconds",
                                    TIMEOUT,
                                    "timeout",
                                    TIMEOUT),
                    TriggerType.LAMBDA.wireName(),
                            trigger(TriggerType.LAMBDA, "functionName", text(), "payload", new Shape.Anything())));

    private static final Shape MONITORING = object(
            "enabled",
            new Shape.Flag(),
            "duration",
            text(),
            "driftField",
            text(),
            "driftThreshold",
            new Shape.Decimal());

    static final Shape PIPELINE = object(
            "kind",
            kind("pipeline"),
            "name",
            text(),
            "description",
            text(),
            "archetype",
            text(),
            "tier",
            integer(),
            "traits",
            new Shape.MapOf(object(
                    "evaluator",
                    text(),
                    "config",
                    new Shape.MapOf(new Shape.Anything()),
                    "ttl",
                    integer(),
                    "timeout",
                    integer(),
                    "headers",
                    STRING_MAP,
                    "required",
                    new Shape.Flag())),
            "readinessRule",
            object(
                    "type",
                    text(ReadinessRuleType::fromJson),
                    "traits",
                    STRING_LIST,
                    "count",
                    integer(),
                    "proceedAt",
                    text(),
                    "essential",
                    STRING_LIST),
            "trigger",
            TRIGGER,
            "retry",
            object(
                    "maxAttempts",
                    integer(),
                    "backoffSeconds",
                    integer(),
                    "backoffMultiplier",
                    new Shape.Decimal(),
                    "retryableFailures",
                    new Shape.ListOf(text(DocumentShapes::failureCategory))),
            "sla",
            object(
                    "evaluationDeadline",
                    text(),
                    "completionDeadline",
                    text(),
                    "validationTimeout",
                    text(),
                    "timezone",
                    text()),
            "schedules",
            new Shape.ListOf(
                    object("name", text(), "after", text(), "deadline", text(), "timezone", text(), "cron", text())),
            "exclusions",
            object("calendar", text(), "days", STRING_LIST, "dates", STRING_LIST),
            "monitoring",
            MONITORING,
            "watch",
            object("monitoring", MONITORING),
            "dryRun",
            new Shape.Flag(),
            "catchUp",
            new Shape.Flag(),
            "quietPeriod",
            text(),
            "minInterval",
            text(),
            "owner",
            text(),
            "team",
            text(),
            "labels",
            STRING_MAP,
            "runbook",
            text(),
            "postRun",
            new Shape.ListOf(object(
                    "name",
                    text(),
                    "evaluator",
                    text(),
                    "config",
                    new Shape.MapOf(new Shape.Anything()),
                    "timeout",
                    integer(),
                    "headers",
                    STRING_MAP,
                    "required",
                    new Shape.Flag())),
            "evaluationIntervalSeconds",
            integer(),
            "pollIntervalSeconds",
            integer(),
            "pollLimit",
            integer(),
            "maxJobDurationSeconds",
            integer());

    private static final Shape TRAIT_DEFINITION = object(
            "type",
            text(),
            "description",
            text(),
            "evaluator",
            text(),
            "defaultConfig",
            new Shape.MapOf(new Shape.Anything()),
            "defaultTtl",
            integer(),
            "defaultTimeout",
            integer());

    static final Shape ARCHETYPE = object(
            "kind",
            kind("archetype"),
            "name",
            text(),
            "description",
            text(),
            "requiredTraits",
            new Shape.ListOf(TRAIT_DEFINITION),
            "optionalTraits",
            new Shape.ListOf(TRAIT_DEFINITION),
            "readinessRule",
            object("type", text(DocumentShapes::archetypeRule)));

    static final Shape CALENDAR = object(
            "kind", kind("calendar"), "name", text(), "description", text(), "days", STRING_LIST, "dates", STRING_LIST);

    /**
     * {@code kind} tells {@code interlock apply} what a file holds; the API accepts it when it names the document it
     * was sent as, so the same file works with the CLI and with a plain PUT.
     */
    private static Shape kind(String expected) {
        return text(value -> {
            if (!value.trim().equalsIgnoreCase(expected)) {
                throw new IllegalArgumentException(
                        "'" + value + "' is not the kind of this document: it was sent as a " + expected);
            }
        });
    }

    private static Shape.Obj trigger(TriggerType type, Object... nameShapePairs) {
        Map<String, Shape> fields = new LinkedHashMap<>();
        fields.put("type", TRIGGER_TYPE);
        fields.putAll(((Shape.Obj) object(nameShapePairs)).fields());
        String article = switch (type) {
            case HTTP, AIRFLOW, EMR, EMR_SERVERLESS -> "an ";
            default -> "a ";
        };
        return new Shape.Obj(fields, article + type.wireName() + " trigger");
    }

    /** An archetype's rule is all-required-pass; any and at-least pool a pipeline's own traits. */
    private static void archetypeRule(String value) {
        ReadinessRuleType type;
        try {
            type = ReadinessRuleType.fromJson(value);
        } catch (IllegalArgumentException unknown) {
            type = null;
        }
        if (type != ReadinessRuleType.ALL_REQUIRED_PASS) {
            throw new IllegalArgumentException("unknown readinessRule.type '" + value + "'; allowed: all-required-pass"
                    + (type == null ? "" : " (any and at-least are set per pipeline, over its own traits)"));
        }
    }

    /** The codec reads unknown categories as TRANSIENT; in a config that is a typo, so registration rejects it. */
    private static void failureCategory(String value) {
        if (!FailureCategory.isKnown(value)) {
            throw new IllegalArgumentException("unknown failure category '" + value + "'; allowed: "
                    + Arrays.stream(FailureCategory.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }
}
