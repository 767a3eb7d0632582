package dev.interlock.model.validation;

import dev.interlock.model.archetype.ReadinessRuleType;
import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.trigger.TriggerType;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static dev.interlock.model.validation.Shape.integer;
import static dev.interlock.model.validation.Shape.longInteger;
import static dev.interlock.model.validation.Shape.object;
import static dev.interlock.model.validation.Shape.text;

/** The JSON types of the documents users submit, for {@link Shape#check}; they mirror the records. */
final class DocumentShapes {
    private DocumentShapes() {
    }

    private static final Shape STRING_MAP = new Shape.MapOf(text());
    private static final Shape STRING_LIST = new Shape.ListOf(text());

    private static final Shape TRIGGER = new Shape.Obj(Map.ofEntries(
            Map.entry("type", text(TriggerType::fromJson)),
            Map.entry("method", text()), Map.entry("url", text()), Map.entry("headers", STRING_MAP),
            Map.entry("body", text()), Map.entry("timeoutSeconds", integer()), Map.entry("timeout", integer()),
            Map.entry("dagId", text()), Map.entry("conf", new Shape.MapOf(new Shape.Anything())),
            Map.entry("jobName", text()), Map.entry("jobId", longInteger()), Map.entry("arguments", STRING_MAP),
            Map.entry("clusterId", text()), Map.entry("stepName", text()), Map.entry("jar", text()),
            Map.entry("command", text()), Map.entry("applicationId", text()), Map.entry("executionRoleArn", text()),
            Map.entry("entryPoint", text()), Map.entry("entryPointArguments", STRING_LIST),
            Map.entry("sparkSubmitParameters", text()), Map.entry("stateMachineArn", text()), Map.entry("input", STRING_MAP),
            Map.entry("workspaceUrl", text()), Map.entry("notebookParams", STRING_MAP), Map.entry("functionName", text()),
            Map.entry("payload", new Shape.Anything()), Map.entry("args", STRING_LIST)),
            // Without a valid type the other fields mean nothing: drop the trigger and report only its type.
            List.of("type"));

    private static final Shape MONITORING = object(
            "enabled", new Shape.Flag(), "duration", text(), "driftField", text(), "driftThreshold", new Shape.Decimal());

    static final Shape PIPELINE = object(
            "name", text(), "description", text(), "archetype", text(), "tier", integer(),
            "traits", new Shape.MapOf(object("evaluator", text(), "config", new Shape.MapOf(new Shape.Anything()),
                    "ttl", integer(), "timeout", integer())),
            "trigger", TRIGGER,
            "retry", object("maxAttempts", integer(), "backoffSeconds", integer(), "backoffMultiplier", new Shape.Decimal(),
                    "retryableFailures", new Shape.ListOf(text(DocumentShapes::failureCategory))),
            "sla", object("evaluationDeadline", text(), "completionDeadline", text(), "validationTimeout", text(),
                    "timezone", text()),
            "schedules", new Shape.ListOf(object("name", text(), "after", text(), "deadline", text(), "timezone", text())),
            "exclusions", object("calendar", text(), "days", STRING_LIST, "dates", STRING_LIST),
            "monitoring", MONITORING,
            "watch", object("monitoring", MONITORING),
            "dryRun", new Shape.Flag(),
            "catchUp", new Shape.Flag(),
            "evaluationIntervalSeconds", integer(), "pollIntervalSeconds", integer(), "pollLimit", integer());

    private static final Shape TRAIT_DEFINITION = object("type", text(), "description", text(), "evaluator", text(),
            "defaultConfig", new Shape.MapOf(new Shape.Anything()), "defaultTtl", integer(), "defaultTimeout", integer());

    static final Shape ARCHETYPE = object("name", text(), "description", text(),
            "requiredTraits", new Shape.ListOf(TRAIT_DEFINITION), "optionalTraits", new Shape.ListOf(TRAIT_DEFINITION),
            "readinessRule", object("type", text(ReadinessRuleType::fromJson)));

    static final Shape CALENDAR = object("name", text(), "description", text(), "days", STRING_LIST, "dates", STRING_LIST);

    /** The codec reads unknown categories as TRANSIENT; in a config that is a typo, so registration rejects it. */
    private static void failureCategory(String value) {
        if (!FailureCategory.isKnown(value)) {
            throw new IllegalArgumentException("unknown failure category '" + value + "'; allowed: "
                    + Arrays.stream(FailureCategory.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }
}
