package dev.interlock.model.validation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.interlock.model.catalog.ArchetypeCatalog;
import dev.interlock.model.fixtures.SamplePipelines;
import dev.interlock.model.json.InterlockJson;
import dev.interlock.model.json.ValidationError;
import dev.interlock.model.pipeline.PipelineConfig;
import dev.interlock.model.trigger.AirflowTrigger;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.testing.Documents;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PipelineValidationTest {

    private static final String VALID = SamplePipelines.SILVER_ORDERS_JSON;

    private final PipelineValidation validation = new PipelineValidation(ArchetypeCatalog.bundled()::find);

    @Test
    void theBaseConfigIsValidAsJsonAndAsYaml() {
        Validated<PipelineConfig> json = validation.validateText(VALID);
        assertThat(json.errors()).isEmpty();
        assertThat(json.value().trigger()).isEqualTo(new GlueTrigger("orders", Map.of("--date", "${date}")));
        String yaml = Documents.yaml(json.value());
        assertThat(validation.validateText(yaml).errors()).isEmpty();
    }

    @Test
    void aGlueTriggerSetsItsDriverLogCheckAndABadPatternIsRefusedByName() {
        Validated<PipelineConfig> custom = validation.validateText(InterlockJson.write(
                patched("{\"trigger\":{\"type\":\"glue\",\"jobName\":\"orders\",\"errorLogPattern\":\"Traceback\"}}")));
        assertThat(custom.errors()).isEmpty();
        GlueTrigger glue = (GlueTrigger) custom.value().trigger();
        assertThat(glue.effectiveErrorLogPattern()).isEqualTo("Traceback");
        assertThat(((GlueTrigger) validation.validateText(VALID).value().trigger()).effectiveErrorLogPattern())
                .as("the default")
                .isEqualTo("?ERROR ?FATAL");
        Validated<PipelineConfig> off = validation.validateText(InterlockJson.write(
                patched("{\"trigger\":{\"type\":\"glue\",\"jobName\":\"orders\",\"errorLogCheck\":false}}")));
        assertThat(off.errors()).isEmpty();
        assertThat(((GlueTrigger) off.value().trigger()).effectiveErrorLogPattern())
                .isNull();
        assertThat(validation.validateText(Documents.yaml(off.value())).value().trigger())
                .as("round trip")
                .isEqualTo(off.value().trigger());

        assertThat(validation
                        .validateText(InterlockJson.write(patched(
                                "{\"trigger\":{\"type\":\"glue\",\"jobName\":\"orders\",\"errorLogPattern\":\" \"}}")))
                        .errors())
                .singleElement()
                .satisfies(e -> {
                    assertThat(e.path()).isEqualTo("$.trigger.errorLogPattern");
                    assertThat(e.message()).contains("errorLogCheck: false");
                });
        assertThat(validation
                        .validateText(
                                InterlockJson.write(
                                        patched(
                                                "{\"trigger\":{\"type\":\"glue\",\"jobName\":\"orders\",\"errorLogCheck\":\"maybe\"}}")))
                        .errors())
                .extracting(ValidationError::path)
                .containsExactly("$.trigger.errorLogCheck");
    }

    @Test
    void anAirflowTriggerTurnsItsFailedTaskCheckOffAndANonFlagIsRefusedByName() {
        String airflow = "{\"trigger\":{\"type\":\"airflow\",\"url\":\"https://airflow.example.com\",\"dagId\":\"d\"";
        Validated<PipelineConfig> checked = validation.validateText(InterlockJson.write(patched(airflow + "}}")));
        assertThat(checked.errors()).isEmpty();
        assertThat(((AirflowTrigger) checked.value().trigger()).failedTasksChecked())
                .as("the default")
                .isTrue();
        Validated<PipelineConfig> off =
                validation.validateText(InterlockJson.write(patched(airflow + ",\"failedTaskCheck\":false}}")));
        assertThat(off.errors()).isEmpty();
        assertThat(((AirflowTrigger) off.value().trigger()).failedTasksChecked())
                .isFalse();
        assertThat(validation.validateText(Documents.yaml(off.value())).value().trigger())
                .as("round trip")
                .isEqualTo(off.value().trigger());
        assertThat(validation
                        .validateText(InterlockJson.write(patched(airflow + ",\"failedTaskCheck\":\"maybe\"}}")))
                        .errors())
                .extracting(ValidationError::path)
                .containsExactly("$.trigger.failedTaskCheck");
    }

    @Test
    void postRunChecksAreReadAndEachBadOneIsRefusedAtItsIndex() {
        Validated<PipelineConfig> ok = validation.validateText(InterlockJson.write(
                patched("{\"postRun\":[{\"name\":\"rows-written\",\"evaluator\":\"builtin:sensor-threshold\","
                        + "\"config\":{\"sensor\":\"orders-rows\",\"field\":\"rows\",\"op\":\"gt\",\"value\":0}},"
                        + "{\"name\":\"audit\",\"evaluator\":\"https://audit.example.com/check\",\"required\":false,"
                        + "\"timeout\":10}]}")));
        assertThat(ok.errors()).isEmpty();
        assertThat(ok.value().postRun()).hasSize(2);
        assertThat(ok.value().postRun().getFirst().required())
                .as("required by default")
                .isTrue();
        assertThat(ok.value().postRun().get(1).required()).isFalse();
        assertThat(validation.validateText(Documents.yaml(ok.value())).value().postRun())
                .as("round trip")
                .isEqualTo(ok.value().postRun());

        Validated<PipelineConfig> bad = validation.validateText(InterlockJson.write(patched(
                "{\"postRun\":[{\"name\":\"rows\",\"evaluator\":\"builtin:sensor-threshold\",\"config\":{\"sensor\":\"s\"}},"
                        + "{\"name\":\"rows\",\"evaluator\":\"builtin:no-such\"},"
                        + "{\"evaluator\":\"builtin:always-pass\",\"timeout\":-1}]}")));
        assertThat(bad.errors())
                .extracting(ValidationError::path)
                .contains(
                        "$.postRun[0].config.field",
                        "$.postRun[1].name",
                        "$.postRun[1].evaluator",
                        "$.postRun[2].name",
                        "$.postRun[2].timeout");
        assertThat(bad.errors())
                .filteredOn(e -> e.path().equals("$.postRun[1].name"))
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("duplicate"));
        assertThat(validation
                        .validateText(InterlockJson.write(
                                patched("{\"postRun\":[{\"name\":\"a\",\"evaluater\":\"builtin:always-pass\"}]}")))
                        .errors())
                .extracting(ValidationError::path)
                .contains("$.postRun[0].evaluater");
    }

    @Test
    void aPipelineSetsAnyOrAtLeastOverItsTraitsAndMakesTraitsOptional() {
        Validated<PipelineConfig> atLeast = validation.validateText(InterlockJson.write(
                patched("{\"readinessRule\":{\"type\":\"at-least\",\"count\":2,\"traits\":[\"source-freshness\","
                        + "\"upstream-dependency\",\"schema-contract\"]},"
                        + "\"traits\":{\"schema-contract\":{\"evaluator\":\"checks/schema\"},"
                        + "\"resource-availability\":{\"required\":false}}}")));
        assertThat(atLeast.errors()).isEmpty();
        assertThat(atLeast.value().readinessRule().needed()).isEqualTo(2);
        assertThat(dev.interlock.model.archetype.TraitResolution.resolve(
                                atLeast.value(),
                                ArchetypeCatalog.bundled()
                                        .find("batch-ingestion")
                                        .orElseThrow(),
                                "daily",
                                java.time.LocalDate.of(2026, 3, 1))
                        .stream()
                        .map(t -> t.traitType() + "=" + t.required()))
                .as("pooled traits and the one made optional never block alone")
                .containsExactly(
                        "source-freshness=false",
                        "upstream-dependency=false",
                        "resource-availability=false",
                        "schema-contract=false");
        // Read back as registered: the rule survives the codec, YAML included.
        assertThat(validation
                        .validateText(Documents.yaml(atLeast.value()))
                        .value()
                        .readinessRule())
                .isEqualTo(atLeast.value().readinessRule());
    }

    @Test
    void ownershipIsStoredAsGivenAndEachBadValueIsRefusedAtItsField() {
        Validated<PipelineConfig> owned = validation.validateText(InterlockJson.write(patched(
                "{\"owner\":\" ana@example.com \",\"team\":\"data-platform\",\"labels\":{\"example.com/domain\":"
                        + "\"orders\"},\"runbook\":\"https://wiki.example.com/runbooks/orders\"}")));
        assertThat(owned.errors()).isEmpty();
        assertThat(owned.value().ownership())
                .isEqualTo(new dev.interlock.model.pipeline.Ownership(
                        "ana@example.com",
                        "data-platform",
                        Map.of("example.com/domain", "orders"),
                        "https://wiki.example.com/runbooks/orders"));
        assertThat(validation
                        .validateText(Documents.yaml(owned.value()))
                        .value()
                        .ownership())
                .as("round trip through the stored document")
                .isEqualTo(owned.value().ownership());

        Validated<PipelineConfig> bad = validation.validateText(InterlockJson.write(patched(
                "{\"owner\":\"" + "x".repeat(129) + "\",\"team\":\"Data Platform\",\"labels\":{\"bad key\":\"\"},"
                        + "\"runbook\":\"ftp://wiki.example.com/orders\"}")));
        assertThat(bad.errors())
                .extracting(ValidationError::path)
                .containsExactlyInAnyOrder(
                        "$.owner", "$.team", "$.labels['bad key']", "$.labels['bad key']", "$.runbook");
        Map<String, String> many = new java.util.TreeMap<>();
        for (int i = 0; i < 21; i++) {
            many.put("k" + i, "v");
        }
        assertThat(validation
                        .validateText(InterlockJson.write(patched("{\"labels\":" + InterlockJson.write(many) + "}")))
                        .errors())
                .extracting(ValidationError::toString)
                .containsExactly("$.labels: has 21 labels; at most 20 are allowed");
    }

    @Test
    void theMaximumJobDurationDefaultsToTwoHoursAndCanBeSet() {
        assertThat(validation.validateText(VALID).value().maxJobDurationSeconds())
                .isEqualTo(7200);
        Validated<PipelineConfig> set =
                validation.validateText(InterlockJson.write(patched("{\"maxJobDurationSeconds\":900}")));
        assertThat(set.errors()).isEmpty();
        assertThat(set.value().maxJobDurationSeconds()).isEqualTo(900);
        assertThat(validation
                        .validateText(InterlockJson.write(
                                patched("{\"maxJobDurationSeconds\":20,\"pollIntervalSeconds\":60}")))
                        .errors())
                .singleElement()
                .satisfies(e -> assertThat(e.message()).contains("shorter than pollIntervalSeconds (60)"));
    }

    /** A patch setting the readiness rule's deadline fallback ({@code proceedAt} as JSON text) on all-required-pass. */
    private static String fallback(String proceedAt, String essential) {
        return "{\"readinessRule\":{\"type\":\"all-required-pass\",\"proceedAt\":" + proceedAt + ",\"essential\":"
                + essential + "}}";
    }

    @Test
    void aPipelineMayProceedWithoutItsNonEssentialTraitsAtATimeOrAfterASpan() {
        for (String proceedAt : List.of("\"+2h\"", "\"08:30\"")) {
            Validated<PipelineConfig> fallback = validation.validateText(
                    InterlockJson.write(patched(fallback(proceedAt, "[\"source-freshness\"]"))));
            assertThat(fallback.errors()).as(proceedAt).isEmpty();
            assertThat(fallback.value().readinessRule().hasFallback()).isTrue();
            assertThat(fallback.value().readinessRule().essential()).containsExactly("source-freshness");
            // Read back as registered: the fallback survives the codec, YAML included.
            assertThat(validation
                            .validateText(Documents.yaml(fallback.value()))
                            .value()
                            .readinessRule())
                    .isEqualTo(fallback.value().readinessRule());
        }
    }

    static Stream<Arguments> malformedConfigs() {
        return Stream.of(
                arguments(
                        "at-least count larger than its list",
                        "{\"readinessRule\":{\"type\":\"at-least\",\"count\":3,"
                                + "\"traits\":[\"source-freshness\",\"upstream-dependency\"]}}",
                        List.of("$.readinessRule.count")),
                arguments(
                        "at-least without a count",
                        "{\"readinessRule\":{\"type\":\"at-least\","
                                + "\"traits\":[\"source-freshness\",\"upstream-dependency\"]}}",
                        List.of("$.readinessRule.count")),
                arguments(
                        "any over one trait",
                        "{\"readinessRule\":{\"type\":\"any\",\"traits\":[\"source-freshness\"]}}",
                        List.of("$.readinessRule.traits")),
                arguments(
                        "a pooled trait the archetype does not declare",
                        "{\"readinessRule\":{\"type\":\"any\",\"traits\":[\"source-freshness\",\"sauce\"]}}",
                        List.of("$.readinessRule.traits[1]")),
                arguments(
                        "a pooled optional trait that is not configured",
                        "{\"readinessRule\":{\"type\":\"any\","
                                + "\"traits\":[\"source-freshness\",\"schema-contract\"]}}",
                        List.of("$.readinessRule.traits[1]")),
                arguments(
                        "a trait listed twice",
                        "{\"readinessRule\":{\"type\":\"any\","
                                + "\"traits\":[\"source-freshness\",\"source-freshness\"]}}",
                        List.of("$.readinessRule.traits[1]")),
                arguments(
                        "a pooled trait also required alone",
                        "{\"readinessRule\":{\"type\":\"any\","
                                + "\"traits\":[\"source-freshness\",\"upstream-dependency\"]},"
                                + "\"traits\":{\"source-freshness\":{\"required\":true}}}",
                        List.of("$.traits.source-freshness.required")),
                arguments(
                        "all-required-pass with a pool",
                        "{\"readinessRule\":{\"type\":\"all-required-pass\",\"traits\":[\"source-freshness\"]}}",
                        List.of("$.readinessRule.traits")),
                arguments(
                        "an unknown rule", "{\"readinessRule\":{\"type\":\"most\"}}", List.of("$.readinessRule.type")),
                arguments(
                        "proceedAt that is neither a time nor a span",
                        fallback("\"half past six\"", "[\"source-freshness\"]"),
                        List.of("$.readinessRule.proceedAt")),
                arguments(
                        "proceedAt without essential traits",
                        "{\"readinessRule\":{\"type\":\"all-required-pass\",\"proceedAt\":\"+2h\"}}",
                        List.of("$.readinessRule.essential")),
                arguments(
                        "proceedAt with an empty essential list",
                        fallback("\"+2h\"", "[]"),
                        List.of("$.readinessRule.essential")),
                arguments(
                        "essential traits without proceedAt",
                        "{\"readinessRule\":{\"type\":\"all-required-pass\","
                                + "\"essential\":[\"source-freshness\"]}}",
                        List.of("$.readinessRule.proceedAt")),
                arguments(
                        "an essential trait the archetype does not declare",
                        fallback("\"+2h\"", "[\"source-freshness\",\"row-count\"]"),
                        List.of("$.readinessRule.essential[1]")),
                arguments(
                        "an essential trait listed twice",
                        fallback("\"+2h\"", "[\"source-freshness\",\"source-freshness\"]"),
                        List.of("$.readinessRule.essential[1]")),
                arguments(
                        "an essential optional trait that is not configured",
                        fallback("\"+2h\"", "[\"source-freshness\",\"schema-contract\"]"),
                        List.of("$.readinessRule.essential[1]")),
                arguments(
                        "an essential trait made optional",
                        "{\"readinessRule\":{\"type\":\"all-required-pass\",\"proceedAt\":\"+2h\","
                                + "\"essential\":[\"upstream-dependency\"]},"
                                + "\"traits\":{\"upstream-dependency\":{\"required\":false}}}",
                        List.of("$.readinessRule.essential[0]")),
                arguments(
                        "proceedAt as a span past the validation deadline",
                        fallback("\"+4h\"", "[\"source-freshness\"]"),
                        List.of("$.readinessRule.proceedAt")),
                arguments(
                        "proceedAt as a time past the daily schedule's validation deadline",
                        fallback("\"09:30\"", "[\"source-freshness\"]"),
                        List.of("$.readinessRule.proceedAt")),
                arguments(
                        "every trait optional",
                        "{\"traits\":{\"source-freshness\":{\"required\":false},"
                                + "\"upstream-dependency\":{\"required\":false},"
                                + "\"resource-availability\":{\"required\":false}}}",
                        List.of("$.traits")),
                arguments("name with upper case and underscore", "{\"name\":\"Bad_Name\"}", List.of("$.name")),
                arguments("name missing", "{\"name\":null}", List.of("$.name")),
                arguments("name of one character", "{\"name\":\"a\"}", List.of("$.name")),
                arguments("name ending in a dot", "{\"name\":\"silver.\"}", List.of("$.name")),
                arguments("unknown archetype", "{\"archetype\":\"nope\"}", List.of("$.archetype")),
                arguments("archetype missing", "{\"archetype\":null}", List.of("$.archetype")),
                arguments("trigger missing", "{\"trigger\":null}", List.of("$.trigger")),
                arguments("trigger not an object", "{\"trigger\":\"http\"}", List.of("$.trigger")),
                arguments(
                        "unknown trigger type",
                        "{\"trigger\":{\"type\":\"ftp\",\"url\":\"x\"}}",
                        List.of("$.trigger.type")),
                arguments("trigger without type", "{\"trigger\":{\"url\":\"https://x\"}}", List.of("$.trigger.type")),
                arguments("http without url", "{\"trigger\":{\"type\":\"http\"}}", List.of("$.trigger.url")),
                arguments(
                        "http with a non-http url",
                        "{\"trigger\":{\"type\":\"http\",\"url\":\"ftp://x/y\"}}",
                        List.of("$.trigger.url")),
                arguments(
                        "http with an unknown method",
                        "{\"trigger\":{\"type\":\"http\",\"url\":\"https://x\",\"method\":\"FETCH\"}}",
                        List.of("$.trigger.method")),
                arguments(
                        "http timeout too long",
                        "{\"trigger\":{\"type\":\"http\",\"url\":\"https://x\",\"timeoutSeconds\":3600}}",
                        List.of("$.trigger.timeoutSeconds")),
                arguments(
                        "airflow without url and dag",
                        "{\"trigger\":{\"type\":\"airflow\"}}",
                        List.of("$.trigger.url", "$.trigger.dagId")),
                arguments(
                        "airflow body not a JSON object",
                        "{\"trigger\":{\"type\":\"airflow\",\"url\":\"https://a\",\"dagId\":\"d\",\"body\":\"[1]\"}}",
                        List.of("$.trigger.body")),
                arguments("glue without job", "{\"trigger\":{\"type\":\"glue\"}}", List.of("$.trigger.jobName")),
                arguments(
                        "emr without cluster, step and jar",
                        "{\"trigger\":{\"type\":\"emr\"}}",
                        List.of("$.trigger.clusterId", "$.trigger.stepName", "$.trigger.jar")),
                arguments(
                        "emr-serverless without role",
                        "{\"trigger\":{\"type\":\"emr-serverless\",\"applicationId\":\"a\",\"entryPoint\":\"s3://b/m.py\"}}",
                        List.of("$.trigger.executionRoleArn")),
                arguments(
                        "emr-serverless with a non-IAM role",
                        "{\"trigger\":{\"type\":\"emr-serverless\",\"applicationId\":\"a\",\"entryPoint\":\"e\","
                                + "\"executionRoleArn\":\"role/x\"}}",
                        List.of("$.trigger.executionRoleArn")),
                arguments(
                        "step-function with a lambda arn",
                        "{\"trigger\":{\"type\":\"step-function\",\"stateMachineArn\":\"arn:aws:lambda:x:1:function:f\"}}",
                        List.of("$.trigger.stateMachineArn")),
                arguments(
                        "databricks without job",
                        "{\"trigger\":{\"type\":\"databricks\",\"workspaceUrl\":\"https://w\"}}",
                        List.of("$.trigger.jobName")),
                arguments(
                        "databricks job id of the wrong type",
                        "{\"trigger\":{\"type\":\"databricks\",\"workspaceUrl\":\"https://w\",\"jobId\":\"abc\"}}",
                        List.of("$.trigger.jobId", "$.trigger.jobName")),
                arguments(
                        "lambda without function",
                        "{\"trigger\":{\"type\":\"lambda\"}}",
                        List.of("$.trigger.functionName")),
                arguments(
                        "command is no trigger type",
                        "{\"trigger\":{\"type\":\"command\",\"command\":\"/bin/true\"}}",
                        List.of("$.trigger.type")),
                arguments("negative max attempts", "{\"retry\":{\"maxAttempts\":-1}}", List.of("$.retry.maxAttempts")),
                arguments(
                        "absurd backoff and multiplier",
                        "{\"retry\":{\"backoffSeconds\":100000,\"backoffMultiplier\":50}}",
                        List.of("$.retry.backoffSeconds", "$.retry.backoffMultiplier")),
                arguments(
                        "max attempts as words",
                        "{\"retry\":{\"maxAttempts\":\"three\"}}",
                        List.of("$.retry.maxAttempts")),
                arguments(
                        "unknown retryable category",
                        "{\"retry\":{\"retryableFailures\":[\"TRANSIENT\",\"SOMETIMES\"]}}",
                        List.of("$.retry.retryableFailures[1]")),
                arguments("retry not an object", "{\"retry\":[3]}", List.of("$.retry")),
                arguments("unknown sla zone", "{\"sla\":{\"timezone\":\"Mars/Olympus\"}}", List.of("$.sla.timezone")),
                arguments(
                        "sla deadline hour 25",
                        "{\"sla\":{\"evaluationDeadline\":\"25:00\"}}",
                        List.of("$.sla.evaluationDeadline")),
                arguments(
                        "sla completion deadline garbage",
                        "{\"sla\":{\"completionDeadline\":\"tomorrow\"}}",
                        List.of("$.sla.completionDeadline")),
                arguments(
                        "schedule deadline unparsable",
                        "{\"schedules\":[{\"name\":\"daily\"},{\"name\":\"h07\",\"deadline\":\"soon\"}]}",
                        List.of("$.schedules[1].deadline")),
                arguments(
                        "duplicate schedule",
                        "{\"schedules\":[{\"name\":\"daily\"},{\"name\":\"daily\"}]}",
                        List.of("$.schedules[1].name")),
                arguments(
                        "schedule without name",
                        "{\"schedules\":[{\"after\":\"06:00\"}]}",
                        List.of("$.schedules[0].name")),
                arguments(
                        "schedule after as a duration",
                        "{\"schedules\":[{\"name\":\"daily\",\"after\":\"+45m\"}]}",
                        List.of("$.schedules[0].after")),
                arguments(
                        "schedule zone unknown",
                        "{\"schedules\":[{\"name\":\"daily\",\"timezone\":\"Berlin\"}]}",
                        List.of("$.schedules[0].timezone")),
                arguments(
                        "schedule name with a hash",
                        "{\"schedules\":[{\"name\":\"h#1\"}]}",
                        List.of("$.schedules[0].name")),
                arguments("schedules not a list", "{\"schedules\":{\"name\":\"daily\"}}", List.of("$.schedules")),
                arguments(
                        "schedule element not an object",
                        "{\"schedules\":[{\"name\":\"daily\"},\"h07\"]}",
                        List.of("$.schedules[1]")),
                arguments(
                        "excluded weekday abbreviated and bad date",
                        "{\"exclusions\":{\"days\":[\"saturday\",\"sat\"],\"dates\":[\"2026-13-01\"]}}",
                        List.of("$.exclusions.days[1]", "$.exclusions.dates[0]")),
                arguments(
                        "monitoring enabled without duration",
                        "{\"monitoring\":{\"enabled\":true}}",
                        List.of("$.monitoring.duration")),
                arguments(
                        "watch.monitoring enabled without duration",
                        "{\"watch\":{\"monitoring\":{\"enabled\":true}}}",
                        List.of("$.monitoring.duration")),
                arguments(
                        "monitoring duration unparsable",
                        "{\"monitoring\":{\"enabled\":true,\"duration\":\"forever\"}}",
                        List.of("$.monitoring.duration")),
                arguments(
                        "monitoring longer than the documented maximum",
                        "{\"monitoring\":{\"enabled\":true,\"duration\":\"169h\"}}",
                        List.of("$.monitoring.duration")),
                arguments(
                        "validation window longer than the documented maximum",
                        "{\"sla\":{\"validationTimeout\":\"+24h1m\"}}",
                        List.of("$.sla.validationTimeout")),
                arguments(
                        "monitoring enabled not a boolean",
                        "{\"monitoring\":{\"enabled\":\"yes\",\"duration\":\"1h\"}}",
                        List.of("$.monitoring.enabled")),
                arguments(
                        "evaluator with a foreign scheme",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"ftp://x\"}}}",
                        List.of("$.traits.source-freshness.evaluator")),
                arguments(
                        "unknown builtin evaluator",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:upstream-job-log\"}}}",
                        List.of("$.traits.source-freshness.evaluator")),
                arguments(
                        "trait the archetype does not declare",
                        "{\"traits\":{\"row-count\":{\"evaluator\":\"builtin:always-pass\"}}}",
                        List.of("$.traits.row-count")),
                arguments(
                        "required trait left without evaluator",
                        "{\"traits\":{\"upstream-dependency\":{\"evaluator\":null}}}",
                        List.of("$.traits.upstream-dependency.evaluator")),
                arguments(
                        "negative trait ttl",
                        "{\"traits\":{\"source-freshness\":{\"ttl\":-5}}}",
                        List.of("$.traits.source-freshness.ttl")),
                arguments(
                        "trait config not an object",
                        "{\"traits\":{\"source-freshness\":{\"config\":\"x\"}}}",
                        List.of("$.traits.source-freshness.config")),
                arguments(
                        "sensor-threshold with an unknown operator",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:sensor-threshold\","
                                + "\"config\":{\"field\":\"count\",\"op\":\"bigger\",\"value\":10}}}}",
                        List.of("$.traits.source-freshness.config.op")),
                arguments(
                        "sensor-threshold without field and value",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:sensor-threshold\","
                                + "\"config\":{\"op\":\"gt\"}}}}",
                        List.of("$.traits.source-freshness.config.field", "$.traits.source-freshness.config.value")),
                arguments(
                        "sensor-freshness with a negative age",
                        "{\"traits\":{\"source-freshness\":{\"config\":{\"maxAgeSeconds\":-1}}}}",
                        List.of("$.traits.source-freshness.config.maxAgeSeconds")),
                arguments(
                        "sensor-threshold eq with an object value",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:sensor-threshold\","
                                + "\"config\":{\"field\":\"complete\",\"op\":\"eq\",\"value\":{\"a\":1}}}}}",
                        List.of("$.traits.source-freshness.config.value")),
                arguments(
                        "sensor-threshold gt with a text value",
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:sensor-threshold\","
                                + "\"config\":{\"field\":\"count\",\"op\":\"gt\",\"value\":\"many\"}}}}",
                        List.of("$.traits.source-freshness.config.value")),
                arguments(
                        "sensor partition using the run id",
                        "{\"traits\":{\"source-freshness\":{\"config\":{\"partition\":\"${date}-${runId}\"}}}}",
                        List.of("$.traits.source-freshness.config.partition")),
                arguments(
                        "sensor partition with an unknown placeholder",
                        "{\"traits\":{\"source-freshness\":{\"config\":{\"partition\":\"${region}\"}}}}",
                        List.of("$.traits.source-freshness.config.partition")),
                arguments(
                        "sensor partition that expands to no partition",
                        "{\"traits\":{\"source-freshness\":{\"config\":{\"partition\":\"${date}/${pipelineId}\"}}}}",
                        List.of("$.traits.source-freshness.config.partition")),
                arguments(
                        "sensor partition not text",
                        "{\"traits\":{\"source-freshness\":{\"config\":{\"partition\":20260301}}}}",
                        List.of("$.traits.source-freshness.config.partition")),
                arguments(
                        "upstream-run-log without upstream",
                        "{\"traits\":{\"upstream-dependency\":{\"config\":{\"upstreamPipeline\":null}}}}",
                        List.of("$.traits.upstream-dependency.config.upstreamPipeline")),
                arguments(
                        "a pipeline upstream of itself",
                        "{\"traits\":{\"upstream-dependency\":{\"config\":{\"upstreamPipeline\":\"silver.orders\"}}}}",
                        List.of("$.traits.upstream-dependency.config.upstreamPipeline")),
                arguments("fractional tier", "{\"tier\":1.5}", List.of("$.tier")),
                arguments(
                        "upstream that cannot be a key",
                        "{\"traits\":{\"upstream-dependency\":{\"config\":{\"upstreamPipeline\":\"a#b\"}}}}",
                        List.of("$.traits.upstream-dependency.config.upstreamPipeline")),
                arguments(
                        "upstream that is not text",
                        "{\"traits\":{\"upstream-dependency\":{\"config\":{\"upstreamPipeline\":7}}}}",
                        List.of("$.traits.upstream-dependency.config.upstreamPipeline")),
                arguments(
                        "pipeline waiting for itself",
                        "{\"traits\":{\"upstream-dependency\":{\"config\":{\"upstreamPipeline\":\"silver.orders\"}}}}",
                        List.of("$.traits.upstream-dependency.config.upstreamPipeline")),
                arguments("dryRun not a boolean", "{\"dryRun\":\"maybe\"}", List.of("$.dryRun")),
                arguments("catchUp not a boolean", "{\"catchUp\":\"yes please\"}", List.of("$.catchUp")),
                arguments("poll limit zero", "{\"pollLimit\":0}", List.of("$.pollLimit")),
                arguments("max job duration zero", "{\"maxJobDurationSeconds\":0}", List.of("$.maxJobDurationSeconds")),
                arguments(
                        "max job duration beyond half the execution",
                        "{\"maxJobDurationSeconds\":7201}",
                        List.of("$.maxJobDurationSeconds")),
                arguments(
                        "max job duration shorter than a poll",
                        "{\"maxJobDurationSeconds\":20,\"pollIntervalSeconds\":60}",
                        List.of("$.maxJobDurationSeconds")),
                arguments(
                        "max job duration not a number",
                        "{\"maxJobDurationSeconds\":\"2h\"}",
                        List.of("$.maxJobDurationSeconds")),
                arguments(
                        "evaluation interval too long",
                        "{\"evaluationIntervalSeconds\":86400}",
                        List.of("$.evaluationIntervalSeconds")),
                arguments(
                        "many problems reported together",
                        "{\"name\":\"X\",\"trigger\":{\"type\":\"http\"},\"retry\":{\"maxAttempts\":0},"
                                + "\"schedules\":[{\"name\":\"daily\",\"deadline\":\"x\"}]}",
                        List.of("$.name", "$.trigger.url", "$.retry.maxAttempts", "$.schedules[0].deadline")));
    }

    @Test
    void sensorThresholdEqComparesBooleansAndTextAndTakesAPartition() {
        String document = InterlockJson.write(
                patched(
                        "{\"traits\":{\"source-freshness\":{\"evaluator\":\"builtin:sensor-threshold\","
                                + "\"config\":{\"sensor\":\"orders\",\"partition\":\"${date}T${scheduleId}\",\"field\":\"complete\",\"op\":\"eq\",\"value\":true}}}}"));
        assertThat(validation.validateText(document).errors()).isEmpty();
    }

    @Test
    void misspeltKeysAreRefusedWithTheirPathAndTheKeyMostLikelyMeant() {
        String yaml = """
                name: silver.orders
                archetype: batch-ingestion
                trigger: {type: glue, jobName: orders, url: "https://x"}
                schedule:
                  - name: daily
                retires: {maxAttempts: 2}
                retry: {maxAttempt: 5}
                schedules: [{name: h06, dedline: "07:00"}]
                traits:
                  source-freshness: {evaluator: "builtin:always-pass", evalutor: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                ownr: ana
                costCentre: data-platform
                """;

        assertThat(validation.validateText(yaml).errors())
                .extracting(ValidationError::toString)
                .containsExactly(
                        "$.trigger.url: unknown field of a glue trigger; known fields: type, jobName, arguments, errorLogCheck, "
                                + "errorLogPattern",
                        "$.schedule: unknown field; did you mean 'schedules'?",
                        "$.retires: unknown field; did you mean 'retry'?",
                        "$.retry.maxAttempt: unknown field; did you mean 'maxAttempts'?",
                        "$.schedules[0].dedline: unknown field; did you mean 'deadline'?",
                        "$.traits.source-freshness.evalutor: unknown field; did you mean 'evaluator'?",
                        "$.ownr: unknown field; did you mean 'owner'?",
                        "$.costCentre: unknown field; known fields: "
                                + String.join(", ", fieldNames(DocumentShapes.PIPELINE)));
    }

    @Test
    void keysMatchCaseInsensitivelyAndAliasesStayAccepted() {
        String yaml = """
                Name: silver.orders
                ARCHETYPE: batch-ingestion
                trigger: {Type: http, URL: "https://x", timeout: 20}
                watch: {monitoring: {enabled: true, duration: 2h}}
                traits:
                  source-freshness: {EVALUATOR: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                """;

        Validated<PipelineConfig> result = validation.validateText(yaml);

        assertThat(result.errors()).isEmpty();
        assertThat(result.value().monitoring().duration()).isEqualTo("2h");
    }

    private static List<String> fieldNames(Shape shape) {
        return List.copyOf(((Shape.Obj) shape).fields().keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedConfigs")
    void eachMalformedConfigIsReportedAtItsPath(String description, String patch, List<String> expectedPaths) {
        String document = InterlockJson.write(patched(patch));
        Validated<PipelineConfig> result = validation.validateText(document);
        assertThat(result.errors()).extracting(ValidationError::path).containsExactlyElementsOf(expectedPaths);
        assertThat(result.errors()).allSatisfy(e -> assertThat(e.message()).isNotBlank());
        assertThat(result.value()).isNull();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedDocuments")
    void malformedDocumentsAreErrorsAtTheRootNotExceptions(String description, String text, String messageFragment) {
        Validated<PipelineConfig> result = validation.validateText(text);
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.path()).isEqualTo("$");
            assertThat(e.message()).contains(messageFragment);
        });
    }

    static Stream<Arguments> malformedDocuments() {
        return Stream.of(
                arguments("truncated JSON", "{\"name\": \"a1\",", "malformed document at line 1"),
                arguments("unclosed YAML flow sequence", "name: [a1\ntrigger: x\n", "malformed document at line"),
                arguments("YAML list instead of object", "- a\n- b\n", "a pipeline must be an object"),
                arguments("bare scalar", "42", "a pipeline must be an object"),
                arguments("empty document", "   ", "the document is empty"),
                arguments("YAML comment only", "# nothing\n", "the document is empty"));
    }

    @Test
    void messagesSayWhatIsWrongAndWhatIsAllowed() {
        var result = validation.validateText(
                InterlockJson.write(
                        patched(
                                "{\"trigger\":{\"type\":\"ftp\"},\"retry\":{\"maxAttempts\":\"three\"},\"sla\":{\"timezone\":\"Berlin\"}}")));
        assertThat(result.errors())
                .containsExactly(
                        new ValidationError(
                                "$.trigger.type",
                                "unknown trigger.type 'ftp'; allowed: http, airflow, glue, emr, "
                                        + "emr-serverless, step-function, databricks, lambda"),
                        new ValidationError("$.retry.maxAttempts", "expected a whole number, got text \"three\""),
                        new ValidationError(
                                "$.sla.timezone",
                                "'Berlin' is not a time zone; use an IANA name like Europe/Berlin or UTC"));
    }

    @Test
    void keysAreMatchedCaseInsensitivelyInTheStructuralCheck() {
        var result = validation.validateText(InterlockJson.write(patched("{\"Retry\":{\"MaxAttempts\":\"x\"}}")));
        assertThat(result.errors()).extracting(ValidationError::path).containsExactly("$.retry.maxAttempts");
    }

    @Test
    void yamlTimesParseAsText() {
        String yaml = """
                name: silver
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: builtin:always-pass}
                  upstream-dependency: {evaluator: builtin:always-pass}
                  resource-availability: {evaluator: builtin:always-pass}
                trigger: {type: lambda, functionName: run-silver}
                schedules:
                  - name: daily
                    after: 06:00
                    deadline: 07:30
                """;
        Validated<PipelineConfig> result = validation.validateText(yaml);
        assertThat(result.errors()).isEmpty();
        assertThat(result.value().schedules().get(0).deadline()).isEqualTo("07:30");
    }

    @Test
    void validateTreeLeavesTheCallersTreeUntouched() {
        JsonNode tree = patched("{\"retry\":{\"maxAttempts\":\"three\"}}");
        String before = tree.toString();
        validation.validateTree(tree);
        assertThat(tree.toString()).isEqualTo(before);
    }

    @Test
    void orThrowCarriesEveryError() {
        var result = validation.validateText(InterlockJson.write(patched("{\"name\":\"X\",\"pollLimit\":0}")));
        assertThatThrownBy(result::orThrow)
                .isInstanceOfSatisfying(
                        InvalidDocumentException.class,
                        e -> assertThat(e.errors())
                                .extracting(ValidationError::path)
                                .containsExactly("$.name", "$.pollLimit"));
        assertThat(validation.validateText(VALID).orThrow().name()).isEqualTo("silver.orders");
    }

    /** The valid base with a JSON merge patch applied; {@code trigger} and lists are replaced, not merged. */
    private static JsonNode patched(String patch) {
        ObjectNode base = (ObjectNode) InterlockJson.tree(VALID);
        merge(base, (ObjectNode) InterlockJson.tree(patch));
        return base;
    }

    private static void merge(ObjectNode target, ObjectNode patch) {
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            JsonNode current = target.get(field.getKey());
            if (field.getValue().isNull()) {
                target.remove(field.getKey());
            } else if (field.getValue().isObject()
                    && current != null
                    && current.isObject()
                    && !field.getKey().equals("trigger")) {
                merge((ObjectNode) current, (ObjectNode) field.getValue());
            } else {
                target.set(field.getKey(), field.getValue());
            }
        }
    }
}
