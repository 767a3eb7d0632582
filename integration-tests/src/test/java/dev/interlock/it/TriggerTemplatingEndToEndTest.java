package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.interlock.local.demo.FakeJobServer;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Trigger templating as a user meets it: an hourly job that must be told which hour to process gets the execution's
 * date, hour, schedule, pipeline and run in its URL, body and headers — and a template that cannot work is refused
 * when the pipeline is registered, with the path of the field, not when the job should start.
 */
class TriggerTemplatingEndToEndTest extends EndToEnd {

    private static final String ALWAYS_PASS = """
            archetype: batch-ingestion
            traits:
              source-freshness: {evaluator: "builtin:always-pass"}
              upstream-dependency: {evaluator: "builtin:always-pass"}
              resource-availability: {evaluator: "builtin:always-pass"}
            """;

    @Test
    void anHourlyHttpJobIsToldWhichHourToProcess() throws Exception {
        LocalDate date = today();
        putPipeline("name: tpl-hourly-export\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "%s/jobs/tpl-hourly-export?date=${date}&hour=${hour}"
                  headers: {X-Interlock-Run: "${runId}", X-Interlock-Pipeline: "${pipelineId}"}
                  body: '{"date":"${date}","hour":"${hour}","schedule":"${scheduleId}"}'
                schedules:
                  - {name: h06, after: "06:05"}
                  - {name: h07, after: "07:05"}
                """.formatted(jobs.endpoint()));

        String name = evaluate("tpl-hourly-export", date, "h07");

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("tpl-hourly-export", date, "h07")).isEqualTo("COMPLETED");
        FakeJobServer.Received job = jobs.received().stream()
                .filter(r -> r.job().equals("tpl-hourly-export"))
                .collect(java.util.stream.Collectors.collectingAndThen(
                        java.util.stream.Collectors.toList(), List::getFirst));
        assertThat(job.query()).isEqualTo("date=" + date + "&hour=07");
        JsonNode body = FakeJobServer.json(job.body());
        assertThat(body.path("date").asText()).isEqualTo(date.toString());
        assertThat(body.path("hour").asText()).isEqualTo("07");
        assertThat(body.path("schedule").asText()).isEqualTo("h07");
        String runId = runs("tpl-hourly-export").getFirst().path("runId").asText();
        assertThat(job.header("X-Interlock-Run")).isEqualTo(runId);
        assertThat(job.header("X-Interlock-Pipeline")).isEqualTo("tpl-hourly-export");
    }

    @Test
    void anAirflowDagRunGetsTheHourInItsConfAndEveryPollCarriesTheRunsHeaders() throws Exception {
        LocalDate date = today();
        putPipeline("name: tpl-airflow\n" + ALWAYS_PASS + """
                trigger:
                  type: airflow
                  url: "%s"
                  dagId: tpl_hourly_dag
                  headers: {X-Interlock-Run: "${runId}", X-Interlock-Date: "${date}"}
                  body: '{"date":"${date}","hour":"${hour}"}'
                pollIntervalSeconds: 30
                schedules:
                  - {name: h13, after: "13:05"}
                """.formatted(jobs.endpoint()));

        String name = evaluate("tpl-airflow", date, "h13");

        assertThat(awaitDone(name)).isEqualTo(ExecutionStatus.SUCCEEDED);
        FakeJobServer.Received start = jobs.received().stream()
                .filter(r -> r.job().equals("tpl_hourly_dag"))
                .findFirst()
                .orElseThrow();
        JsonNode conf = FakeJobServer.json(start.body()).path("conf");
        assertThat(conf.path("date").asText()).isEqualTo(date.toString());
        assertThat(conf.path("hour").asText()).isEqualTo("13");
        String runId = runs("tpl-airflow").getFirst().path("runId").asText();
        assertThat(start.header("X-Interlock-Run")).isEqualTo(runId);
        List<FakeJobServer.Received> polls = jobs.polls().stream()
                .filter(r -> r.job().equals("tpl_hourly_dag"))
                .toList();
        assertThat(polls).isNotEmpty().allSatisfy(poll -> {
            assertThat(poll.header("X-Interlock-Run")).isEqualTo(runId);
            assertThat(poll.header("X-Interlock-Date")).isEqualTo(date.toString());
        });
    }

    @Test
    void aTemplateThatCannotWorkIsRefusedAtRegistrationWithItsPath() {
        Response r = call("PUT", "/pipelines/tpl-broken", "application/yaml", "name: tpl-broken\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "https://jobs.example.com/export?date=${dat}"
                  headers: {X-Interlock-Run: "${run}"}
                  body: '{"hour":"${hours}"}'
                """);

        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(errors(r))
                .anySatisfy(e -> assertThat(e).startsWith("$.trigger.url: ").contains("${dat}"))
                .anySatisfy(e -> assertThat(e)
                        .startsWith("$.trigger.headers.X-Interlock-Run: ")
                        .contains("${run}"))
                .anySatisfy(e -> assertThat(e).startsWith("$.trigger.body: ").contains("${hours}"));
        assertThat(call("GET", "/pipelines/tpl-broken", null, null).status()).isEqualTo(404);
    }

    @Test
    void aUrlThatIsInvalidOnceTheHourIsFilledInIsRefusedForTheScheduleItBreaks() {
        // ${hour} is empty for a daily schedule: the host would become "jobs-.example.com".
        Response r = call(
                "PUT", "/pipelines/tpl-daily-host", "application/yaml", "name: tpl-daily-host\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "https://jobs-${hour}.example.com/export"
                schedules:
                  - {name: daily}
                """);

        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(errors(r))
                .hasSize(2)
                .allSatisfy(e -> assertThat(e).startsWith("$.trigger.url: ").contains("daily"))
                .anySatisfy(e -> assertThat(e).contains("https://jobs-.example.com/export"))
                .anySatisfy(e -> assertThat(e).contains("uses ${hour}, which schedule 'daily' cannot fill"));

        // The same URL is fine for hourly schedules, where ${hour} is two digits: a cron schedule's windows, or the
        // 24-entry form's hNN.
        putPipeline("name: tpl-cron-host\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "https://jobs-${hour}.example.com/export"
                schedules:
                  - {name: hourly, cron: "0 * * * *"}
                """);
        putPipeline("name: tpl-hourly-host\n" + ALWAYS_PASS + """
                trigger:
                  type: http
                  url: "https://jobs-${hour}.example.com/export"
                schedules:
                  - {name: h00}
                  - {name: h01}
                """);
    }

    @Test
    void theArgumentsOfAwsJobsAreCheckedTheSameWay() {
        Response r = call("PUT", "/pipelines/tpl-glue", "application/yaml", "name: tpl-glue\n" + ALWAYS_PASS + """
                trigger:
                  type: glue
                  jobName: nightly
                  arguments: {"--date": "${date}", "--window": "${windowStart}"}
                """);

        assertThat(r.status()).as(r.raw()).isEqualTo(400);
        assertThat(errors(r))
                .singleElement()
                .satisfies(e -> assertThat(e)
                        .startsWith("$.trigger.arguments.--window: ")
                        .contains("${windowStart}"));
    }

    private static List<String> errors(Response r) {
        return java.util.stream.StreamSupport.stream(r.body().path("errors").spliterator(), false)
                .map(e -> e.path("path").asText() + ": " + e.path("message").asText())
                .toList();
    }
}
