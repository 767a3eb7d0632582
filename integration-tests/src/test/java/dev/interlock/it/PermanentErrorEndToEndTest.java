package dev.interlock.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.services.sfn.model.ExecutionStatus;

/**
 * Permanent errors stop the wait (issue item 6), as an on-call engineer meets them on the local runtime: an HTTP
 * evaluator that answers 403 ends the day's waiting at once — FAILED, the trait named, one alert — and a new
 * evaluation request runs the day again; URLs that go to never-allowed addresses are refused when registered, with
 * the field's path.
 */
class PermanentErrorEndToEndTest extends EndToEnd {

    private final AtomicInteger answerStatus = new AtomicInteger(403);
    private final AtomicInteger calls = new AtomicInteger();
    /** The answer of {@code /freshness/reregister}, the re-registration scenario's own evaluator. */
    private final AtomicInteger reregisterStatus = new AtomicInteger(403);

    private String evaluatorUrl() {
        return evaluator("/freshness", path -> {
            calls.incrementAndGet();
            int status = path.endsWith("/reregister") ? reregisterStatus.get() : answerStatus.get();
            return status == 200
                    ? EvaluatorAnswer.of("PASS")
                    : new EvaluatorAnswer(status, "{\"error\":\"forbidden\"}");
        });
    }

    /** A batch-ingestion pipeline whose source-freshness is {@code evaluator} and whose job is the fake http job. */
    private String pipeline(String name, String evaluator) {
        return """
                name: %s
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "%s"}
                  upstream-dependency: {evaluator: "builtin:always-pass"}
                  resource-availability: {evaluator: "builtin:always-pass"}
                trigger: {type: http, url: "%s/jobs/%s"}
                evaluationIntervalSeconds: 60
                """.formatted(name, evaluator, jobs.endpoint(), name);
    }

    @Test
    void anEvaluatorAnswering403EndsTheDayAtOnceWithTheTraitNamedAndOneAlertAndANewEvaluationRunsItAgain()
            throws IOException {
        LocalDate date = today();
        putPipeline(pipeline("perm-403", evaluatorUrl()));

        String first = evaluate("perm-403", date);

        // The day stops on the first round: no second round, no wait until the validation deadline.
        assertThat(awaitDone(first)).isEqualTo(ExecutionStatus.FAILED);
        assertThat(eventsOf("perm-403", "READINESS_CHECKED")).hasSize(1);
        JsonNode log = runLog("perm-403", date, "daily");
        assertThat(log.path("status").asText()).isEqualTo("FAILED");
        assertThat(log.path("failureCategory").asText()).isEqualTo("PERMANENT");
        assertThat(log.path("failureMessage").asText())
                .startsWith("trait source-freshness failed PERMANENT: EVALUATOR_HTTP_ERROR")
                .contains("403");
        assertThat(log.path("retryHistory").get(0).path("trait").asText()).isEqualTo("source-freshness");
        assertThat(alertKinds("perm-403")).containsExactly("TRAIT_ERROR");
        assertThat(jobs.triggersOf("perm-403")).isZero();

        JsonNode status = expect(200, "GET", "/pipelines/perm-403/status?date=" + date, null, null);
        JsonNode daily = status.path("schedules").get(0);
        assertThat(daily.path("state").asText()).isEqualTo("FAILED");
        assertThat(daily.path("reason").asText())
                .contains("trait source-freshness failed PERMANENT")
                .contains("no attempt used");
        assertThat(why("perm-403", date)).contains("is FAILED").contains("trait source-freshness failed PERMANENT");

        // Once the evaluator is fixed, a new evaluation request runs the day again and it completes.
        answerStatus.set(200);
        String second = evaluate("perm-403", date);
        assertThat(awaitDone(second)).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("perm-403", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("perm-403")).isEqualTo(1);
        assertThat(alertKinds("perm-403")).containsExactly("TRAIT_ERROR");
    }

    @Test
    void aDayStoppedByA403RunsAgainOnceWhenThePipelineIsReRegisteredWithTheCliAfterTheEvaluatorIsFixed(
            @TempDir Path dir) throws IOException {
        LocalDate date = today();
        Path file = dir.resolve("perm-reregister.yaml");
        Files.writeString(file, pipeline("perm-reregister", evaluatorUrl() + "/reregister"));
        String endpoint = rt.apiEndpoint().toString();
        Cli created = cli("apply", "-f", file.toString(), "--endpoint", endpoint, "--no-sigv4");
        assertThat(created.code()).as(created.err()).isZero();
        assertThat(created.out()).doesNotContain("evaluation started");

        assertThat(awaitDone(evaluate("perm-reregister", date))).isEqualTo(ExecutionStatus.FAILED);
        assertThat(runLog("perm-reregister", date, "daily")
                        .path("failureCategory")
                        .asText())
                .isEqualTo("PERMANENT");

        // The on-call engineer fixes the evaluator and registers the same document again: the stopped day runs.
        reregisterStatus.set(200);
        Cli reregistered = cli("apply", "-f", file.toString(), "--endpoint", endpoint, "--no-sigv4");
        assertThat(reregistered.code()).as(reregistered.err()).isZero();
        Matcher started = Pattern.compile("evaluation started: daily " + date + " \\(execution (\\S+)\\)")
                .matcher(reregistered.out());
        assertThat(started.find()).as(reregistered.out()).isTrue();
        assertThat(awaitDone(started.group(1))).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(runLogStatus("perm-reregister", date, "daily")).isEqualTo("COMPLETED");
        assertThat(jobs.triggersOf("perm-reregister")).isEqualTo(1);
        assertThat(eventsOf("perm-reregister", "MARKER_WRITTEN"))
                .singleElement()
                .satisfies(e -> assertThat(e.path("message").asText())
                        .contains("re-registered")
                        .contains("source-freshness"));

        // A day that did not stop gets nothing from a registration: the PUT answers the document alone.
        JsonNode again = putPipeline(Files.readString(file));
        assertThat(again.has("evaluations")).isFalse();
        assertThat(eventsOf("perm-reregister", "MARKER_WRITTEN")).hasSize(1);
        assertThat(jobs.triggersOf("perm-reregister")).isEqualTo(1);
        assertThat(alertKinds("perm-reregister")).containsExactly("TRAIT_ERROR");
    }

    private static List<String> paths(JsonNode problem) {
        return StreamSupport.stream(problem.path("errors").spliterator(), false)
                .map(e -> e.path("path").asText() + " " + e.path("message").asText())
                .toList();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "http://169.254.169.254/latest/meta-data/iam/",
                "http://[fd00:ec2::254]/x",
                "http://[::ffff:169.254.169.254]/x",
                "http://2852039166/",
                "http://0251.0376.0251.0376/",
                "http://0xa9fea9fe/"
            })
    void registrationRefusesANeverAllowedEvaluatorOrTriggerUrlWithTheFieldPath(String url) {
        Response evaluatorRefused = call("PUT", "/pipelines/perm-url", "application/yaml", """
                name: perm-url
                archetype: batch-ingestion
                traits:
                  source-freshness: {evaluator: "%s"}
                trigger: {type: http, url: "http://127.0.0.1:1/jobs/x"}
                """.formatted(url));
        assertThat(evaluatorRefused.status()).as(evaluatorRefused.raw()).isEqualTo(400);
        assertThat(paths(evaluatorRefused.body()))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("$.traits.source-freshness.evaluator ")
                        .contains("never allowed"));

        for (String trigger : List.of(
                "{type: http, url: \"" + url + "\"}",
                "{type: airflow, url: \"" + url + "\", dagId: d}",
                "{type: databricks, workspaceUrl: \"" + url + "\", jobId: 1}")) {
            Response triggerRefused = call("PUT", "/pipelines/perm-url", "application/yaml", """
                    name: perm-url
                    archetype: batch-ingestion
                    trigger: %s
                    """.formatted(trigger));
            assertThat(triggerRefused.status()).as(triggerRefused.raw()).isEqualTo(400);
            assertThat(paths(triggerRefused.body()))
                    .as(trigger)
                    .anySatisfy(p -> assertThat(p).matches("\\$\\.trigger\\.(url|workspaceUrl) .*never allowed.*"));
        }
        assertThat(call("GET", "/pipelines/perm-url", null, null).status()).isEqualTo(404);

        // An archetype's trait evaluators are registered under the same rule, at their own paths.
        Response archetypeRefused = call("PUT", "/archetypes/perm-arch", "application/yaml", """
                name: perm-arch
                requiredTraits:
                  - {type: freshness, evaluator: "builtin:always-pass"}
                optionalTraits:
                  - {type: quality, evaluator: "%s"}
                readinessRule: {type: all-required-pass}
                """.formatted(url));
        assertThat(archetypeRefused.status()).as(archetypeRefused.raw()).isEqualTo(400);
        assertThat(paths(archetypeRefused.body()))
                .anySatisfy(p -> assertThat(p)
                        .startsWith("$.optionalTraits[0].evaluator ")
                        .contains("never allowed"));
        assertThat(call("GET", "/archetypes/perm-arch", null, null).status()).isEqualTo(404);
    }
}
