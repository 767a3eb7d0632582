package dev.interlock.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.interlock.model.run.FailureCategory;
import dev.interlock.model.runtime.Environment;
import dev.interlock.model.trigger.GlueTrigger;
import dev.interlock.model.trigger.HttpTrigger;
import dev.interlock.runtime.aws.AwsClients;
import dev.interlock.runtime.outbound.GuardedHttp;
import dev.interlock.runtime.outbound.OutboundTemplates;
import dev.interlock.runtime.outbound.UrlGuard;
import dev.interlock.testing.AwsProtocolStub;
import dev.interlock.testing.AwsProtocolStub.Reply;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The factory the functions' {@code Deps} calls: lazy AWS clients, the environment's variables, the guard. */
class TriggerRunnersFactoryTest {

    @Test
    void createsAwsClientsOnlyForTheTypesThatRunAndHonoursTheEnvironment() {
        try (AwsProtocolStub stub = AwsProtocolStub.start()) {
            stub.on("AWSGlue.StartJobRun", Reply.json("{\"JobRunId\":\"jr_7\"}"));
            Environment environment = Environment.of(Map.of(
                    "AWS_REGION",
                    "eu-west-1",
                    "INTERLOCK_ENDPOINT_GLUE",
                    stub.endpoint().toString()));
            try (AwsClients aws = new AwsClients(environment);
                    GuardedHttp http = GuardedHttp.create(UrlGuard.fromEnvironment(environment), Clock.systemUTC())) {
                TriggerRunners runners =
                        TriggerRunners.create(aws, OutboundTemplates.create(environment, aws), http, Clock.systemUTC());
                for (String client : List.of("glue", "logs", "emr", "emrserverless", "sfn", "lambda")) {
                    assertThat(aws.created(client)).as(client).isFalse();
                }

                TriggerResult started = runners.start(
                        new TriggerRequest("orders", "daily", "2026-03-01", "run-1", new GlueTrigger("etl", Map.of())));
                assertThat(started)
                        .isEqualTo(TriggerResult.running(Map.of(
                                "glue_job_name",
                                "etl",
                                "glue_job_run_id",
                                "jr_7",
                                "glue_error_log_pattern",
                                "?ERROR ?FATAL")));
                assertThat(aws.created("glue")).isTrue();
                assertThat(aws.created("logs"))
                        .as("the driver-log check's client: not at trigger time")
                        .isFalse();
                assertThat(aws.created("sfn")).isFalse();

                // INTERLOCK_ALLOW_PRIVATE_URLS is unset: loopback is refused.
                assertThat(runners.start(new TriggerRequest(
                                        "orders",
                                        "daily",
                                        "2026-03-01",
                                        "run-1",
                                        new HttpTrigger(null, stub.endpoint() + "/hook", null, null, 5)))
                                .failureCategory())
                        .isEqualTo(FailureCategory.PERMANENT);
            }
        }
    }

    @Test
    void theWatchdogsCallbackChecksAskTheJobSystemAndNeverDecideOnAFailureToAsk() {
        try (AwsProtocolStub stub = AwsProtocolStub.start()) {
            stub.on(
                    "AWSGlue.GetJobRun",
                    Reply.json("{\"JobRun\":{\"Id\":\"jr_7\",\"JobName\":\"etl\",\"JobRunState\":\"SUCCEEDED\"}}"));
            Environment environment = Environment.of(Map.of(
                    "AWS_REGION",
                    "eu-west-1",
                    "INTERLOCK_ENDPOINT_GLUE",
                    stub.endpoint().toString()));
            try (AwsClients aws = new AwsClients(environment)) {
                RunChecker checks = TriggerRunners.callbackJobChecks(
                        aws, new dev.interlock.log.StructuredLog("watchdog", System.out, Clock.systemUTC()));
                Map<String, String> glueRun = Map.of("glue_job_name", "etl", "glue_job_run_id", "jr_7");

                assertThat(checks.check(request(dev.interlock.model.trigger.TriggerType.GLUE, glueRun))
                                .state())
                        .isEqualTo(RunCheckState.SUCCEEDED);

                stub.on("AWSGlue.GetJobRun", Reply.error(400, "AccessDeniedException", "no glue:GetJobRun"));
                RunCheck denied = checks.check(request(dev.interlock.model.trigger.TriggerType.GLUE, glueRun));
                assertThat(denied.state())
                        .as("a missing grant says nothing about the job: asked again, never failed by the watchdog")
                        .isEqualTo(RunCheckState.RUNNING);
                assertThat(denied.message()).contains("AccessDeniedException");

                assertThat(checks.check(request(dev.interlock.model.trigger.TriggerType.AIRFLOW, Map.of()))
                                .state())
                        .isEqualTo(RunCheckState.RUNNING);
                for (String client : List.of("emr", "emrserverless", "sfn", "lambda")) {
                    assertThat(aws.created(client)).as(client).isFalse();
                }
            }
        }
    }

    private static RunCheckRequest request(dev.interlock.model.trigger.TriggerType type, Map<String, String> metadata) {
        return new RunCheckRequest("orders", "daily", "2026-03-01", "run-1", type, metadata, Map.of());
    }
}
