package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.events.LocalEventBus;
import dev.interlock.local.runtime.RuntimeOptions;
import dev.interlock.model.contract.OrchestratorAction;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every pipeline of {@code examples/} runs end to end on the local runtime, as {@code ./interlock up} serves it: the
 * folder is applied with the CLI as it is, producers push the sensors its traits read, one evaluation per cascade is
 * asked for, and each pipeline's job — Glue, EMR Serverless, Step Functions — runs on the runtime's job fake (the
 * examples carry no fake arguments: 30 s, SUCCEEDED) until every example's run log is COMPLETED. The fakes' job-state
 * events reach the local EventBridge and its job-state rules.
 */
class ExamplesEndToEndTest extends EndToEnd {

    /** A Tuesday that no example excludes (gold skips weekends and the 2026 US holidays). */
    private static final LocalDate DAY = LocalDate.of(2026, 3, 3);

    @Override
    RuntimeOptions runtimeOptions(Path dataDir) {
        return super.runtimeOptions(dataDir).withClockStart(Instant.parse("2026-03-03T12:00:00Z"));
    }

    private static final Path EXAMPLES = Path.of("../examples");

    /** The pipeline documents of the examples folder (calendars and archetypes say {@code kind:}), by name. */
    private static List<String> examplePipelines() {
        try (var files = java.nio.file.Files.walk(EXAMPLES)) {
            return files.filter(f -> f.toString().endsWith(".yaml"))
                    .map(f -> {
                        try {
                            return java.nio.file.Files.readAllLines(f);
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    })
                    .filter(lines -> lines.stream().noneMatch(l -> l.startsWith("kind:")))
                    .map(lines -> lines.stream()
                            .filter(l -> l.startsWith("name:"))
                            .findFirst()
                            .orElseThrow()
                            .substring(5)
                            .trim())
                    .sorted()
                    .toList();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyExampleRunsToCompletedOnItsJobFake() {
        Cli applied = cli(
                "apply",
                "-f",
                EXAMPLES.toString(),
                "--endpoint",
                rt.apiEndpoint().toString(),
                "--no-sigv4");
        assertThat(applied.code()).as(applied.out() + applied.err()).isZero();
        List<String> examples = examplePipelines();
        assertThat(examples)
                .containsExactlyInAnyOrder(
                        "bronze-orders",
                        "silver-orders",
                        "gold-orders",
                        "clickstream-sessions",
                        "clickstream-hourly-kpis",
                        "clickstream-daily-rollup");
        assertThat(list("/pipelines").stream().map(p -> p.path("name").asText()).toList())
                .containsAll(examples);

        // What the producers report (examples/README.md): the day's raw orders landed, EMR has room, the clickstream's
        // 12:00 hour is current. The examples read the day's (hour's) partition, so yesterday's never makes today
        // ready.
        expect(
                200,
                "PUT",
                "/sensors/raw-orders/partitions/" + DAY,
                "application/json",
                "{\"count\":125000,\"partitions\":24}");
        sensor("emr-capacity", "{\"freeVcpus\":128}");
        expect(200, "PUT", "/sensors/clickstream/partitions/" + DAY + "T12", "application/json", "{\"lagSeconds\":30}");
        evaluate("bronze-orders", DAY);
        evaluate("clickstream-sessions", DAY, "hourly.1210");

        // bronze (Glue) cascades to silver (EMR Serverless), which cascades to gold (Glue); sessions hourly.1210 (Glue)
        // to the hourly KPIs' hourly.1210 (Step Functions): the same window of the same cron.
        await(
                "every example COMPLETED",
                () -> List.of(
                        runLogStatus("bronze-orders", DAY, "daily"),
                        runLogStatus("silver-orders", DAY, "daily"),
                        runLogStatus("gold-orders", DAY, "daily"),
                        runLogStatus("clickstream-sessions", DAY, "hourly.1210"),
                        runLogStatus("clickstream-hourly-kpis", DAY, "hourly.1210")),
                l -> l.stream().allMatch("COMPLETED"::equals));

        // Each job ran on its fake, through the real SDK client of the trigger and run checker.
        assertThat(runs("bronze-orders")
                        .getFirst()
                        .path("metadata")
                        .path("glue_job_run_id")
                        .asText())
                .startsWith("jr_");
        assertThat(runs("silver-orders")
                        .getFirst()
                        .path("metadata")
                        .path("emr_sl_job_run_id")
                        .asText())
                .isNotBlank();
        assertThat(runs("clickstream-hourly-kpis")
                        .getFirst()
                        .path("metadata")
                        .path("sfn_execution_arn")
                        .asText())
                .contains(":execution:hourly-kpis:");
        // Nothing went wrong. A completion deadline (the hourly pair's "+40m") may pass on a loaded machine, where the
        // runtime's sped-up clock runs ahead of the jobs: that warning says the run was late, not that it failed.
        for (String pipeline : examples) {
            assertThat(alertKinds(pipeline)).as(pipeline).allMatch("SLA_COMPLETION_BREACHED"::equals);
        }
        // The daily rollup, asked for before its 23:30 window, counts the one hour in and waits for the others.
        evaluate("clickstream-daily-rollup", DAY);
        String rollupBlocking = await(
                "the rollup counting the hours",
                () -> expect(200, "GET", "/pipelines/clickstream-daily-rollup/status?date=" + DAY, null, null)
                        .path("schedules")
                        .path(0)
                        .path("blocking")
                        .toString(),
                b -> b.contains("1 of 24 in"));
        assertThat(rollupBlocking).contains("missing hourly.0010").doesNotContain("hourly.1210,");
        assertThat(runLogStatus("clickstream-daily-rollup", DAY, "daily")).isEqualTo("none");
    }

    @Test
    void theJobFakesPublishAwsJobStateEventsThatTheJobStateRulesDeliver() {
        putPipeline("""
                name: ev-glue
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: glue, jobName: ev-glue-job, arguments: {"--fake-duration-seconds": "90"}}
                """);
        evaluate("ev-glue", DAY);
        await("ev-glue COMPLETED", () -> runLogStatus("ev-glue", DAY, "daily"), "COMPLETED"::equals);

        JsonNode event = await(
                        "the Glue Job State Change",
                        () -> rt.eventBus().events().stream()
                                .filter(e -> e.path("detail")
                                        .path("jobName")
                                        .asText()
                                        .equals("ev-glue-job"))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
        assertThat(event.path("source").asText()).isEqualTo("aws.glue");
        assertThat(event.path("detail-type").asText()).isEqualTo("Glue Job State Change");
        assertThat(event.path("detail").path("state").asText()).isEqualTo("SUCCEEDED");
        assertThat(event.path("detail").path("jobRunId").asText())
                .isEqualTo(runs("ev-glue")
                        .getFirst()
                        .path("metadata")
                        .path("glue_job_run_id")
                        .asText());
        LocalEventBus.Delivery delivery = await(
                        "the rule's delivery",
                        () -> rt.eventBus().deliveries().stream()
                                .filter(d -> d.input()
                                        .path("payload")
                                        .path("detail")
                                        .path("jobName")
                                        .asText()
                                        .equals("ev-glue-job"))
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
        assertThat(delivery.rule()).isEqualTo("GlueJobStateChange");
        assertThat(delivery.delivered()).isTrue();
        assertThat(delivery.input().path("action").asText()).isEqualTo(OrchestratorAction.JOB_STATE_CHANGE.wireName());
        assertThat(delivery.input().path("payload").path("detailType").asText()).isEqualTo("Glue Job State Change");
    }

    private void jobPipeline(String name, String trigger) {
        putPipeline("""
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "builtin:always-pass"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: %s
                retry: {maxAttempts: 1}
                """.formatted(name, trigger));
    }

    @Test
    void eachAwsJobTypeRunsAsLongAndEndsAsItsOwnArgumentsSay() {
        jobPipeline("jt-glue", "{type: glue, jobName: orders, arguments: {\"--fake-outcome\": FAILED}}");
        jobPipeline(
                "jt-emr",
                "{type: emr, clusterId: j-LOCAL, stepName: orders, jar: command-runner.jar, "
                        + "arguments: {\"--fake-duration-seconds\": \"600\"}}");
        jobPipeline(
                "jt-emrs",
                "{type: emr-serverless, applicationId: 00app, executionRoleArn: \"arn:aws:iam::123456789012:role/r\", "
                        + "entryPoint: \"s3://b/job.py\", entryPointArguments: [\"--fake-outcome\", FAILED]}");
        jobPipeline(
                "jt-sfn",
                "{type: step-function, stateMachineArn: \"arn:aws:states:us-east-1:123456789012:stateMachine:kpis\", "
                        + "arguments: {\"--fake-duration-seconds\": \"45\"}}");
        jobPipeline(
                "jt-lambda", "{type: lambda, functionName: export-orders, payload: {\"--fake-duration-seconds\": 5}}");
        for (String p : List.of("jt-glue", "jt-emr", "jt-emrs", "jt-sfn", "jt-lambda")) {
            evaluate(p, DAY);
        }

        await(
                "every job ended",
                () -> List.of(
                        runLogStatus("jt-glue", DAY, "daily"),
                        runLogStatus("jt-emr", DAY, "daily"),
                        runLogStatus("jt-emrs", DAY, "daily"),
                        runLogStatus("jt-sfn", DAY, "daily"),
                        runLogStatus("jt-lambda", DAY, "daily")),
                l -> List.of("FAILED", "COMPLETED", "FAILED", "COMPLETED", "COMPLETED")
                        .equals(l));

        assertThat(runs("jt-glue").getFirst().path("status").asText()).isEqualTo("FAILED");
        assertThat(runLog("jt-glue", DAY, "daily").path("failureMessage").asText())
                .contains("--fake-outcome");
        // Ten minutes of product time, polled every 30 s: the job ran for its fake duration, not one poll.
        JsonNode emrRun = runs("jt-emr").getFirst();
        assertThat(java.time.Duration.between(
                        Instant.parse(emrRun.path("createdAt").asText()),
                        Instant.parse(emrRun.path("updatedAt").asText())))
                .isGreaterThanOrEqualTo(java.time.Duration.ofSeconds(600));
        assertThat(emrRun.path("metadata").path("emr_step_id").asText()).startsWith("s-");
        assertThat(runs("jt-lambda")
                        .getFirst()
                        .path("metadata")
                        .path("lambda_function_name")
                        .asText())
                .isEqualTo("export-orders");
    }
}
